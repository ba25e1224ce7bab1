// The mechanics of one queue: admission, the line, test runs and what their results do. Functions over the
// state document at the clock's current instant; the engine calls `settleQueue` after every change and
// `finishDueRuns` whenever the clock reaches the end of a run.
//
// Model: admitted PRs stand in one line (single mode; parallel lanes and batches will split it later). Each
// run tests a PR on top of every PR ahead of it (predictive testing) and records that base, so whatever
// happens to a PR ahead sends exactly the runs built on it back to `pending`.
import { PRIORITY_NAMES, type PullRequestState, type Readiness } from '../api/schemas.js';
import { passesNextRun } from './facts.js';
import { deterministicSha } from './ids.js';
import { recordEvent } from './metrics.js';
import {
  FINAL_STATES,
  queueKey,
  TESTED_STATES,
  type Conclusion,
  type PullRequestRecord,
  type QueueRecord,
  type QueueSettingValues,
  type SandboxState,
  type Submission,
  type TestRun,
} from './state.js';

/** What the mechanics need besides the state: fresh ids and how long a run takes. */
export interface QueueWorld {
  readonly state: SandboxState;
  newId(): string;
  readonly testDurationMs: number;
}

export const DEFAULT_QUEUE_SETTINGS: Readonly<QueueSettingValues> = {
  mode: 'single',
  concurrency: 1,
  testingTimeoutMinutes: 60,
  canOptimisticallyMerge: false,
  pendingFailureDepth: 1,
  batch: false,
  batchingMaxWaitTimeMinutes: 5,
  batchingMinSize: 2,
  createPrsForTestingBranches: true,
  commentsEnabled: true,
  commandsEnabled: true,
  statusCheckEnabled: true,
  bisectionConcurrency: 1,
  requiredStatuses: [],
  directMergeMode: 'off',
  optimizationMode: 'off',
  mergeMethod: 'squash',
};

export const URGENT = PRIORITY_NAMES.urgent;
/** Tested, waiting for the PRs ahead: an urgent PR does not overtake these. */
const DONE_TESTING: ReadonlySet<PullRequestState> = new Set(['tests_passed', 'pending_failure']);

export function submissionOf(world: QueueWorld, id: string): Submission {
  const submission = world.state.submissions[id];
  if (!submission) throw new Error(`sandbox state is inconsistent: no submission ${id}`);
  return submission;
}

export function pullRequestOf(world: QueueWorld, submission: Submission): PullRequestRecord {
  const record = world.state.pullRequests[submission.pullRequestKey];
  if (!record) throw new Error(`sandbox state is inconsistent: no pull request ${submission.pullRequestKey}`);
  return record;
}

export function testRunOf(world: QueueWorld, id: string): TestRun {
  const run = world.state.testRuns[id];
  if (!run) throw new Error(`sandbox state is inconsistent: no test run ${id}`);
  return run;
}

export function readinessOf(queue: QueueRecord, pr: PullRequestRecord): Readiness & { hasImpactedTargets: boolean } {
  return {
    requiresImpactedTargets: queue.settings.mode === 'parallel',
    doesBaseBranchMatch: pr.baseBranch === queue.branch,
    hasImpactedTargets: pr.impactedTargets[pr.sha] !== undefined,
    gitHubMergeability: pr.mergeable ? 'mergeable' : 'not_mergeable',
  };
}

