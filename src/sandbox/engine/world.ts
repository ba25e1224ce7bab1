// What the queue mechanics work on: the state document, fresh ids, the records by id, and the one function every
// change of a PR's state goes through (timestamps, metric events, and the index of PRs under test).
import { type QueueRef, queueName, type Repo } from '../../model/repository.js';
import { testRunIdOf } from '../../model/testing.js';
import type { PullRequestState } from '../../model/vocabulary.js';
import { recordEvent } from './metrics.js';
import {
  queueKey,
  sameRepo,
  TESTED_STATES,
  type Conclusion,
  type PullRequestRecord,
  type QueueRecord,
  type QueueType,
  type SandboxState,
  type Submission,
  type TestRun,
} from './state.js';
import { EngineRefusal } from './types.js';

/** Told of every change of a PR's state just after it (a merged PR is still in the line); it must change nothing. */
export type TransitionObserver = (change: {
  state: Readonly<SandboxState>;
  queue: Readonly<QueueRecord>;
  submission: Readonly<Submission>;
  from: PullRequestState;
}) => void;

export interface QueueWorld {
  readonly state: SandboxState;
  newId(): string;
  /** How long a run takes when its PRs do not say. */
  readonly testDurationMs: number;
  /** Counts every change to the state, so a caller knows when to save. */
  changes: number;
  /** Derived from the state and rebuilt after a restore; never saved. */
  readonly indexes: WeakMap<QueueRecord, QueueIndex>;
  readonly observe: TransitionObserver | undefined;
  /** The reason a request under way gives the next step of a submission, by its id (`because`). */
  readonly requested: Map<string, string>;
}

/** What the mechanics would otherwise rescan the whole line for. */
export interface QueueIndex {
  /** PRs in the line with a test run behind them: scans of the line stop once they have met them all. */
  tested: Set<string>;
  /** The not_ready PRs need a fresh look (the queue's state or mode changed, or the state was just restored). */
  recheckWaiting: boolean;
}

export function newWorld(state: SandboxState, testDurationMs: number, newId: () => string, observe?: TransitionObserver): QueueWorld {
  return { state, testDurationMs, newId, changes: 0, indexes: new WeakMap(), observe, requested: new Map() };
}

/** Calls `change`; the next step of `submission` it makes records `reason`, the request's (a cancel's, a push's). */
export function because<T>(world: QueueWorld, submission: Submission, reason: string, change: () => T): T {
  world.requested.set(submission.id, reason);
  try {
    return change();
  } finally {
    world.requested.delete(submission.id);
  }
}

export function indexOf(world: QueueWorld, queue: QueueRecord): QueueIndex {
  let index = world.indexes.get(queue);
  if (!index) {
    const tested = new Set<string>();
    for (const id of queue.line) if (TESTED_STATES.has(submissionOf(world, id).state)) tested.add(id);
    index = { tested, recheckWaiting: true };
    world.indexes.set(queue, index);
  }
  return index;
}

/**
 * How much of the line the queue's graph holds: the whole line, or its first `graphSoftCap` PRs. The PRs behind
 * them are admitted as those ahead leave (merged, failed, cancelled), so a PR that enters the line ahead of them (a
 * higher priority) is admitted before them; runs start, and batches form, among the admitted alone.
 */
export function admittedLength(world: QueueWorld, queue: QueueRecord): number {
  const cap = world.state.graphSoftCap;
  return cap === undefined ? queue.line.length : Math.min(cap, queue.line.length);
}

export function queueOf(world: QueueWorld, ref: QueueRef): QueueRecord {
  const queue = world.state.queues[queueKey(ref.repo, ref.targetBranch)];
  if (!queue) throw new EngineRefusal('not_found', `no queue for ${describeQueue(ref.repo, ref.targetBranch)}`, 'queue_not_found');
  return queue;
}

export function describeQueue(repo: Repo, branch: string): string {
  return queueName({ repo, targetBranch: branch });
}

export function submissionOf(world: QueueWorld, id: string): Submission {
  const submission = world.state.submissions[id];
  if (!submission) throw new Error(`sandbox state is inconsistent: no submission ${id}`);
  return submission;
}

