// Every queue has an id, as v2 names queues by id (api/v2/NOTES.md §3, §17: 8 letters and digits, stable for the
// life of the state): deterministic from the seed and the queue's coordinates, kept across a restore, given to the
// queues of an older state, and never another queue's after a reset.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { EngineRefusal } from '../../src/sandbox/engine/types.js';
import { deterministicQueueId } from '../../src/sandbox/engine/ids.js';
import { queueKey } from '../../src/sandbox/engine/state.js';
import { queueOf } from '../../src/sandbox/engine/world.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };
const RELEASE = { repo: REPO, targetBranch: 'release' };
const OTHER = { repo: { ...REPO, name: 'gadgets' }, targetBranch: 'main' };
const QUEUE_ID = /^[0-9A-Za-z]{8}$/;
/** The id the sandbox derives for `queue` from the default seed and `counter` (the queues made before it). */
const idOf = (counter: number, queue: { repo: typeof REPO; targetBranch: string }) =>
  deterministicQueueId('mq-sandbox', counter, queueKey(queue.repo, queue.targetBranch));

function twoQueues(seed?: string): QueueEngine {
  const engine = QueueEngine.create({ now: START, ...(seed === undefined ? {} : { seed }) });
  engine.createQueue(RELEASE);
  engine.createQueue(MAIN);
  return engine;
}

describe('queue ids', () => {
  it('are 8 letters and digits, one for each queue, the same from the same seed and other from another', () => {
    const engine = twoQueues();
    const ids = [queueOf(engine.world, RELEASE).id, queueOf(engine.world, MAIN).id];
    for (const id of ids) expect(id).toMatch(QUEUE_ID);
    expect(new Set(ids).size).toBe(2);
    expect(ids).toEqual([idOf(0, RELEASE), idOf(1, MAIN)]);
    expect([queueOf(twoQueues().world, RELEASE).id, queueOf(twoQueues().world, MAIN).id]).toEqual(ids);
    expect(queueOf(twoQueues('another seed').world, RELEASE).id).not.toBe(ids[0]);
  });

  it('list the queues by repository and branch, and lead back to them', () => {
    const engine = twoQueues();
    engine.createQueue(OTHER);
    const listed = engine.listQueues();
    expect(listed.map(({ queue }) => queue)).toEqual([OTHER, MAIN, RELEASE]);
    for (const { id, queue } of listed) {
      expect(engine.queueWithId(id)).toEqual(queue);
      expect(queueOf(engine.world, queue).id).toBe(id);
    }
    expect(() => engine.queueWithId('nOtAnId0')).toThrow(expect.objectContaining({ kind: 'not_found' }));
    expect(() => queueOf(engine.world, { ...MAIN, targetBranch: 'nope' }).id).toThrow(EngineRefusal);
  });

  it('are kept by a restore, and a queue deleted and created again gets a new one', () => {
    const engine = twoQueues();
    const restored = QueueEngine.restore(engine.serialize());
    expect(restored.listQueues()).toEqual(engine.listQueues());
    const before = queueOf(restored.world, MAIN).id;
    restored.deleteQueue(MAIN);
    restored.createQueue(MAIN);
    expect(queueOf(restored.world, MAIN).id).not.toBe(before);
    expect(queueOf(restored.world, MAIN).id).toBe(idOf(2, MAIN));
  });

  it('take nothing from the PR ids: a PR gets the same id however many queues there are', () => {
    const one = QueueEngine.create({ now: START });
    one.createQueue(MAIN);
    one.submitPullRequest(MAIN, 1);
    const two = twoQueues();
    two.submitPullRequest(MAIN, 1);
    expect(two.getSubmittedPullRequest(MAIN, { number: 1 }).id).toBe(one.getSubmittedPullRequest(MAIN, { number: 1 }).id);
  });

  it('are given to the queues of a state written before queues had ids, the same on every upgrade, and kept after', () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/state-v1.json', import.meta.url), 'utf8')) as { state: unknown };
    const upgrade = () => QueueEngine.restore(JSON.stringify(fixture.state));
    const id = queueOf(upgrade().world, MAIN).id;
    expect(id).toBe(deterministicQueueId('mq-sandbox', 0));
    expect(queueOf(upgrade().world, MAIN).id).toBe(id);
    const saved = upgrade().serialize();
    const restored = QueueEngine.restore(saved);
    expect(queueOf(restored.world, MAIN).id).toBe(id);
    restored.createQueue(RELEASE);
    expect(queueOf(restored.world, RELEASE).id).toBe(idOf(1, RELEASE));
  });

  it('never name another queue from one start (or reset) to the next: the same queue made first gets its id again, another one its own', () => {
    // What a manual clock's sandbox does after reset(), or a new one at the same address: the same seed, from 0.
    const first = QueueEngine.create({ now: START });
    first.createQueue(MAIN);
    const kept = queueOf(first.world, MAIN).id;
    const again = QueueEngine.create({ now: START });
    again.createQueue(OTHER);
    expect(queueOf(again.world, OTHER).id).not.toBe(kept);
    expect(() => again.queueWithId(kept)).toThrow(expect.objectContaining({ kind: 'not_found' }));
    again.createQueue(MAIN);
    expect(queueOf(again.world, MAIN).id).not.toBe(kept);
    const same = QueueEngine.create({ now: START });
    same.createQueue(MAIN);
    expect(queueOf(same.world, MAIN).id).toBe(kept);
  });

  it('refuses a state document whose queue has no id', () => {
    const document = JSON.parse(twoQueues().serialize());
    for (const queue of Object.values<Record<string, unknown>>(document.queues)) delete queue.id;
    expect(() => QueueEngine.restore(JSON.stringify(document))).toThrow(/has no id/);
  });
});
