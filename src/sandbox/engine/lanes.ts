// Lanes: in single mode a PR depends on every PR ahead; in parallel mode on those whose impacted targets overlap
// its own, transitively, so disjoint PRs test and merge independently.
import type { QueueRecord, Submission } from './state.js';
import { includesSorted, overlapping, type Targets } from './target-lists.js';
import { pullRequestOf, submissionOf, type QueueWorld } from './world.js';

/** A PR's targets for its head SHA. Single mode, or none uploaded yet (admitted before a switch): ALL. */
export function targetsOf(world: QueueWorld, queue: QueueRecord, submission: Submission): Targets {
  if (queue.settings.mode !== 'parallel') return 'ALL';
  const pr = pullRequestOf(world, submission);
  return pr.impactedTargets[pr.sha] ?? 'ALL';
}

/** Past this many targets, a footprint keeps each PR's own list rather than copying it into its one set. */
const UNION_MAX = 4096;

/**
 * The targets of a set of PRs: what a PR must not overlap to be independent of all of them. The first PRs' targets
 * go into one set, up to UNION_MAX; past it, a PR's list is kept as it is and compared by overlapping(). The line
 * is walked at every settle: copying there every list of PRs touching thousands of targets made a day's
 * simulation of them take minutes and gigabytes, where two such lists meet within a few of their targets.
 */
export class Footprint {
  private any = false;
  private all = false;
  private readonly union = new Set<string>();
  private readonly lists: (readonly string[])[] = [];

  add(targets: Targets): void {
    this.any = true;
    if (targets === 'ALL') this.all = true;
    else if (this.union.size + targets.length <= UNION_MAX) for (const target of targets) this.union.add(target);
    else this.lists.push(targets);
  }

  /** Whether a PR with these targets depends on one of the PRs added (or they on it). */
  overlaps(targets: Targets): boolean {
    if (!this.any) return false;
    if (this.all || targets === 'ALL') return true;
    if (targets.length <= this.union.size) {
      if (targets.some((target) => this.union.has(target))) return true;
    } else for (const target of this.union) if (includesSorted(targets, target)) return true;
    return this.lists.some((list) => overlapping(list, targets));
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
