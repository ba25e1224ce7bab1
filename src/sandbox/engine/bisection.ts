// Bisection: a failed batch leaves the line and is split in halves, each tested alone on the target branch,
// recursively: a half that passes goes back to the line, a single PR that fails is the faulty one. With
// `bisection_skip_redundant_tests`, a half whose sibling passed is known to fail and is split without a run.
import { enterLine } from './admission.js';
import { cancelRun, runsInFlightOf, runsMayStart, startRun } from './runs.js';
import type { QueueRecord, Submission, TestRun } from './state.js';
import { conclude, indexOf, remove, submissionOf, testRunOf, transition, type QueueWorld } from './world.js';

export function startBisection(world: QueueWorld, queue: QueueRecord, batch: readonly Submission[]): void {
  const { tested } = indexOf(world, queue);
  for (const submission of batch) {
    remove(queue.line, submission.id);
    tested.delete(submission.id);
    submission.inBisection = true;
    submission.pendingSince = world.state.now;
  }
  world.changes++;
  split(
    world,
    queue,
    queue.bisection.length,
    batch.map((s) => s.id),
  );
}

/** Starts a run for each group waiting, while bisection slots are free; answers whether any started. */
export function startBisectionRuns(world: QueueWorld, queue: QueueRecord): boolean {
  if (!runsMayStart(queue) || queue.bisection.length === 0) return false;
  let free = queue.settings.bisectionConcurrency - runsInFlightOf(world, queue, 'bisection');
  let started = false;
  for (const group of queue.bisection) {
    if (free <= 0) break;
    if (group.runId !== undefined) continue;
    const members = group.pullRequestIds.map((id) => submissionOf(world, id));
    // Into bisection through pending, as the service says it (v2's pending reason, the webhook's queued one).
    for (const member of members) if (member.state === 'pending_failure') transition(world, queue, member, 'pending', 'bisection_required');
    group.runId = startRun(world, queue, 'bisection', members, []).id;
    free--;
    started = true;
  }
  return started;
}

export function finishBisectionRun(world: QueueWorld, queue: QueueRecord, run: TestRun, passed: boolean): void {
  const at = queue.bisection.findIndex((group) => group.runId === run.id);
  const group = queue.bisection[at];
  if (!group) return;
  delete group.runId;
  const members = group.pullRequestIds.map((id) => submissionOf(world, id));
  if (!passed) {
    for (const member of members) transition(world, queue, member, 'pending_failure');
    failGroup(world, queue, at);
    return;
  }
  queue.bisection.splice(at, 1);
  for (const member of members) returnToLine(world, queue, member);
  if (queue.settings.optimizationMode === 'bisection_skip_redundant_tests' && group.split !== undefined) {
    const sibling = queue.bisection.findIndex((other) => other.split === group.split && other.runId === undefined);
    if (sibling >= 0) failGroup(world, queue, sibling);
  }
}

/** A PR leaves its group: the group's run, if in flight, is cancelled and the group is tested again without it. */
export function leaveBisection(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  const at = queue.bisection.findIndex((group) => group.pullRequestIds.includes(submission.id));
  const group = queue.bisection[at];
  if (!group) return;
  remove(group.pullRequestIds, submission.id);
  delete group.split;
  if (group.runId !== undefined) {
    cancelRun(world, queue, testRunOf(world, group.runId));
    delete group.runId;
    for (const id of group.pullRequestIds) waitAgain(world, queue, submissionOf(world, id));
  }
  if (group.pullRequestIds.length === 0) queue.bisection.splice(at, 1);
}

export function returnToLine(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  transition(world, queue, submission, 'pending');
  delete submission.inBisection;
  enterLine(world, queue, submission);
}

/** A group known to fail: alone, its PR is the faulty one; more are split again. */
function failGroup(world: QueueWorld, queue: QueueRecord, at: number): void {
  const [group] = queue.bisection.splice(at, 1);
  if (!group) return;
  const [only] = group.pullRequestIds;
  if (group.pullRequestIds.length === 1 && only !== undefined) {
    conclude(world, queue, submissionOf(world, only), 'failed');
    return;
  }
  for (const id of group.pullRequestIds) waitAgain(world, queue, submissionOf(world, id));
  split(world, queue, at, group.pullRequestIds);
}

function split(world: QueueWorld, queue: QueueRecord, at: number, ids: readonly string[]): void {
  const half = Math.ceil(ids.length / 2);
  const split = queue.nextSplit++;
  queue.bisection.splice(at, 0, { pullRequestIds: ids.slice(0, half), split }, { pullRequestIds: ids.slice(half), split });
  world.changes++;
}

/** Waiting for a bisection slot again: pending_failure, and the wait counted from now. */
function waitAgain(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  transition(world, queue, submission, 'pending_failure');
  submission.pendingSince = world.state.now;
}
