// The lanes' comparison of PRs' impacted targets: exact whatever the lists, and cheap where they are long. A
// simulation of PRs touching 10,000 of 100,000 deps each (helper-97) walked the line at every settle copying each
// PR's whole list into one set; a day of it took minutes. Its cost is counted here in reads of the lists, not timed.
import { describe, expect, it } from 'vitest';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { Footprint } from '../../src/sandbox/engine/lanes.js';
import { heldTargets, overlapping } from '../../src/sandbox/engine/target-lists.js';
import { seeded } from '../../src/simulate/fit-run.js';

/** `count` distinct targets of `space`, held as the engine holds them (sorted), each read of an element counted. */
function counted(count: number, space: number, next: () => number, reads: { n: number }): readonly string[] {
  const drawn = new Set<string>();
  while (drawn.size < count) drawn.add(`//t${String(Math.floor(next() * space)).padStart(6, '0')}`);
  return new Proxy([...drawn].sort(), {
    get(list, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.n++;
      return Reflect.get(list, key, receiver);
    },
  });
}

describe('the lanes', () => {
  it('meet PRs of thousands of targets within a few of them: a footprint of 200 reads far less than one list', () => {
    const next = seeded(1);
    const reads = { n: 0 };
    const wide = Array.from({ length: 200 }, () => counted(5000, 100_000, next, reads));
    const footprint = new Footprint();
    for (const list of wide) footprint.add(list);
    const another = counted(5000, 100_000, next, reads);
    expect(footprint.overlaps(another)).toBe(true);
    // Copied into one set, the 200 lists were read whole: 1,000,000 reads.
    expect(reads.n).toBeLessThan(5000);
  });

  it('answer exactly as a set of every target would, for lists short and long, sorted or not as uploaded', () => {
    const next = seeded(2);
    for (let round = 0; round < 300; round++) {
      const space = 1 + Math.floor(next() * 400);
      const lists = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
        const drawn = Array.from({ length: Math.floor(next() * Math.min(space, 6000)) }, () => `//t${Math.floor(next() * space)}`);
        return heldTargets(drawn) as string[];
      });
      const [asked, ...added] = lists as [string[], ...string[][]];
      const footprint = new Footprint();
      for (const list of added) footprint.add(list);
      const every = new Set(added.flat());
      expect(footprint.overlaps(asked), `round ${round}`).toBe(added.length > 0 && asked.some((target) => every.has(target)));
      for (const list of added) expect(overlapping(asked, list)).toBe(asked.some((target) => list.includes(target)));
    }
  });

  it('hold a PR’s targets sorted, each once, however they were uploaded or a state written before held them', () => {
    const main = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
    const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    engine.createQueue(main, { mode: 'parallel', concurrency: 2 });
    engine.setImpactedTargets(main, 1, undefined, ['//b', '//a', '//b']);
    engine.setImpactedTargets(main, 2, undefined, ['//c', '//a']);
    engine.submitPullRequest(main, 1);
    engine.submitPullRequest(main, 2);
    const held = (copy: QueueEngine) => Object.values(copy.world.state.pullRequests).map((pr) => Object.values(pr.impactedTargets));
    expect(held(engine)).toEqual([[['//a', '//b']], [['//a', '//c']]]);
    // A state written before they were held sorted: read back sorted, and 2 still stands on 1.
    const older = JSON.parse(engine.serialize());
    for (const pr of Object.values(older.pullRequests) as { impactedTargets: Record<string, string[]> }[]) {
      for (const sha of Object.keys(pr.impactedTargets)) pr.impactedTargets[sha]!.reverse();
    }
    const restored = QueueEngine.restore(JSON.stringify(older));
    expect(held(restored)).toEqual([[['//a', '//b']], [['//a', '//c']]]);
    expect(restored.getMergeQueueTestingDetails(main, restored.getSubmittedPullRequest(main, { number: 2 }).verifiedByTestRun!).dependentPrs).toEqual([1]);
  });
});
