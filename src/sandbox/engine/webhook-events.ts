// The service's webhooks as the engine's state changes make them (docs/sandbox.md#webhooks): one
// `pull_request.*` event per step of a PR (tests_passed has none), and `pull_request_batch.*` events for a run of
// several PRs. Every step is noted as it happens, with the run it rests on; the events are made when the I/O
// asks for them (after each request or tick), when every step of that instant has happened and its cause is known.
import { type EntryAction, REASON_FIELDS, type WebhookEvent, type WebhookKind } from '../../model/webhooks.js';
import { EngineRefusal } from './types.js';
import type { PullRequestState } from '../../model/vocabulary.js';
import { deterministicUuid } from './ids.js';
import { URGENT } from './line.js';
import { failedReason, pendingCause } from './history.js';
import type { QueueRecord, Submission, TestRun } from './state.js';
import { iso } from './views.js';
import { pullRequestOf, type QueueWorld } from './world.js';

const ACTION_OF: Partial<Record<PullRequestState, EntryAction>> = {
  not_ready: 'submitted',
  pending: 'queued',
  testing: 'testing',
  pending_failure: 'pending_failure',
  failed: 'failed',
  cancelled: 'canceled',
  merged: 'merged',
};

/** The kinds whose payload must say whether the run was a bisection's. */
const WITH_BISECTION: ReadonlySet<EntryAction> = new Set(['testing', 'failed', 'canceled']);

interface Step {
  queue: QueueRecord;
  submission: Submission;
  /** Its index in the submission's timeline. */
  index: number;
  from: PullRequestState;
  /** The run the PR rests on at this step, if any. */
  run: TestRun | undefined;
  /** What the request that made this step says of it (a cancel, a push, a restart). */
  cause: string | undefined;
}

/** Notes steps as they happen and makes their events on request, with ids `msg_…` from the state's counter. */
export class WebhookRecorder {
  private steps: Step[] = [];
  /** What the request under way says of the next step of a submission to a state: `id>state` → reason. */
  private readonly causes = new Map<string, string>();

  constructor(private readonly world: QueueWorld) {}

  /** The reason the service gives the step to `state` a request is about to cause (USER_REQUESTED, PR_PUSHED_TO…). */
  expect(submission: Submission, state: PullRequestState, reason: string): void {
    this.causes.set(`${submission.id}>${state}`, reason);
  }

  /** The request is done: causes it announced and did not cause are forgotten. */
  settled(): void {
    this.causes.clear();
  }

  observe(queue: QueueRecord, submission: Submission, from: PullRequestState): void {
    const key = `${submission.id}>${submission.state}`;
    const cause = this.causes.get(key);
    this.causes.delete(key);
    const run = submission.latestTestRunId === undefined ? undefined : this.world.state.testRuns[submission.latestTestRunId];
    this.steps.push({ queue, submission, index: (submission.timeline?.length ?? 1) - 1, from, run, cause });
  }

  take(): WebhookEvent[] {
    const steps = this.steps;
    if (steps.length === 0) return [];
    this.steps = [];
    // A batch's event follows the last of its PRs' events of that instant.
    const lastOfBatch = new Map<string, number>();
    steps.forEach((step, index) => step.run && lastOfBatch.set(batchKey(step), index));
    const events: WebhookEvent[] = [];
    const batches = new Set<string>();
    steps.forEach((step, index) => {
      const state = stateOf(step);
      // A failed batch's PRs go from pending failure straight into bisection's runs: the service says they were queued again for it.
      if (state === 'testing' && step.from === 'pending_failure' && step.run?.queueType === 'bisection') {
        events.push(this.event('pull_request.queued', pullRequestPayload(this.world, { ...step, cause: 'BISECTION_REQUIRED' }, 'queued')));
      }
      const action = ACTION_OF[state];
      if (action) events.push(this.event(`pull_request.${action}`, pullRequestPayload(this.world, step, action)));
      if (lastOfBatch.get(batchKey(step)) !== index) return;
      const batch = batchEventOf(this.world, step);
      if (batch && !batches.has(`${step.run!.id}:${batch.action}`)) {
        batches.add(`${step.run!.id}:${batch.action}`);
        events.push(this.event(`pull_request_batch.${batch.action}`, batch.payload));
      }
    });
    return events;
  }

