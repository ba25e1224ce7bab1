// PRs entering the line: a not_ready PR once the readiness rule holds, a PR bisection cleared, a restarted one
// coming back from bisection. Where it stands follows its priority; an up-to-date PR with nothing ahead of it
// merges at once under `directMergeMode: always`.
import { dependenciesAhead } from './lanes.js';
import { insertIntoLine } from './line.js';
import { mergeDirectly } from './merging.js';
import { isReady, mayMergeDirectly } from './readiness.js';
import { revalidateRuns } from './runs.js';
import type { QueueRecord, Submission } from './state.js';
import { indexOf, pullRequestOf, remove, submissionOf, transition, type QueueWorld } from './world.js';

/**
 * Admits the ready PRs among `only`, or among every not_ready PR when the queue asked for a fresh look; in
 * submission order. Running and paused queues admit; draining and switching ones do not. Answers whether any entered.
 */
export function admitReady(world: QueueWorld, queue: QueueRecord, only?: readonly Submission[]): boolean {
  if (queue.state !== 'running' && queue.state !== 'paused') return false;
  const index = indexOf(world, queue);
  let candidates: readonly Submission[];
  if (only) candidates = only;
  else if (index.recheckWaiting) candidates = queue.waiting.map((id) => submissionOf(world, id));
  else return false;
  if (!only) index.recheckWaiting = false;
  let admitted = false;
  for (const submission of candidates) {
    if (submission.state !== 'not_ready' || !isReady(queue, pullRequestOf(world, submission))) continue;
    remove(queue.waiting, submission.id);
    transition(world, queue, submission, 'pending');
    enterLine(world, queue, submission);
    admitted = true;
  }
  return admitted;
}

/** A pending PR takes its place in the line; the runs it now stands ahead of are checked, and it may merge at once. */
export function enterLine(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  const { at, overtookTested } = insertIntoLine(world, queue, submission);
  // The runs it overtook no longer hold every PR ahead: their PRs go back, interrupted by the urgent one.
  if (overtookTested) revalidateRuns(world, queue, 'skip_the_line_interrupted');
  if (queue.settings.directMergeMode !== 'always') return;
  const ahead = queue.settings.mode === 'parallel' ? dependenciesAhead(world, queue, at, [submission]).length : at;
  if (mayMergeDirectly(queue, submission, ahead)) mergeDirectly(world, queue, submission, at);
}
