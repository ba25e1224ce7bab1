// What `mq queue get --watch` costs a v2 service on a long queue, counted by the recorder between mq's service (in
// this process) and a fresh sandbox: v2 lists a queue's PRs a hundred to a page, and a round that read them all
// was a hundred requests on 10,000 PRs, where v1 reads one answer. A round past the first reads the order, the
// newest page, the PRs not ready and those the order shows changed: and shows what a whole read would.
import { describe, expect, it } from 'vitest';
import { createV2Service } from '../../src/api/v2/v2-service.js';
import { watchQueue } from '../../src/commands/queue/watch.js';
import { InterruptedError } from '../../src/errors.js';
import type { Queue } from '../../src/model/queue.js';
import { control, sandboxEnv, V2_TEST_KEY } from '../support/cli.js';
import { QUEUE, testContext } from '../support/context.js';
import { mq, type SandboxFixture, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

describe('the cost of a watch', () => {
  it('on v2, a 450-PR queue is read whole every half minute, each round between by its order and what changed, as a whole read shows it', async () => {
    // Changes made past the recorder: only the watch's requests are counted.
    const env = sandboxEnv(fixture.sandboxUrl, 'acme/widgets', {}, 'v2');
    expect((await mq(['queue', 'create', '--concurrency', '3'], { env })).code).toBe(0);
    expect((await mq(['submit', ...Array.from({ length: 450 }, (_, i) => String(i + 1))], { env })).code).toBe(0);
    const run = async (...args: string[]) => expect((await mq(args, { env })).code).toBe(0);
    const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });
    // Between one round and the next: runs end and PRs merge, a PR cancelled, two submitted, a priority raised
    // (in place: the order does not show it), half a minute of quiet (the next round reads the queue whole).
    const changes: Change[] = [
      () => advance(600),
      () => run('cancel', '300'),
      () => run('submit', '451', '452'),
      () => advance(1200),
      () => run('edit', '200', '--priority', 'high'),
      async (clock) => {
        clock.now += 30_000;
      },
    ];
    const { seen, truth, requests } = await watchThrough(fixture, changes);
    expect(seen).toHaveLength(changes.length + 1);
    // Each round as a whole read shows the queue, but #200's priority in the round after its change.
    const edited = 5;
    seen.forEach((queue, round) => {
      if (round !== edited) expect({ round, queue }).toEqual({ round, queue: truth[round] });
    });
    const priorityOf = (queue: Queue) => queue.enqueuedPullRequests.find((pr) => pr.prNumber === 200)?.priorityName;
    expect([priorityOf(truth[edited]!), priorityOf(seen[edited]!), priorityOf(seen[edited + 1]!)]).toEqual(['high', 'medium', 'high']);
    expect({ ...seen[edited]!, enqueuedPullRequests: seen[edited]!.enqueuedPullRequests.filter((pr) => pr.prNumber !== 200) }).toEqual({
      ...truth[edited]!,
      enqueuedPullRequests: truth[edited]!.enqueuedPullRequests.filter((pr) => pr.prNumber !== 200),
    });
    // What changed showed: PRs merged and tested, #300 gone, #451 and #452 in.
    const numbers = (queue: Queue) => queue.enqueuedPullRequests.map((pr) => pr.prNumber);
    expect(numbers(seen[1]!)[0]).toBeGreaterThan(numbers(seen[0]!)[0]!);
    expect(numbers(seen[2]!)).not.toContain(300);
    expect(numbers(seen[3]!)).toEqual(expect.arrayContaining([451, 452]));
    // The first round and the one half a minute on read the list page by page; the others read no page past the
    // first: the queue's settings, its order, the newest page, the PRs not ready, the changed PRs read together.
    const pages = (round: string[]) => round.filter((request) => request.includes('cursor=')).length;
    expect(requests.map(pages)).toEqual([4, 0, 0, 0, 0, 0, 4]);
    for (const round of [1, 2, 3, 4, 5]) expect(requests[round]!.length).toBeLessThanOrEqual(5 + 4);
    // A round after no change of state reads no PR on its own.
    expect(requests[edited]!.filter((request) => request.startsWith('GET /v2/pull-requests'))).toEqual([]);
  });

  it('on v2, a short queue (one page) costs each round its settings, its order and its one page, no request twice', async () => {
    const env = sandboxEnv(fixture.sandboxUrl, 'acme/widgets', {}, 'v2');
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '1', '2', '3'], { env })).code).toBe(0);
    const service = createV2Service({ token: V2_TEST_KEY, timeoutMs: 10_000, userAgent: 'mq-test', apiUrl: fixture.recorder.url });
    const controller = new AbortController();
    const { ctx, clock } = testContext({ service, signal: controller.signal });
    const requests: string[][] = [];
    ctx.sleep = async (ms) => {
      if (requests.length === 4) {
        controller.abort();
        throw new InterruptedError();
      }
      clock.now += ms;
    };
    const watching = watchQueue({ intervalMs: 2_000 }, ctx, {
      polled: () => void requests.push(fixture.recorder.requests.splice(0).map((request) => `${request.method} ${request.path.replace(/\?.*/, '')}`)),
      unreachable: () => undefined,
      reachable: () => undefined,
    });
    await expect(watching).rejects.toBeInstanceOf(InterruptedError);
    for (const round of requests.slice(1)) expect(new Set(round).size, round.join(', ')).toBe(round.length);
    for (const round of requests.slice(1)) expect(round).toHaveLength(3);
    await service.close();
  });
});

