// A PR's queue-entry history (v2's, through its codec). A reason is given where the step recorded one, or where
// the engine's mechanics leave only one cause; otherwise null. Runs are not recorded on steps: the k-th `testing` step is the k-th run that
// tested the submission (a run moves each of its PRs to testing exactly once).
import type { EntryTransition, FailureCause, PullRequestHistory, TransitionRef } from '../../model/queue-entries.js';
import type { Repo } from '../../model/repository.js';
import { NORMAL_CONCLUSIONS } from '../../model/testing.js';
import type { PullRequestState } from '../../model/vocabulary.js';
import { pullRequestId } from './ids.js';
import { orderRefOf } from './pull-request-refs.js';
import { entryIdOf, pullRequestKey, type Submission, type TestRun, type TimelineStep } from './state.js';
import { checksView, iso } from './views.js';
import { currentSubmissionOf, pullRequestOf, runNameOf, submissionOf, type QueueWorld } from './world.js';

/**
 * Oldest first; within an instant, in a submission's own order. `inQueue` (a queue's key): the PR's stays in that
 * queue, as v1 reads a PR in one queue. Without it, the stays of the PR's entry now, as v2's history gives "the
 * transitions of this pull request's queue entry": a resubmission to the same queue continues the entry, a move to
 * another queue replaces it, so the queue it left is not in it.
 */
export function queueEntryHistoryOf(world: QueueWorld, repo: Repo, number: number, inQueue?: string): EntryTransition[] {
  const key = pullRequestKey(repo, number);
  const current = inQueue === undefined ? currentSubmissionOf(world, repo, number) : undefined;
  const entry = current && entryIdOf(current);
  const submissions = Object.values(world.state.submissions)
    .filter((submission) => submission.pullRequestKey === key && (inQueue === undefined ? entryIdOf(submission) === entry : submission.queueKey === inQueue))
    .sort((a, b) => a.seq - b.seq);
  const rows: { at: number; seq: number; index: number; transition: EntryTransition }[] = [];
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
  return [...new Set(ids.map((asked) => asked.toLowerCase()))].map((id) => {
    const record = known.get(id);
    return { pullRequestId: id, transitions: record ? queueEntryHistoryOf(world, record.repo, record.number) : [] };
  });
}

/** Its steps; a submission saved before steps were recorded has its submission and its present state. */
export function stepsOf(submission: Submission): TimelineStep[] {
  return (
    submission.timeline ?? [
      { at: submission.submittedAt, state: 'not_ready' },
      ...(submission.state === 'not_ready' ? [] : [{ at: submission.stateChangedAt, state: submission.state }]),
    ]
  );
}

/** The reasons steps record (v1's words) that v2 words otherwise. */
const RENAMED_REASONS: Readonly<Record<string, string>> = {
  'merged:test_run_passed': 'merge_graph_merge',
};

