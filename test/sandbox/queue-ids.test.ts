// Every queue has an id, as v2 names queues by id (api/v2/NOTES.md §3, §17: 8 letters and digits, stable for the
// life of the state): deterministic from the seed, kept across a restore, given to the queues of an older state.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { EngineRefusal } from '../../src/sandbox/engine/types.js';
import { deterministicQueueId } from '../../src/sandbox/engine/ids.js';
import { queueOf } from '../../src/sandbox/engine/world.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };
const RELEASE = { repo: REPO, targetBranch: 'release' };
const OTHER = { repo: { ...REPO, name: 'gadgets' }, targetBranch: 'main' };
const QUEUE_ID = /^[0-9A-Za-z]{8}$/;

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
    expect(ids).toEqual([deterministicQueueId('mq-sandbox', 0), deterministicQueueId('mq-sandbox', 1)]);
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
    expect(queueOf(restored.world, MAIN).id).toBe(deterministicQueueId('mq-sandbox', 2));
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
    expect(queueOf(restored.world, RELEASE).id).toBe(deterministicQueueId('mq-sandbox', 1));
  });

  it('refuses a state document whose queue has no id', () => {
    const document = JSON.parse(twoQueues().serialize());
    for (const queue of Object.values<Record<string, unknown>>(document.queues)) delete queue.id;
    expect(() => QueueEngine.restore(JSON.stringify(document))).toThrow(/has no id/);
  });
});
