// Lanes: in single mode a PR depends on every PR ahead; in parallel mode on those whose impacted targets overlap
// its own, transitively, so disjoint PRs test and merge independently.
import type { QueueRecord, Submission } from './state.js';
import { pullRequestOf, submissionOf, type QueueWorld } from './world.js';

export type Targets = readonly string[] | 'ALL';

/** A PR's targets for its head SHA. Single mode, or none uploaded yet (admitted before a switch): ALL. */
export function targetsOf(world: QueueWorld, queue: QueueRecord, submission: Submission): Targets {
  if (queue.settings.mode !== 'parallel') return 'ALL';
  const pr = pullRequestOf(world, submission);
  return pr.impactedTargets[pr.sha] ?? 'ALL';
}

/** The targets of a set of PRs: what a PR must not overlap to be independent of all of them. */
export class Footprint {
  private any = false;
  private all = false;
  private readonly targets = new Set<string>();

  add(targets: Targets): void {
    this.any = true;
    if (targets === 'ALL') this.all = true;
    else for (const target of targets) this.targets.add(target);
  }

  /** Whether a PR with these targets depends on one of the PRs added (or they on it). */
  overlaps(targets: Targets): boolean {
    if (!this.any) return false;
    if (this.all || targets === 'ALL') return true;
    for (const target of targets) if (this.targets.has(target)) return true;
    return false;
  }

  /** Nothing behind can be independent of it any more. */
  get coversEverything(): boolean {
    return this.all;
  }
}

/** The PRs ahead of `start` that the group there depends on, in line order; each joined PR widens the walk. */
export function dependenciesAhead(world: QueueWorld, queue: QueueRecord, start: number, group: readonly Submission[]): string[] {
  if (queue.settings.mode !== 'parallel') return queue.line.slice(0, start);
  const met = new Footprint();
  for (const member of group) met.add(targetsOf(world, queue, member));
  const ahead: string[] = [];
  for (let i = start - 1; i >= 0; i--) {
    const id = queue.line[i]!;
    const targets = targetsOf(world, queue, submissionOf(world, id));
    if (met.overlaps(targets)) {
      ahead.push(id);
      met.add(targets);
    }
  }
  return ahead.reverse();
}
