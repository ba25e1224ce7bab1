// Test runs: one PR or a batch on top of a predicted base (the PRs ahead it depends on), on a branch of its own.
import { pullRequestIsFaulty } from './facts.js';
import { sha1Hex } from './digest.js';
import { dependenciesAhead } from './lanes.js';
import { testedInLine } from './line.js';
import { recordEvent } from './metrics.js';
import { FINAL_STATES, TESTED_STATES, queueKey, type QueueRecord, type QueueType, type Submission, type TestRun } from './state.js';
import { pullRequestOf, remove, submissionOf, testRunOf, transition, type QueueWorld } from './world.js';

export function startRun(world: QueueWorld, queue: QueueRecord, queueType: QueueType, tested: readonly Submission[], base: string[]): TestRun {
  const id = world.newId();
  const durationMs = Math.max(0, ...tested.map((submission) => durationOf(world, submission)));
  const run: TestRun = {
    id,
    queueKey: queueKey(queue.repo, queue.branch),
    queueType,
    pullRequestIds: tested.map((s) => s.id),
    basePullRequestIds: base,
    status: 'in_progress',
    createdAt: world.state.now,
    durationMs,
    testBranch: `trunk-merge/pr-${tested[0]!.number}/${id}`,
    testBranchSha: sha1Hex(`test-branch:${id}`),
    requiredStatuses: [...(queue.settings.requiredStatuses ?? [])],
  };
  world.state.testRuns[id] = run;
  queue.runsInFlight.push(id);
  for (const submission of tested) {
    submission.latestTestRunId = id;
    transition(world, queue, submission, 'testing');
  }
  return run;
}

/** How long a run of the PR takes: its own duration, else the sandbox's. */
export function durationOf(world: QueueWorld, submission: Submission): number {
  const seconds = pullRequestOf(world, submission).testDurationSeconds;
  return seconds === undefined ? world.testDurationMs : Math.round(seconds * 1000);
}

/** When a run in flight ends: its duration, or the queue's testing timeout if that comes first. */
export function runEndsAt(queue: QueueRecord, run: TestRun): number {
  return run.createdAt + Math.min(run.durationMs, timeoutMs(queue));
}

export function nextRunEnd(world: QueueWorld, queue: QueueRecord): number | undefined {
  let next: number | undefined;
  for (const id of queue.runsInFlight) {
    const end = runEndsAt(queue, testRunOf(world, id));
    if (next === undefined || end < next) next = end;
  }
  return next;
}

export function dueRuns(world: QueueWorld, queue: QueueRecord): TestRun[] {
  const now = world.state.now;
  return queue.runsInFlight
    .map((id) => testRunOf(world, id))
    .filter((run) => runEndsAt(queue, run) <= now)
    .sort((a, b) => runEndsAt(queue, a) - runEndsAt(queue, b));
}

export function runsInFlightOf(world: QueueWorld, queue: QueueRecord, queueType: QueueType): number {
  let count = 0;
  for (const id of queue.runsInFlight) if (testRunOf(world, id).queueType === queueType) count++;
  return count;
}

/** Whether the run passed: not past the timeout, nor with any faulty PR on its branch, the base included. */
export function completeRun(world: QueueWorld, queue: QueueRecord, run: TestRun): boolean {
  const now = world.state.now;
  let passed = run.durationMs <= timeoutMs(queue);
  for (const id of run.basePullRequestIds) {
    if (pullRequestOf(world, submissionOf(world, id)).testOutcome === 'fail') passed = false;
  }
  for (const id of run.pullRequestIds) {
    const pr = pullRequestOf(world, submissionOf(world, id));
    if (pullRequestIsFaulty(pr)) passed = false;
    pr.completedTestRuns++;
  }
  run.status = passed ? 'succeeded' : 'failed';
  run.finishedAt = now;
  remove(queue.runsInFlight, run.id);
  const seconds = (now - run.createdAt) / 1000;
  for (let i = 0; i < run.pullRequestIds.length; i++) recordEvent(queue, { at: now, queueType: run.queueType, kind: 'testDuration', seconds });
  world.changes++;
  return passed;
}

export function cancelRun(world: QueueWorld, queue: QueueRecord, run: TestRun): void {
  run.status = 'cancelled';
  run.finishedAt = world.state.now;
  remove(queue.runsInFlight, run.id);
  world.changes++;
}