describe('the cost of a watch past the graph soft cap', () => {
  // The sandbox admits 10 PRs to a queue's graph: its order names the first 100 of those behind them, of 440.
  const capped = useSandbox({ graphSoftCap: 10 });

  it('on v2, a long queue whose order leaves PRs awaiting admission unnamed: they keep their rows, as a whole read lists them, until one leaves', async () => {
    const env = sandboxEnv(capped.sandboxUrl, 'acme/widgets', {}, 'v2');
    const mergeable = (number: number, value: boolean) =>
      control(capped.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, number, mergeable: value });
    expect((await mq(['queue', 'create', '--concurrency', '3'], { env })).code).toBe(0);
    // #200 waits not ready among the oldest: off the newest page.
    await mergeable(200, false);
    expect((await mq(['submit', ...Array.from({ length: 450 }, (_, i) => String(i + 1))], { env })).code).toBe(0);
    const run = async (...args: string[]) => expect((await mq(args, { env })).code).toBe(0);
    // Between one round and the next: runs end (PRs merge, others are admitted and named), two submitted (one not
    // ready), both PRs not ready made ready (pending, past the cap: unnamed), an unnamed PR cancelled (the round
    // cannot tell which left: it reads the queue whole), runs end again, half a minute of quiet (a whole read).
    const changes: Change[] = [
      () => control(capped.sandboxUrl, 'advance', { seconds: 600 }),
      async () => {
        await mergeable(451, false);
        await run('submit', '451', '452');
      },
      async () => {
        await mergeable(451, true);
        await mergeable(200, true);
      },
      () => run('cancel', '300'),
      () => control(capped.sandboxUrl, 'advance', { seconds: 600 }),
      async (clock) => {
        clock.now += 30_000;
      },
    ];
    const { seen, truth, requests } = await watchThrough(capped, changes);
    expect(seen).toEqual(truth);
    const states = (queue: Queue, pr: number) => queue.enqueuedPullRequests.find((row) => row.prNumber === pr)?.state;
    expect([states(seen[2]!, 451), states(seen[3]!, 451), states(seen[2]!, 200), states(seen[3]!, 200), states(seen[4]!, 300)]).toEqual([
      'not_ready',
      'pending',
      'not_ready',
      'pending',
      undefined,
    ]);
    const pages = (round: string[]) => round.filter((request) => request.includes('cursor=')).length;
    expect(requests.map(pages)).toEqual([4, 0, 0, 0, 4, 0, 4]);
    // #200, not ready the round before and off the newest page, is read again (with any the order shows changed), not
    // the queue; #451 comes whole with the newest page.
    const read = requests[3]!
      .filter((request) => request.startsWith('GET /v2/pull-requests?'))
      .flatMap((request) => new URLSearchParams(request.split('?')[1]).get('number')?.split(',') ?? []);
    expect([read.includes('200'), read.includes('451')]).toEqual([true, false]);
  });
});

/** A change made between two rounds of a watch, given the watch's clock. */
type Change = (clock: { now: number }) => Promise<unknown>;

/**
 * Watches the queue on v2 through the fixture's recorder until the changes run out, one made after each round: each
 * round's queue, a whole read of the queue made at the same moment past the recorder, and the round's requests.
 */
async function watchThrough(fixture: SandboxFixture, changes: readonly Change[]): Promise<{ seen: Queue[]; truth: Queue[]; requests: string[][] }> {
  const options = { token: V2_TEST_KEY, timeoutMs: 10_000, userAgent: 'mq-test' };
  const service = createV2Service({ ...options, apiUrl: fixture.recorder.url });
  const whole = createV2Service({ ...options, apiUrl: fixture.sandboxUrl });
  const controller = new AbortController();
  const { ctx, clock } = testContext({ service, signal: controller.signal });
  const seen: Queue[] = [];
  const truth: Queue[] = [];
  const requests: string[][] = [];
  ctx.sleep = async (ms) => {
    whole.readAfresh?.();
    truth.push(await whole.getQueue(QUEUE, { inOrder: true }));
    const change = changes[truth.length - 1];
    if (!change) {
      controller.abort();
      throw new InterruptedError();
    }
    await change(clock);
    clock.now += ms;
  };
  const watching = watchQueue({ intervalMs: 2_000 }, ctx, {
    polled: (queue) => {
      seen.push(queue);
      requests.push(fixture.recorder.requests.splice(0).map((request) => `${request.method} ${request.path}`));
    },
    unreachable: () => undefined,
    reachable: () => undefined,
  });
  await expect(watching).rejects.toBeInstanceOf(InterruptedError);
  await service.close();
  await whole.close();
  return { seen, truth, requests };
}