function transitionsOf(world: QueueWorld, submission: Submission): { at: number; transition: EntryTransition }[] {
  const record = pullRequestOf(world, submission);
  const queue = world.state.queues[submission.queueKey];
  const base = { pullRequestId: pullRequestId(record.repo, record.number), entryId: entryIdOf(submission), queueId: queue?.id ?? '' };
  const runs = Object.values(world.state.testRuns).filter((run) => run.pullRequestIds.includes(submission.id));
  let run: TestRun | undefined;
  let prior: PullRequestState | undefined;
  const out: { at: number; transition: EntryTransition }[] = [];
  for (const step of stepsOf(submission)) {
    if (step.state === 'testing') run = runs.shift();
    const cause = causeOf(world, submission, step, prior, run);
    const transition: EntryTransition = {
      ...base,
      state: step.state,
      timestamp: iso(step.at),
      reason: step.state === 'testing' || step.state === 'pending_failure' ? null : (cause.reason ?? null),
      // Who made the change, where a request did; null: the engine (or a machine) made it.
      actor: step.actor ? { ...step.actor } : null,
      testRunId: cause.runId === undefined ? null : runNameOf(world, cause.runId),
    };
    if (cause.prerequisite !== undefined) transition.prerequisitePullRequestId = cause.prerequisite;
    addDetails(world, submission, transition, step, cause.runId === undefined ? undefined : run);
    if (transition.pendingFailure && cause.reason !== undefined) transition.pendingFailure.eventualFailureReason = cause.reason;
    // One with no run's failure of its own (its bisection run cancelled) has it once the failure is decided.
    const previous = out.at(-1)?.transition.pendingFailure;
    if (step.state === 'failed' && previous && previous.eventualFailureReason === undefined && transition.reason !== null)
      previous.eventualFailureReason = transition.reason;
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

export function causeOf(world: QueueWorld, submission: Submission, step: TimelineStep, prior: PullRequestState | undefined, run: TestRun | undefined): Cause {
  const recorded = step.reason === undefined ? undefined : (RENAMED_REASONS[`${step.state}:${step.reason}`] ?? step.reason);
  const failedRun = run?.status === 'failed' ? run : undefined;
  switch (step.state) {
    case 'testing':
      return run ? { runId: run.id } : {};
    case 'tests_passed':
      // The engine clears a pending failure only when a run built on it passed (canOptimisticallyMerge).
      if (prior === 'pending_failure') return { reason: recorded ?? 'successor_test_run_passed' };
      return { reason: recorded ?? 'test_run_passed', ...(run ? { runId: run.id } : {}) };
    case 'pending_failure':
      // Why it failed, decided as it enters: the run's failure (the service's webhook says it then).
      if (!failedRun) return {};
      return { reason: recorded ?? runFailure(failedRun), ...(prior === 'testing' && { runId: failedRun.id }) };
    case 'failed':
      if (prior === 'pending_failure' && failedRun) return { reason: recorded ?? failedReason(failedRun), runId: failedRun.id };
      return recorded === undefined ? {} : { reason: recorded };
    case 'merged':
      // Only directMergeMode merges a PR from pending, without a run.
      return { reason: recorded ?? (prior === 'pending' ? 'merge_graph_direct_merge' : 'merge_graph_merge') };
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
  if (run.queueType === 'bisection' && run.status === 'succeeded' && run.finishedAt === step.at) return { reason: 'bisection_test_run_passed' };
  for (const id of run.basePullRequestIds) {
    const ahead = submissionOf(world, id);
    if (ahead.id === submission.id) continue;
    const ended = stepsOf(ahead).find((other) => other.at === step.at && (other.state === 'failed' || other.state === 'cancelled'));
    if (!ended) continue;
    const prerequisite = pullRequestOf(world, ahead);
    return {
      reason: ended.state === 'failed' ? 'prerequisite_merge_item_failed' : 'prerequisite_merge_item_cancelled',
      prerequisite: pullRequestId(prerequisite.repo, prerequisite.number),
    };
  }
  return {};
}

function addDetails(world: QueueWorld, submission: Submission, transition: EntryTransition, step: TimelineStep, run: TestRun | undefined): void {
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
        failureCauses: failureCausesOf(world, run),
      };
      return;
    case 'failed':
      transition.failed = { failureCauses: run ? failureCausesOf(world, run) : [] };
      return;
    default:
      return;
  }
}

/** The priority the submit asked for (a value with a name was asked by name); neither for the default. */
function submissionParameters(submission: Submission): NonNullable<EntryTransition['notReady']> {
  const asked: NonNullable<EntryTransition['notReady']> = { noBatch: submission.noBatch === true };
  if (submission.usedDefaultPriorityName !== undefined) return asked;
  if (submission.priorityName === String(submission.priorityValue)) asked.priorityValue = submission.priorityValue;
  else asked.priorityName = submission.priorityName;
  return asked;
}

/** The PRs of the run's base that were still in the queue at `at` in a state `waiting` names; their state now. */
function baseAt(world: QueueWorld, run: TestRun, at: number, waiting: (state: PullRequestState) => boolean): TransitionRef[] {
  const found: TransitionRef[] = [];
  for (const id of run.basePullRequestIds) {
    const ahead = submissionOf(world, id);
    const state = stateAt(ahead, at);
    if (state !== undefined && state !== 'failed' && state !== 'cancelled' && waiting(state)) found.push(transitionRefOf(world, ahead));
  }
  return found;
}

function transitionRefOf(world: QueueWorld, submission: Submission): TransitionRef {
  return { ...orderRefOf(world, submission), state: submission.state };
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
function failureCausesOf(world: QueueWorld, run: TestRun): FailureCause[] {
  const queue = world.state.queues[run.queueKey];
  if (run.status !== 'failed' || !queue) return [];
  const required = new Set(run.requiredStatuses);
  const { checkSuites, statusChecks } = checksView(queue, run);
  const checks = [
    ...checkSuites.flatMap((suite) => suite.checkRuns),
    ...statusChecks.map(({ context, url, state }) => ({ name: context, url, conclusion: state })),
  ];
  return checks
    .filter((check) => ['failure', 'timeout'].includes(NORMAL_CONCLUSIONS[check.conclusion ?? ''] ?? ''))
    .filter((check) => required.size === 0 || required.has(check.name))
    .map((check) => ({ name: check.name, ...(check.url && { url: check.url }), ...(check.conclusion !== undefined && { conclusion: check.conclusion }) }));
}

/**
 * A PR fails from a run of several only when bisection convicted it without a run of its own (its sibling passed);
 * a run that ended before its own duration was cut short by the queue's testing timeout.
 */
function failedReason(run: TestRun): string {
  return run.pullRequestIds.length > 1 ? 'test_run_failed_by_optimization' : runFailure(run);
}

/** Why the run failed: cut short by the queue's testing timeout, or a required check failed. */
export function runFailure(run: TestRun): string {
  const timedOut = run.finishedAt !== undefined && run.finishedAt - run.createdAt < run.durationMs;
  return timedOut ? 'test_run_timeout' : 'test_run_required_status_failed';
}