  /**
   * One event of a kind about a PR's latest submission, made on request (`mq webhooks trigger`), whatever its state:
   * the payload it would have, with the kind's first documented reason where its state gives none.
   */
  synthetic(type: WebhookKind, queue: QueueRecord, submission: Submission): WebhookEvent {
    const [family, action] = type.split('.') as [string, EntryAction];
    const run = submission.latestTestRunId === undefined ? undefined : this.world.state.testRuns[submission.latestTestRunId];
    const step: Step = { queue, submission, index: (submission.timeline?.length ?? 1) - 1, from: submission.state, run, cause: undefined };
    if (family === 'pull_request') {
      const payload = pullRequestPayload(this.world, step, action);
      const field = REASON_FIELD[action];
      if (field && payload[field] === undefined) payload[field] = REASON_FIELDS[field as keyof typeof REASON_FIELDS][0];
      return this.event(type, payload);
    }
    if (family === 'pull_request_batch' && run) {
      const onRun = run.pullRequestIds.map((id) => this.world.state.submissions[id]).filter((s): s is Submission => s !== undefined);
      return this.event(type, batchPayload(this.world, step, action, onRun));
    }
    throw new EngineRefusal('conflict', `#${submission.number} has no test run to make a ${type} of: its tests have not started`);
  }

  /** An event of the sequence: the payload as given, with its kind, an id of the state's counter. */
  event(type: WebhookEvent['type'], payload: Record<string, unknown>): WebhookEvent {
    const state = this.world.state;
    const n = state.nextEventId ?? 0;
    state.nextEventId = n + 1;
    return { id: `msg_${deterministicUuid(`${state.seed}:webhook`, n).replaceAll('-', '')}`, type, payload: { type, ...payload } };
  }
}

function stateOf(step: Step): PullRequestState {
  return step.submission.timeline?.[step.index]?.state ?? step.submission.state;
}

function atOf(world: QueueWorld, step: Step): number {
  return step.submission.timeline?.[step.index]?.at ?? world.state.now;
}

function batchKey(step: Step): string {
  return `${step.run?.id}:${stateOf(step)}:${step.submission.timeline?.[step.index]?.at}`;
}

/** Its state once everything of instant `at` happened. */
function stateAt(submission: Submission, at: number): PullRequestState {
  let state = submission.state;
  for (const step of submission.timeline ?? []) {
    if (step.at > at) break;
    state = step.state;
  }
  return state;
}

/** Why a run failed: cut short by the testing timeout, or a required check failed. */
function runFailure(run: TestRun): string {
  return run.finishedAt !== undefined && run.finishedAt - run.createdAt < run.durationMs ? 'TEST_RUN_TIMEOUT' : 'TEST_RUN_REQUIRED_STATUS_FAILED';
}

/** `repository`, `target_branch`, `timestamp`: what every event of a queue carries. */
function common(queue: QueueRecord, at: number) {
  const { host, owner, name } = queue.repo;
  return { repository: { host, owner, name }, target_branch: queue.branch, timestamp: iso(at) };
}

function testFields(run: TestRun | undefined) {
  if (!run) return {};
  return { test_branch: run.testBranch, test_branch_sha: run.testBranchSha, batched: run.pullRequestIds.length > 1 };
}

function pullRequestPayload(world: QueueWorld, step: Step, action: EntryAction): Record<string, unknown> {
  const { queue, submission, run } = step;
  const record = pullRequestOf(world, submission);
  const at = atOf(world, step);
  const tested = action !== 'submitted' && action !== 'queued';
  const payload: Record<string, unknown> = {
    action,
    status: action,
    pr_number: record.number,
    author: record.author,
    http_details_url: `https://app.trunk.io/gh/${record.repo.owner}/${record.repo.name}/merge/${queue.branch}/${record.number}`,
    ...common(queue, at),
    ...(tested && testFields(run)),
  };
  if (WITH_BISECTION.has(action)) payload.is_bisection = tested && run?.queueType === 'bisection';
  const reason = reasonOf(world, step, action, at);
  if (reason) payload[REASON_FIELD[action]!] = reason;
  return payload;
}