/** Whether runs may start in the queue's state: not while paused, nor while switching modes. */
export function runsMayStart(queue: QueueRecord): boolean {
  return queue.state === 'running' || queue.state === 'draining';
}

/** The PR's result no longer stands: its run is cancelled if in flight, and the batch resting on it goes back. */
export function releaseRun(world: QueueWorld, queue: QueueRecord, submission: Submission, reason?: string): void {
  const runId = submission.latestTestRunId;
  if (runId === undefined || submission.inBisection || !TESTED_STATES.has(submission.state)) return;
  const run = testRunOf(world, runId);
  if (run.status === 'in_progress') cancelRun(world, queue, run);
  for (const id of run.pullRequestIds) {
    if (id === submission.id) continue;
    const mate = submissionOf(world, id);
    if (mate.latestTestRunId === runId && !mate.inBisection && TESTED_STATES.has(mate.state)) transition(world, queue, mate, 'pending', reason);
  }
}

export function sendBackToPending(world: QueueWorld, queue: QueueRecord, submission: Submission, reason?: string): void {
  releaseRun(world, queue, submission, reason);
  transition(world, queue, submission, 'pending', reason);
}

/** The run's base PRs still in the line (its prediction, whatever the lanes are now): whom a failure is blamed on. */
export function baseInLine(world: QueueWorld, run: TestRun): Submission[] {
  const ahead: Submission[] = [];
  for (const id of run.basePullRequestIds) {
    const submission = submissionOf(world, id);
    if (standsInLine(submission)) ahead.push(submission);
  }
  return ahead;
}

/** Whether the submission's current result rests on a run whose base held one of `ahead`. */
export function isBuiltOn(world: QueueWorld, submission: Submission, ahead: ReadonlySet<string>): boolean {
  if (!TESTED_STATES.has(submission.state) || submission.latestTestRunId === undefined) return false;
  return testRunOf(world, submission.latestTestRunId).basePullRequestIds.some((id) => ahead.has(id));
}

/** PRs ahead left the prediction (cancelled, failed, set aside): the runs built on them start again. */
export function sendBackRunsBuiltOn(world: QueueWorld, queue: QueueRecord, ahead: ReadonlySet<string>): void {
  for (const { submission } of testedInLine(world, queue)) {
    if (isBuiltOn(world, submission, ahead)) sendBackToPending(world, queue, submission);
  }
}

/**
 * The lanes changed: a run whose base is no longer the PRs its PRs depend on starts again. Base PRs that left the
 * line are no matter: merged, they are in the branch; otherwise they already sent their runs back. `reason`: the
 * steps back to pending say it (an urgent PR's overtaking; a PR's new facts have none).
 */
export function revalidateRuns(world: QueueWorld, queue: QueueRecord, reason?: string): void {
  const units = new Map<string, { members: Submission[]; position: number }>();
  for (const { submission, position } of testedInLine(world, queue)) {
    const runId = submission.latestTestRunId;
    if (runId === undefined) continue;
    const unit = units.get(runId);
    if (unit) unit.members.push(submission);
    else units.set(runId, { members: [submission], position });
  }
  for (const [runId, { members, position }] of units) {
    if (!members.every((member) => TESTED_STATES.has(member.state))) continue;
    const run = testRunOf(world, runId);
    const base = new Set(run.basePullRequestIds);
    const expected = dependenciesAhead(world, queue, position, members);
    const wanted = new Set(expected);
    const stale = expected.some((id) => !base.has(id)) || run.basePullRequestIds.some((id) => !wanted.has(id) && standsInLine(submissionOf(world, id)));
    if (stale) sendBackToPending(world, queue, members[0]!, reason);
  }
}

/** Whether the submission stands in the line: admitted, not set aside for bisection, not final. */
function standsInLine(submission: Submission): boolean {
  return !submission.inBisection && submission.state !== 'not_ready' && !FINAL_STATES.has(submission.state);
}

/** 0 disables the timeout (the service takes 0 today). */
function timeoutMs(queue: QueueRecord): number {
  const minutes = queue.settings.testingTimeoutMinutes;
  return minutes === 0 ? Number.POSITIVE_INFINITY : minutes * 60_000;
}
