// v2's queue-entry history. A reason is given where the step recorded one, or where the engine's mechanics leave
// only one cause; otherwise null. Runs are not recorded on steps: the k-th `testing` step is the k-th run that
// tested the submission (a run moves each of its PRs to testing exactly once).
import type { Repo } from '../../model/repository.js';
import type { PullRequestState } from '../../model/vocabulary.js';
import { pullRequestId } from './ids.js';
import { transitionRefOf, type TransitionPullRequestRef } from './pull-request-refs.js';
import { type Actor, pullRequestKey, type Submission, type TestRun, type TimelineStep } from './state.js';
import { checksOf } from './verification-runs.js';
import { iso } from './views.js';
import { pullRequestOf, submissionOf, type QueueWorld } from './world.js';

interface FailureCausingCheck {
  name: string;
  url?: string;
  conclusion?: string;
}

export interface QueueEntryTransition {
  pullRequestId: string;
  queueEntryId: string;
  queueId: string;
  state: PullRequestState;
  changedAt: string;
  /** UPPER_SNAKE; always null for testing and pending_failure. */
  reason: string | null;
  verificationRunId?: string;
  prerequisitePullRequestId?: string;
  notReady?: { priorityValue?: number; priorityName?: string; allowBatching: boolean };
  testsPassed?: { batchSize: number; otherTestedPullRequests: TransitionPullRequestRef[]; waitingFor: TransitionPullRequestRef[] };
  pendingFailure?: { eventualFailureReason?: string; waitingFor: TransitionPullRequestRef[]; failureCausingChecks: FailureCausingCheck[] };
  failed?: { failureCausingChecks: FailureCausingCheck[] };
  actor?: Actor;
}

export interface PullRequestHistory {
  pullRequestId: string;
  transitions: QueueEntryTransition[];
}

/** Oldest first; within an instant, in a submission's own order. */
export function queueEntryHistoryOf(world: QueueWorld, repo: Repo, number: number): QueueEntryTransition[] {
  const key = pullRequestKey(repo, number);
  const submissions = Object.values(world.state.submissions)
    .filter((submission) => submission.pullRequestKey === key)
    .sort((a, b) => a.seq - b.seq);
  const rows: { at: number; seq: number; index: number; transition: QueueEntryTransition }[] = [];
  for (const submission of submissions) {
    transitionsOf(world, submission).forEach(({ at, transition }, index) => {
      rows.push({ at, seq: submission.seq, index, transition });
    });
  }
  rows.sort((a, b) => a.at - b.at || a.seq - b.seq || a.index - b.index);
  return rows.map((row) => row.transition);
}

/** One group per id asked, in the order asked, each once; ids the sandbox does not know get an empty group. */
export function queueEntryHistoriesOf(world: QueueWorld, ids: readonly string[]): PullRequestHistory[] {
  const known = new Map<string, { repo: Repo; number: number }>();
  for (const record of Object.values(world.state.pullRequests)) known.set(pullRequestId(record.repo, record.number), record);
  const groups: PullRequestHistory[] = [];
  const seen = new Set<string>();
  for (const asked of ids) {
    const id = asked.toLowerCase();
    if (seen.has(id)) continue;
    seen.add(id);
    const record = known.get(id);
    groups.push({ pullRequestId: id, transitions: record ? queueEntryHistoryOf(world, record.repo, record.number) : [] });
  }
  return groups;
}

/** A submission saved before steps were recorded: its submission and its present state. */
function stepsOf(submission: Submission): TimelineStep[] {
  return (
    submission.timeline ?? [
      { at: submission.submittedAt, state: 'not_ready' },
      ...(submission.state === 'not_ready' ? [] : [{ at: submission.stateChangedAt, state: submission.state }]),
    ]
  );
}

/** The reasons steps record (v1's lower snake case) whose v2 word is not just the same in upper case. */
const RENAMED_REASONS: Readonly<Record<string, string>> = {
  'merged:test_run_passed': 'MERGE_GRAPH_MERGE',
};

