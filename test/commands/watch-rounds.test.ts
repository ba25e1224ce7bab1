// A watch's rounds of one queue: each hands the next read the queue the round before read, but for a whole read
// every half minute, which stays due until one answers.
import { describe, expect, it } from 'vitest';
import { WatchRounds } from '../../src/command-kit/read-queue.js';
import type { Queue } from '../../src/model/queue.js';

const queueOf = (n: number) => ({ branch: 'main', enqueuedPullRequests: [{ prNumber: n }] }) as unknown as Queue;

describe('WatchRounds', () => {
  it('reads whole first and every 30 s; between, from the round before; a whole read that failed is due again', () => {
    const clock = { now: 0 };
    const rounds = new WatchRounds(() => clock.now);
    expect(rounds.next()).toBeUndefined();
    rounds.read(queueOf(1));
    clock.now += 2_000;
    expect(rounds.next()).toEqual(queueOf(1));
    rounds.read(queueOf(2));
    clock.now += 28_000;
    expect(rounds.next()).toBeUndefined();
    // That round failed: nothing read. The next is whole again.
    clock.now += 2_000;
    expect(rounds.next()).toBeUndefined();
    rounds.read(queueOf(3));
    clock.now += 2_000;
    expect(rounds.next()).toEqual(queueOf(3));
  });
});
