// pending_failure: a failed PR waits for every PR ahead on its test branch, the earliest faulty one settled first
// (a later failure that was only its echo is tested again). Then it waits for the next `pendingFailureDepth` runs
// built on it; with `canOptimisticallyMerge` one passing clears it. Otherwise a PR fails, a batch is bisected.
import { startBisection } from './bisection.js';
import { testedInLine } from './line.js';
import { baseInLine, isBuiltOn, sendBackRunsBuiltOn } from './runs.js';
import type { QueueRecord, Submission } from './state.js';
import { conclude, testRunOf, transition, type QueueWorld } from './world.js';

type Front = ReturnType<typeof testedInLine>;

/** Settles every pending failure that can be settled at this instant; answers whether any was. */
export function settlePendingFailures(world: QueueWorld, queue: QueueRecord): boolean {
  let settled = false;
  while (settleEarliest(world, queue)) settled = true;
  return settled;
}

function settleEarliest(world: QueueWorld, queue: QueueRecord): boolean {
  const front = testedInLine(world, queue);
  const considered = new Set<string>();
  for (const { submission, position } of front) {
    const runId = submission.latestTestRunId;
    if (submission.state !== 'pending_failure' || runId === undefined || considered.has(runId)) continue;
    considered.add(runId);
    const failed = front
      .filter((entry) => entry.submission.state === 'pending_failure' && entry.submission.latestTestRunId === runId)
      .map((entry) => entry.submission);
    // Blamed on the prediction the run was built on: the PRs its test branch held, not the lanes of now (after
    // a change of mode they differ, and a PR that failed only for a faulty one ahead must not be removed).
    if (baseInLine(world, testRunOf(world, runId)).some((ahead) => ahead.state !== 'tests_passed')) continue;
    const onTop = runsOnTop(world, queue, front, position, failed);
    if (onTop.passed && queue.settings.canOptimisticallyMerge) {
      for (const member of failed) transition(world, queue, member, 'tests_passed');
      return true;
    }
    if (onTop.inFlight) continue;
    sendBackRunsBuiltOn(world, queue, new Set(failed.map((s) => s.id)));
    if (failed.length > 1) startBisection(world, queue, failed);
    else for (const member of failed) conclude(world, queue, member, 'failed');
    return true;
  }
  return false;
}

/** The next `pendingFailureDepth` runs behind the failed PRs whose test branch holds them. */
function runsOnTop(
  world: QueueWorld,
  queue: QueueRecord,
  front: Front,
  position: number,
  failed: readonly Submission[],
): { passed: boolean; inFlight: boolean } {
  const failedIds = new Set(failed.map((s) => s.id));
  const runs = new Set<string>();
  let passed = false;
  let inFlight = false;
  for (const { submission, position: behind } of front) {
    if (behind <= position || failedIds.has(submission.id) || !isBuiltOn(world, submission, failedIds)) continue;
    const runId = submission.latestTestRunId!;
    if (runs.has(runId)) continue;
    if (runs.size === queue.settings.pendingFailureDepth) break;
    runs.add(runId);
    const status = testRunOf(world, runId).status;
    if (status === 'in_progress') inFlight = true;
    else if (status === 'succeeded') passed = true;
  }
  return { passed, inFlight };
}