function transitionsOf(world: QueueWorld, submission: Submission): { at: number; transition: QueueEntryTransition }[] {
  const record = pullRequestOf(world, submission);
  const queue = world.state.queues[submission.queueKey];
  const base = { pullRequestId: pullRequestId(record.repo, record.number), queueEntryId: submission.id, queueId: queue?.id ?? '' };
  const runs = Object.values(world.state.testRuns).filter((run) => run.pullRequestIds.includes(submission.id));
  let run: TestRun | undefined;
  let prior: PullRequestState | undefined;
  const out: { at: number; transition: QueueEntryTransition }[] = [];
  for (const step of stepsOf(submission)) {
    if (step.state === 'testing') run = runs.shift();
    const transition: QueueEntryTransition = { ...base, state: step.state, changedAt: iso(step.at), reason: null };
    // Who made the change, where a request did; absent, the engine (or a machine) made it.
    if (step.actor) transition.actor = { ...step.actor };
    const cause = causeOf(world, submission, step, prior, run);
    if (step.state !== 'testing' && step.state !== 'pending_failure') transition.reason = cause.reason ?? null;
    if (cause.runId !== undefined) transition.verificationRunId = cause.runId;
    if (cause.prerequisite !== undefined) transition.prerequisitePullRequestId = cause.prerequisite;
    addDetails(world, submission, transition, step, cause.runId === undefined ? undefined : run);
    const previous = out.at(-1)?.transition;
    if (step.state === 'failed' && previous?.pendingFailure && transition.reason !== null) previous.pendingFailure.eventualFailureReason = transition.reason;
    out.push({ at: step.at, transition });
    prior = step.state;
  }
  return out;
}

interface Cause {
  reason?: string;
  runId?: string;
  prerequisite?: string;
}

function causeOf(world: QueueWorld, submission: Submission, step: TimelineStep, prior: PullRequestState | undefined, run: TestRun | undefined): Cause {
  const recorded = step.reason === undefined ? undefined : (RENAMED_REASONS[`${step.state}:${step.reason}`] ?? step.reason.toUpperCase());
  const failedRun = run?.status === 'failed' ? run : undefined;
  switch (step.state) {
    case 'testing':
      return run ? { runId: run.id } : {};
    case 'tests_passed':
      // The engine clears a pending failure only when a run built on it passed (canOptimisticallyMerge).
      if (prior === 'pending_failure') return { reason: recorded ?? 'SUCCESSOR_TEST_RUN_PASSED' };
      return { reason: recorded ?? 'TEST_RUN_PASSED', ...(run ? { runId: run.id } : {}) };
    case 'pending_failure':
      return prior === 'testing' && failedRun ? { runId: failedRun.id } : {};
    case 'failed':
      if (prior === 'pending_failure' && failedRun) return { reason: recorded ?? failedReason(failedRun), runId: failedRun.id };
      return recorded === undefined ? {} : { reason: recorded };
    case 'merged':
      // Only directMergeMode merges a PR from pending, without a run.
      return { reason: recorded ?? (prior === 'pending' ? 'MERGE_GRAPH_DIRECT_MERGE' : 'MERGE_GRAPH_MERGE') };
    case 'pending':
      if (recorded !== undefined) return { reason: recorded };
      return pendingCause(world, submission, step, prior, run);
    default:
      return recorded === undefined ? {} : { reason: recorded };
  }
}

/** Back to pending from a run: what the state tells apart (a passed bisection run, a base PR that left); else none. */
function pendingCause(world: QueueWorld, submission: Submission, step: TimelineStep, prior: PullRequestState | undefined, run: TestRun | undefined): Cause {
  if (run === undefined || prior === undefined || prior === 'not_ready' || prior === 'pending') return {};
  if (run.queueType === 'bisection' && run.status === 'succeeded' && run.finishedAt === step.at) return { reason: 'BISECTION_TEST_RUN_PASSED' };
  for (const id of run.basePullRequestIds) {
    const ahead = submissionOf(world, id);
    if (ahead.id === submission.id) continue;
    const ended = stepsOf(ahead).find((other) => other.at === step.at && (other.state === 'failed' || other.state === 'cancelled'));
    if (!ended) continue;
    const prerequisite = pullRequestOf(world, ahead);
    return {
      reason: ended.state === 'failed' ? 'PREREQUISITE_MERGE_ITEM_FAILED' : 'PREREQUISITE_MERGE_ITEM_CANCELLED',
      prerequisite: pullRequestId(prerequisite.repo, prerequisite.number),
    };
  }
  return {};
}

