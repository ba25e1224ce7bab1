// Requests sent side by side (src/model/service.ts): when one fails, the command ends only once the others have,
// and no new one starts. Before, a failed read left its siblings in flight after the command (a v2 status of an
// unknown PR, its queue lookup still under way), and eachAtMost's other workers went on taking items.
import { describe, expect, it } from 'vitest';
import { allEnded, eachAtMost } from '../../src/model/service.js';

/** A promise settled by hand, and whether it has. */
function pending<T>() {
  let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
  const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
}

describe('requests side by side', () => {
  it('allEnded answers every value, in the order given', async () => {
    expect(await allEnded([Promise.resolve(1), 'two', Promise.resolve({ three: 3 })])).toEqual([1, 'two', { three: 3 }]);
  });

  it('allEnded rejects with the first failure in the order given, once every sibling has ended', async () => {
    const slow = pending<number>();
    let ended = false;
    const all = allEnded([Promise.reject(new Error('first')), slow.promise.finally(() => (ended = true)), Promise.reject(new Error('second'))]);
    let outcome: unknown;
    all.catch((error: Error) => (outcome = error.message));
    // Every microtask run: Promise.all would have rejected by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(outcome).toBeUndefined();
    slow.resolve(2);
    await expect(all).rejects.toThrow('first');
    expect(ended).toBe(true);
  });

  it('eachAtMost starts nothing after a failure, and rejects once the work under way has ended', async () => {
    const started: number[] = [];
    const held = new Map<number, ReturnType<typeof pending<void>>>();
    const work = (item: number) => {
      started.push(item);
      const step = pending<void>();
      held.set(item, step);
      return step.promise;
    };
    const all = eachAtMost(2, [1, 2, 3, 4, 5], work);
    let outcome: unknown;
    all.catch((error: Error) => (outcome = error.message));
    expect(started).toEqual([1, 2]);
    held.get(1)!.reject(new Error('one failed'));
    await new Promise((resolve) => setImmediate(resolve));
    // #2 still under way: no rejection yet, and #3 was not started in #1's place.
    expect(outcome).toBeUndefined();
    expect(started).toEqual([1, 2]);
    held.get(2)!.resolve();
    await expect(all).rejects.toThrow('one failed');
    expect(started).toEqual([1, 2]);
  });
});