/**
 * The PR's queue entry now, as its latest submission to a queue of its repository: a PR has one entry at a time (a
 * submit to another queue takes it there, and tears down the entry it had). Undefined when none.
 */
export function currentSubmissionOf(world: QueueWorld, repo: Repo, number: number): Submission | undefined {
  let latest: Submission | undefined;
  for (const queue of Object.values(world.state.queues)) {
    if (!sameRepo(queue.repo, repo)) continue;
    const id = queue.latestSubmission[String(number)];
    const submission = id === undefined ? undefined : submissionOf(world, id);
    if (submission && (latest === undefined || submission.seq > latest.seq)) latest = submission;
  }
  return latest;
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

/** The run's id as the model shows it (a bisection's with v1's suffix); the state keeps runs by their own id. */
export function runName(run: TestRun): string {
  return testRunIdOf(run.id, run.queueType === 'bisection');
}

/** The model's name of the run with this id (the id itself where the state holds no such run). */
export function runNameOf(world: QueueWorld, id: string): string {
  const run = world.state.testRuns[id];
  return run ? runName(run) : id;
}

/** The timeline's reasons the change itself tells (the service's lower snake case); others are left unsaid. */
const TIMELINE_REASONS: Readonly<Record<string, string>> = {
  'not_ready>pending': 'merge_item_now_ready',
  'testing>tests_passed': 'test_run_passed',
  'tests_passed>merged': 'test_run_passed',
};

/** Every state change goes through here: the timestamp, the events the metrics count, the index. `reason`: why,
 *  where the engine decided it and the change alone does not tell (the history and the webhook read it there); a
 *  request's own reason (`because`) comes first. */
export function transition(world: QueueWorld, queue: QueueRecord, submission: Submission, to: PullRequestState, reason?: string): void {
  const from = submission.state;
  if (from === to) return;
  const now = world.state.now;
  const queueType: QueueType = submission.inBisection ? 'bisection' : 'main';
  submission.state = to;
  submission.stateChangedAt = now;
  const told = world.requested.get(submission.id) ?? reason ?? TIMELINE_REASONS[`${from}>${to}`];
  world.requested.delete(submission.id);
  (submission.timeline ??= []).push(told === undefined ? { at: now, state: to } : { at: now, state: to, reason: told });
  world.changes++;
  const { tested } = indexOf(world, queue);
  if (!submission.inBisection && TESTED_STATES.has(to)) tested.add(submission.id);
  else tested.delete(submission.id);
  if (to === 'pending') {
    // Into bisection is no restart, and its wait goes on from the pending failure (the step is the same instant's).
    if (reason !== 'bisection_required') {
      if (TESTED_STATES.has(from)) recordEvent(queue, { at: now, queueType, kind: 'restart' });
      submission.pendingSince = now;
    }
  } else if (to === 'testing' && submission.pendingSince !== undefined) {
    recordEvent(queue, { at: now, queueType, kind: 'wait', seconds: (now - submission.pendingSince) / 1000 });
    delete submission.pendingSince;
  } else if (to === 'merged' || to === 'failed' || to === 'cancelled') {
    submission.concludedAt = now;
    recordEvent(queue, { at: now, queueType, kind: 'conclusion', conclusion: to });
    recordEvent(queue, { at: now, queueType, kind: 'timeInQueue', seconds: (now - submission.submittedAt) / 1000 });
  }
  world.observe?.({ state: world.state, queue, submission, from });
}

/** Failed or cancelled: the PR leaves the line or the not_ready PRs (bisection lets go of its PRs itself). */
export function conclude(world: QueueWorld, queue: QueueRecord, submission: Submission, conclusion: Exclude<Conclusion, 'merged'>): void {
  if (!submission.inBisection && !remove(queue.line, submission.id)) remove(queue.waiting, submission.id);
  transition(world, queue, submission, conclusion);
  delete submission.inBisection;
}

export function remove(list: string[], id: string): boolean {
  const at = list.indexOf(id);
  if (at < 0) return false;
  list.splice(at, 1);
  return true;
}