const REASON_FIELD: Partial<Record<EntryAction, string>> = {
  submitted: 'submitted_reason',
  queued: 'queued_reason',
  pending_failure: 'failure_reason',
  failed: 'failure_reason',
  canceled: 'cancellation_reason',
  merged: 'merged_reason',
};

function reasonOf(world: QueueWorld, step: Step, action: EntryAction, at: number): string | undefined {
  if (step.cause) return step.cause;
  const { submission, run, from } = step;
  switch (action) {
    case 'submitted':
      return 'API_REQUESTED';
    case 'queued': {
      if (from === 'not_ready') return 'MERGE_ITEM_NOW_READY';
      if (submission.inBisection && run?.queueType !== 'bisection') return 'BISECTION_REQUIRED';
      const timelineStep = submission.timeline?.[step.index];
      const cause = timelineStep && pendingCause(world, submission, timelineStep, from, run).reason;
      if (cause) return cause.toUpperCase();
      // Sent back from a run for no fault of anyone's: an urgent PR took the line.
      const urgent = step.queue.line.some((id) => id !== submission.id && world.state.submissions[id]?.priorityValue === URGENT);
      return urgent ? 'SKIP_THE_LINE_INTERRUPTED' : undefined;
    }
    case 'pending_failure':
      return run?.status === 'failed' ? runFailure(run) : undefined;
    case 'failed':
      return run?.status === 'failed' && run.finishedAt !== undefined && run.finishedAt <= at ? failedReason(run).toUpperCase() : undefined;
    case 'merged':
      return from === 'pending' ? 'MERGE_GRAPH_DIRECT_MERGE' : 'MERGE_GRAPH_MERGE';
    default:
      return undefined;
  }
}

/**
 * The batch's event this step completes, for a run of several PRs: `testing` with its first PR (they all start
 * together); `pending_failure`, `merged`, `canceled` when the last of its PRs reaches it; `failed` when the run
 * failed and the last of its PRs left pending failure (to fail, or to be bisected).
 */
function batchEventOf(world: QueueWorld, step: Step): { action: EntryAction; payload: Record<string, unknown> } | undefined {
  const run = step.run;
  if (!run || run.pullRequestIds.length < 2) return undefined;
  const state = stateOf(step);
  const at = atOf(world, step);
  const members = run.pullRequestIds.map((id) => world.state.submissions[id]).filter((s): s is Submission => s !== undefined);
  const onRun = members.filter((s) => s.latestTestRunId === run.id || stateAt(s, at) === state);
  const all = (wanted: PullRequestState) => onRun.every((s) => stateAt(s, at) === wanted);
  let action: EntryAction | undefined;
  if (state === 'testing' && run.createdAt === at) action = 'testing';
  else if (state === 'merged' && all('merged')) action = 'merged';
  else if (state === 'pending_failure' && all('pending_failure')) action = 'pending_failure';
  else if (state === 'cancelled' && run.status === 'cancelled') action = 'canceled';
  else if (step.from === 'pending_failure' && run.status === 'failed' && onRun.every((s) => stateAt(s, at) !== 'pending_failure')) action = 'failed';
  return action && { action, payload: batchPayload(world, step, action, onRun) };
}

function batchPayload(world: QueueWorld, step: Step, action: EntryAction, onRun: readonly Submission[]): Record<string, unknown> {
  const run = step.run!;
  const at = atOf(world, step);
  const numbers = run.pullRequestIds.map((id) => world.state.submissions[id]?.number).filter((n): n is number => n !== undefined);
  const payload: Record<string, unknown> = {
    action,
    status: action,
    pr_numbers: action === 'merged' ? onRun.filter((s) => stateAt(s, at) === 'merged').map((s) => s.number) : numbers,
    pr_numbers_in_batch: numbers,
    ...common(step.queue, at),
    test_branch: run.testBranch,
    test_branch_sha: run.testBranchSha,
  };
  if (WITH_BISECTION.has(action)) payload.is_bisection = run.queueType === 'bisection';
  if (action === 'merged') payload.merged_reason = 'MERGE_GRAPH_MERGE';
  if ((action === 'failed' || action === 'pending_failure') && run.status === 'failed') payload.failure_reason = runFailure(run);
  if (action === 'canceled' && step.cause) payload.cancellation_reason = step.cause;
  return payload;
}