function addDetails(world: QueueWorld, submission: Submission, transition: QueueEntryTransition, step: TimelineStep, run: TestRun | undefined): void {
  switch (step.state) {
    case 'not_ready':
      transition.notReady = submissionParameters(submission);
      return;
    case 'tests_passed':
      if (!run) return;
      transition.testsPassed = {
        batchSize: run.pullRequestIds.length,
        otherTestedPullRequests: run.pullRequestIds.filter((id) => id !== submission.id).map((id) => transitionRefOf(world, submissionOf(world, id))),
        waitingFor: baseAt(world, run, step.at, (state) => state !== 'merged'),
      };
      return;
    case 'pending_failure':
      if (!run) return;
      transition.pendingFailure = {
        waitingFor: baseAt(world, run, step.at, (state) => state !== 'tests_passed' && state !== 'merged'),
        failureCausingChecks: failureCausingChecksOf(world, run),
      };
      return;
    case 'failed':
      transition.failed = { failureCausingChecks: run ? failureCausingChecksOf(world, run) : [] };
      return;
    default:
      return;
  }
}

/** The priority the submit asked for (a value with a name was asked by name); neither for the default. */
function submissionParameters(submission: Submission): NonNullable<QueueEntryTransition['notReady']> {
  const asked: NonNullable<QueueEntryTransition['notReady']> = { allowBatching: !submission.noBatch };
  if (submission.usedDefaultPriorityName !== undefined) return asked;
  if (submission.priorityName === String(submission.priorityValue)) asked.priorityValue = submission.priorityValue;
  else asked.priorityName = submission.priorityName;
  return asked;
}

/** The PRs of the run's base that were still in the queue at `at` in a state `waiting` names; their state now. */
function baseAt(world: QueueWorld, run: TestRun, at: number, waiting: (state: PullRequestState) => boolean): TransitionPullRequestRef[] {
  const found: TransitionPullRequestRef[] = [];
  for (const id of run.basePullRequestIds) {
    const ahead = submissionOf(world, id);
    const state = stateAt(ahead, at);
    if (state !== undefined && state !== 'failed' && state !== 'cancelled' && waiting(state)) found.push(transitionRefOf(world, ahead));
  }
  return found;
}

function stateAt(submission: Submission, at: number): PullRequestState | undefined {
  let state: PullRequestState | undefined;
  for (const step of stepsOf(submission)) {
    if (step.at > at) break;
    state = step.state;
  }
  return state;
}

/** The run's failed checks: the required ones when it names any, else every one (all decide the sandbox's runs). */
function failureCausingChecksOf(world: QueueWorld, run: TestRun): FailureCausingCheck[] {
  if (run.status !== 'failed') return [];
  const queue = world.state.queues[run.queueKey];
  if (!queue) return [];
  const required = new Set(run.requiredStatuses);
  return checksOf(queue, run)
    .filter((check) => check.conclusion === 'failure' || check.conclusion === 'timeout')
    .filter((check) => required.size === 0 || required.has(check.name))
    .map((check) => {
      const cause: FailureCausingCheck = { name: check.name };
      if (check.url !== null) cause.url = check.url;
      if (check.providerConclusion !== undefined) cause.conclusion = check.providerConclusion;
      return cause;
    });
}

/** A PR fails from a run of several only when bisection convicted it without a run of its own (its sibling passed). */
function failedReason(run: TestRun): string {
  if (run.pullRequestIds.length > 1) return 'TEST_RUN_FAILED_BY_OPTIMIZATION';
  return timedOut(run) ? 'TEST_RUN_TIMEOUT' : 'TEST_RUN_REQUIRED_STATUS_FAILED';
}

/** Cut short by the queue's testing timeout: it ended before its own duration. */
function timedOut(run: TestRun): boolean {
  return run.finishedAt !== undefined && run.finishedAt - run.createdAt < run.durationMs;
}
