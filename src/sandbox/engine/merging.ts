// A PR that passed merges once no PR it depends on, nor any its test branch held, is left ahead of it; a batch
// merges together. (The two differ across a change of mode: a PR tested on the old line merges after what it held.)
import { Footprint, targetsOf } from './lanes.js';
import { scanFront } from './line.js';
import { TESTED_STATES, type QueueRecord, type Submission } from './state.js';
import { submissionOf, testRunOf, transition, type QueueWorld } from './world.js';

/** Merges every PR that may merge at this instant; answers whether any did. */
export function mergePassed(world: QueueWorld, queue: QueueRecord): boolean {
  // A paused queue converting to another mode is still paused: its runs finish, nothing merges.
  if (queue.state === 'paused' || queue.switching?.returnTo === 'paused') return false;
  // A batch whose members cannot all merge holds them all back, and they then block the PRs behind them.
  const heldRuns = new Set<string>();
  for (;;) {
    const mergeable: Submission[] = [];
    const blocked = new Footprint();
    /** The PRs passed over so far: a PR whose test branch held one of them waits for it. */
    const staying = new Set<string>();
    scanFront(world, queue, (submission) => {
      const targets = targetsOf(world, queue, submission);
      const runId = submission.latestTestRunId;
      if (
        submission.state === 'tests_passed' &&
        runId !== undefined &&
        !heldRuns.has(runId) &&
        !blocked.overlaps(targets) &&
        !(staying.size > 0 && testRunOf(world, runId).basePullRequestIds.some((id) => staying.has(id)))
      ) {
        mergeable.push(submission);
        return;
      }
      blocked.add(targets);
      staying.add(submission.id);
      return !blocked.coversEverything;
    });
    if (mergeable.length === 0) return false;
    const incomplete = incompleteBatches(world, mergeable);
    if (incomplete.length > 0) {
      for (const runId of incomplete) heldRuns.add(runId);
      continue;
    }
    for (const submission of mergeable) markMerged(world, queue, submission);
    // The merged PRs are in the scanned front of the line: only that part is rebuilt.
    const merging = new Set(mergeable.map((s) => s.id));
    let end = 0;
    for (let found = 0; found < merging.size; end++) if (merging.has(queue.line[end]!)) found++;
    const front = queue.line.slice(0, end).filter((id) => !merging.has(id));
    queue.line.splice(0, end, ...front);
    return true;
  }
}

/** A PR that merges straight from the line (directMergeMode), without a run. */
export function mergeDirectly(world: QueueWorld, queue: QueueRecord, submission: Submission, position: number): void {
  markMerged(world, queue, submission);
  queue.line.splice(position, 1);
}

function markMerged(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  queue.mergeCount++;
  transition(world, queue, submission, 'merged');
}

/** The runs of these PRs whose other PRs are not all merging with them. */
function incompleteBatches(world: QueueWorld, mergeable: readonly Submission[]): string[] {
  const merging = new Set(mergeable.map((s) => s.id));
  const incomplete = new Set<string>();
  for (const submission of mergeable) {
    const run = testRunOf(world, submission.latestTestRunId!);
    if (run.pullRequestIds.length === 1) continue;
    for (const id of run.pullRequestIds) {
      const mate = submissionOf(world, id);
      const restsOnRun = mate.latestTestRunId === run.id && TESTED_STATES.has(mate.state) && !mate.inBisection;
      if (restsOnRun && !merging.has(id)) incomplete.add(run.id);
    }
  }
  return [...incomplete];
}