/** SERVICE.md's readiness rule. */
export function isReady(queue: QueueRecord, pr: PullRequestRecord): boolean {
  const readiness = readinessOf(queue, pr);
  return (
    readiness.doesBaseBranchMatch &&
    readiness.gitHubMergeability === 'mergeable' &&
    (!readiness.requiresImpactedTargets || readiness.hasImpactedTargets)
  );
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

/** Ends every run whose time has come, then lets the queue move on; answers whether any ended. */
export function finishDueRuns(world: QueueWorld, queue: QueueRecord): boolean {
  const now = world.state.now;
  const due = queue.runsInFlight
    .map((id) => testRunOf(world, id))
    .filter((run) => runEndsAt(queue, run) <= now)
    .sort((a, b) => runEndsAt(queue, a) - runEndsAt(queue, b));
  if (due.length === 0) return false;
  for (const run of due) finishRun(world, queue, run);
  settleQueue(world, queue);
  return true;
}

export interface ResolvedPriority {
  value: number;
  name: string;
  usedDefaultName?: string;
}

/**
 * Submits a PR, or updates the priority and noBatch of its open submission. A PR submitted again after a final
 * state starts a new submission; its history stays.
 */
export function submitToQueue(
  world: QueueWorld,
  queue: QueueRecord,
  pr: PullRequestRecord,
  pullRequestKey: string,
  priority: ResolvedPriority | undefined,
  noBatch: boolean | undefined,
): Submission {
  const latestId = queue.latestSubmission[String(pr.number)];
  const latest = latestId === undefined ? undefined : submissionOf(world, latestId);
  if (latest && !FINAL_STATES.has(latest.state)) {
    if (noBatch !== undefined) latest.noBatch = noBatch;
    if (priority) {
      const moved = priority.value !== latest.priorityValue;
      setPriority(latest, priority);
      // A PR not yet under test takes the place its new priority gives it.
      if (moved && latest.state === 'pending') {
        sendBackRunsBuiltOn(world, queue, latest.id);
        remove(queue.line, latest.id);
        insertIntoLine(world, queue, latest);
      }
    }
    settleQueue(world, queue);
    return latest;
  }
  const now = world.state.now;
  const chosen = priority ?? { value: PRIORITY_NAMES.medium, name: 'medium', usedDefaultName: 'medium' };
  const submission: Submission = {
    id: world.newId(),
    seq: world.state.nextSeq++,
    queueKey: queueKey(queue.repo, queue.branch),
    pullRequestKey,
    number: pr.number,
    state: 'not_ready',
    stateChangedAt: now,
    submittedAt: now,
    priorityValue: chosen.value,
    priorityName: chosen.name,
    noBatch: noBatch ?? false,
  };
  if (chosen.usedDefaultName !== undefined) submission.usedDefaultPriorityName = chosen.usedDefaultName;
  world.state.submissions[submission.id] = submission;
  queue.history.push(submission.id);
  queue.latestSubmission[String(pr.number)] = submission.id;
  queue.waiting.push(submission.id);
  settleQueue(world, queue);
  return submission;
}

/** Cancels an open submission; the runs built on it start again. */
export function cancelSubmission(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  stopOwnRun(world, queue, submission);
  sendBackRunsBuiltOn(world, queue, submission.id);
  conclude(world, queue, submission, 'cancelled');
  settleQueue(world, queue);
}

/** Back to `pending` in the same place; the PRs tested on top of it keep their runs. */
export function restartSubmission(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  sendBackToPending(world, queue, submission);
  settleQueue(world, queue);
}

/**
 * Moves the queue as far as it can go at this instant: admits ready PRs, merges the passed head, settles
 * failures, and starts runs in free slots, as the queue's state allows.
 */
export function settleQueue(world: QueueWorld, queue: QueueRecord): void {
  if (queue.state === 'switching_modes' && queue.runsInFlight.length === 0) queue.state = 'running';
  if (queue.state === 'running' || queue.state === 'paused') admitReady(world, queue);
  do {
    if (queue.state !== 'paused') mergePassedHead(world, queue);
  } while (settleFirstPendingFailure(world, queue));
  if (queue.state !== 'paused' && queue.state !== 'switching_modes') startRuns(world, queue);
}

// ---------------------------------------------------------------- the steps

function admitReady(world: QueueWorld, queue: QueueRecord): void {
  if (queue.waiting.length === 0) return;
  const stillWaiting: string[] = [];
  const admitted: Submission[] = [];
  for (const id of queue.waiting) {
    const submission = submissionOf(world, id);
    if (isReady(queue, pullRequestOf(world, submission))) admitted.push(submission);
    else stillWaiting.push(id);
  }
  if (admitted.length === 0) return;
  queue.waiting = stillWaiting;
  for (const submission of admitted) {
    transition(world, queue, submission, 'pending');
    insertIntoLine(world, queue, submission);
  }
}

/**
 * A PR overtakes the PRs of lower priority at the end of the line that are not under test or tested, and
 * stops behind the first of equal or higher priority. An urgent PR also overtakes runs in flight: they go back
 * to pending, since their base no longer holds everything ahead of them.
 */
function insertIntoLine(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  const line = queue.line;
  if (submission.priorityValue === URGENT) {
    let at = 0;
    for (let i = line.length - 1; i >= 0; i--) {
      if (submissionOf(world, line[i]!).priorityValue === URGENT) {
        at = i + 1;
        break;
      }
    }
    while (at < line.length && DONE_TESTING.has(submissionOf(world, line[at]!).state)) at++;
    line.splice(at, 0, submission.id);
    for (const id of line.slice(at + 1)) {
      const behind = submissionOf(world, id);
      if (TESTED_STATES.has(behind.state)) sendBackToPending(world, queue, behind);
    }
    return;
  }
  let at = line.length;
  while (at > 0) {
    const ahead = submissionOf(world, line[at - 1]!);
    if (TESTED_STATES.has(ahead.state) || ahead.priorityValue <= submission.priorityValue) break;
    at--;
  }
  line.splice(at, 0, submission.id);
}

function mergePassedHead(world: QueueWorld, queue: QueueRecord): void {
  let count = 0;
  while (count < queue.line.length && submissionOf(world, queue.line[count]!).state === 'tests_passed') count++;
  if (count === 0) return;
  for (const id of queue.line.splice(0, count)) transition(world, queue, submissionOf(world, id), 'merged');
}

/**
 * The first `pending_failure` PR is settled once every PR ahead of it passed: its failure is its own. With
 * `pendingFailureDepth` N it first waits for the runs of the next N PRs built on it; with
 * `canOptimisticallyMerge`, one of them passing clears it (the combined tree passed).
 * Returns whether it changed anything.
 */
function settleFirstPendingFailure(world: QueueWorld, queue: QueueRecord): boolean {
  const line = queue.line;
  let at = -1;
  for (let i = 0; i < line.length; i++) {
    const state = submissionOf(world, line[i]!).state;
    if (state === 'pending_failure') {
      at = i;
      break;
    }
    if (state !== 'tests_passed') return false;
  }
  if (at < 0) return false;
  const failed = submissionOf(world, line[at]!);
  let passedOnTop = false;
  const depthEnd = Math.min(line.length, at + 1 + queue.settings.pendingFailureDepth);
  for (let i = at + 1; i < depthEnd; i++) {
    const behind = submissionOf(world, line[i]!);
    if (!isBuiltOn(world, behind, failed.id)) continue;
    if (behind.state === 'testing') return false;
    if (behind.state === 'tests_passed') passedOnTop = true;
  }
  if (passedOnTop && queue.settings.canOptimisticallyMerge) {
    transition(world, queue, failed, 'tests_passed');
    return true;
  }
  sendBackRunsBuiltOn(world, queue, failed.id);
  conclude(world, queue, failed, 'failed');
  return true;
}

function startRuns(world: QueueWorld, queue: QueueRecord): void {
  let free = queue.settings.concurrency - queue.runsInFlight.length;
  for (let i = 0; free > 0 && i < queue.line.length; i++) {
    const submission = submissionOf(world, queue.line[i]!);
    if (submission.state !== 'pending') continue;
    startRun(world, queue, [submission], queue.line.slice(0, i));
    free--;
  }
}

// ---------------------------------------------------------------- runs

function startRun(world: QueueWorld, queue: QueueRecord, tested: Submission[], base: string[]): void {
  const id = world.newId();
  const run: TestRun = {
    id,
    queueKey: queueKey(queue.repo, queue.branch),
    pullRequestIds: tested.map((s) => s.id),
    basePullRequestIds: base,
    status: 'in_progress',
    createdAt: world.state.now,
    durationMs: world.testDurationMs,
    testBranch: `trunk-merge/pr-${tested[0]!.number}/${id}`,
    testBranchSha: deterministicSha(`test-branch:${id}`),
    requiredStatuses: [...queue.settings.requiredStatuses],
  };
  world.state.testRuns[id] = run;
  queue.runsInFlight.push(id);
  for (const submission of tested) {
    submission.latestTestRunId = id;
    transition(world, queue, submission, 'testing');
  }
}

/** A run reaches its result: every PR in it passed, or it failed (a run past the timeout fails). */
function finishRun(world: QueueWorld, queue: QueueRecord, run: TestRun): void {
  const now = world.state.now;
  let passed = run.durationMs <= timeoutMs(queue);
  for (const id of run.pullRequestIds) {
    const pr = pullRequestOf(world, submissionOf(world, id));
    if (!passesNextRun(pr)) passed = false;
    pr.completedTestRuns++;
  }
  run.status = passed ? 'succeeded' : 'failed';
  run.finishedAt = now;
  remove(queue.runsInFlight, run.id);
  recordEvent(queue, { at: now, kind: 'testDuration', seconds: (now - run.createdAt) / 1000 });
  for (const id of run.pullRequestIds) {
    const submission = submissionOf(world, id);
    if (submission.state === 'testing') transition(world, queue, submission, passed ? 'tests_passed' : 'pending_failure');
  }
}

function cancelRun(world: QueueWorld, queue: QueueRecord, run: TestRun): void {
  run.status = 'cancelled';
  run.finishedAt = world.state.now;
  remove(queue.runsInFlight, run.id);
}

/** Stops the PR's run in flight; the other PRs of that run (a batch) go back to pending. */
function stopOwnRun(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  if (submission.state !== 'testing' || submission.latestTestRunId === undefined) return;
  const run = testRunOf(world, submission.latestTestRunId);
  if (run.status !== 'in_progress') return;
  cancelRun(world, queue, run);
  for (const id of run.pullRequestIds) {
    const other = submissionOf(world, id);
    if (other !== submission && other.state === 'testing') transition(world, queue, other, 'pending');
  }
}

function sendBackToPending(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  stopOwnRun(world, queue, submission);
  transition(world, queue, submission, 'pending');
}

/** Whether the submission's current result rests on a run whose base held `aheadId`. */
function isBuiltOn(world: QueueWorld, submission: Submission, aheadId: string): boolean {
  if (!TESTED_STATES.has(submission.state) || submission.latestTestRunId === undefined) return false;
  return testRunOf(world, submission.latestTestRunId).basePullRequestIds.includes(aheadId);
}

function sendBackRunsBuiltOn(world: QueueWorld, queue: QueueRecord, aheadId: string): void {
  for (const id of queue.line) {
    const submission = submissionOf(world, id);
    if (isBuiltOn(world, submission, aheadId)) sendBackToPending(world, queue, submission);
  }
}

// ---------------------------------------------------------------- states

function conclude(world: QueueWorld, queue: QueueRecord, submission: Submission, conclusion: Conclusion): void {
  if (!remove(queue.line, submission.id)) remove(queue.waiting, submission.id);
  transition(world, queue, submission, conclusion);
}

/** Every state change goes through here: the timestamp, and the events the metrics count. */
function transition(world: QueueWorld, queue: QueueRecord, submission: Submission, to: PullRequestState): void {
  const from = submission.state;
  if (from === to) return;
  const now = world.state.now;
  submission.state = to;
  submission.stateChangedAt = now;
  if (to === 'pending') {
    if (TESTED_STATES.has(from)) recordEvent(queue, { at: now, kind: 'restart' });
    submission.pendingSince = now;
  } else if (to === 'testing' && submission.pendingSince !== undefined) {
    recordEvent(queue, { at: now, kind: 'wait', seconds: (now - submission.pendingSince) / 1000 });
  } else if (to === 'merged' || to === 'failed' || to === 'cancelled') {
    submission.concludedAt = now;
    recordEvent(queue, { at: now, kind: 'conclusion', conclusion: to });
    recordEvent(queue, { at: now, kind: 'timeInQueue', seconds: (now - submission.submittedAt) / 1000 });
  }
}

function setPriority(submission: Submission, priority: ResolvedPriority): void {
  submission.priorityValue = priority.value;
  submission.priorityName = priority.name;
  if (priority.usedDefaultName === undefined) delete submission.usedDefaultPriorityName;
  else submission.usedDefaultPriorityName = priority.usedDefaultName;
}

function timeoutMs(queue: QueueRecord): number {
  return queue.settings.testingTimeoutMinutes * 60_000;
}

function remove(list: string[], id: string): boolean {
  const at = list.indexOf(id);
  if (at < 0) return false;
  list.splice(at, 1);
  return true;
}
