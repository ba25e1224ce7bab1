// The service's webhooks as the engine's changes make them (docs/sandbox.md#webhooks): a `pull_request.*` event
// for each step of a PR (tests_passed has none), `pull_request_batch.*` events for a run of several PRs. A step is
// noted as it happens, with the run it rests on; its event is made when someone takes the events (after each
// request or tick), once every step of that instant happened and the history can tell its cause.
import type { PullRequestState } from '../../model/vocabulary.js';
import { type EntryAction, REASON_FIELD_OF, REASON_FIELDS, type WebhookEvent, type WebhookKind } from '../../model/webhooks.js';
import type { Repo } from '../../model/repository.js';
import { getTestDetails, SEEDED_TEST_IDS } from './catalogue.js';
import { causeOf, runFailure, stepsOf } from './history.js';
import { sha256Hex } from './digest.js';
import type { QueueRecord, Submission, TestRun } from './state.js';
import { EngineRefusal } from './types.js';
import { iso } from './views.js';
import { pullRequestOf, type QueueWorld } from './world.js';

/** How many events `recent()` keeps (the `webhooks/events` route's list), and how many wait untaken at most in
 *  an engine nobody takes them from. */
const RECENT_MAX = 10_000;

const ACTION_OF: Partial<Record<PullRequestState, EntryAction>> = {
  not_ready: 'submitted',
  pending: 'queued',
  testing: 'testing',
  pending_failure: 'pending_failure',
  failed: 'failed',
  cancelled: 'canceled',
  merged: 'merged',
};

/** The kinds whose payload says whether the run was a bisection's. */
const WITH_BISECTION: ReadonlySet<EntryAction> = new Set(['testing', 'failed', 'canceled']);

interface Step {
  queue: QueueRecord;
  submission: Submission;
  /** Its index in the submission's timeline. */
  index: number;
  /** The run the PR rests on at this step, and the one it rested on before (a bisection's run replaces the batch's). */
  run: TestRun | undefined;
  previousRun: TestRun | undefined;
}

type Payload = Record<string, unknown>;

/** An event's number in the sequence (its id's last 16 hex digits, see `made`); undefined for an id not made so. */
export function eventNumberOf(id: string): number | undefined {
  const counter = /^msg_[0-9a-f]{16}([0-9a-f]{16})$/.exec(id)?.[1];
  return counter === undefined ? undefined : Number.parseInt(counter, 16);
}

/** Notes the steps as they happen and makes their events when taken; ids `msg_…` from the state's counter. */
export class WebhookEvents {
  private steps: Step[] = [];
  private untaken: WebhookEvent[] = [];
  private recentEvents: WebhookEvent[] = [];
  /** The run each open submission last rested on, so a step can tell the run it left. */
  private readonly runs = new Map<string, string>();
  private idPrefix: string | undefined;
  /** Whether events were ever taken: then none is dropped, as they are taken after every request and tick (one
   *  step making more than RECENT_MAX is a long advance of a large queue; the delivery bounds and counts them). */
  private taken = false;

  constructor(private readonly world: QueueWorld) {}

  note(queue: QueueRecord, submission: Submission): void {
    const testRuns = this.world.state.testRuns;
    const runId = submission.latestTestRunId;
    const previous = this.runs.get(submission.id);
    if (runId === undefined || submission.state === 'merged' || submission.state === 'failed' || submission.state === 'cancelled') {
      this.runs.delete(submission.id);
    } else this.runs.set(submission.id, runId);
    // Nobody takes them (an engine without I/O): made now and then, the oldest untaken dropped, so none piles up.
    if (this.steps.length >= RECENT_MAX) this.flush();
    this.steps.push({
      queue,
      submission,
      index: stepsOf(submission).length - 1,
      run: runId === undefined ? undefined : testRuns[runId],
      previousRun: previous === undefined || previous === runId ? undefined : testRuns[previous],
    });
  }

  /** The events made since the last call, oldest first. */
  take(): WebhookEvent[] {
    this.flush();
    this.taken = true;
    const taken = this.untaken;
    this.untaken = [];
    return taken;
  }

  /** The last events made (at most RECENT_MAX), oldest first, taken or not. */
  recent(): WebhookEvent[] {
    this.flush();
    return this.recentEvents.slice(-RECENT_MAX);
  }

  /**
   * One event of a PR kind about `submission` in its present state, with the kind's first reason where it has
   * none of its kind's own (the PR's last step may say why it became ready, which is no merge's reason). It stands
   * for a transition made now, so its `timestamp` is the sandbox's now, not the PR's last step's. A batch kind is of
   * the PR's last run, and only of a run of several PRs: a run of one has no batch events. `recorded`: a journal's
   * entry, which an older sandbox may have made of a run of one; made again, so that the ids after it stay theirs.
   */
  synthetic(type: WebhookKind, queue: QueueRecord, submission: Submission, recorded = false): WebhookEvent {
    // After the events of the steps before it, as a running sandbox (which takes them after each request) made
    // them: a restart's replay takes none between, and gave the triggered event an earlier id than it had.
    this.flush();
    const [family, action] = type.split('.') as [string, EntryAction];
    const run = submission.latestTestRunId === undefined ? undefined : this.world.state.testRuns[submission.latestTestRunId];
    const step: Step = { queue, submission, index: stepsOf(submission).length - 1, run, previousRun: undefined };
    const now = this.world.state.now;
    if (family !== 'pull_request' && !run)
      throw new EngineRefusal('conflict', `#${submission.number} has not been tested yet: no batch to make a ${type} event of`);
    if (family !== 'pull_request' && run!.pullRequestIds.length < 2 && !recorded) {
      throw new EngineRefusal(
        'conflict',
        `#${submission.number} was tested alone, and a run of one PR has no batch events: trigger ${type} for a PR tested in a batch`,
      );
    }
    const payload = run && family !== 'pull_request' ? batchPayload(this.world, queue, run, action, now) : this.pullRequestPayload(step, action, now);
    const field = REASON_FIELD_OF[action];
    if (field && !(REASON_FIELDS[field] as readonly unknown[]).includes(payload[field])) payload[field] = REASON_FIELDS[field][0];
    return this.made(type, payload);
  }

  /** One event of a test case kind about the catalogue's first test (flaky, quarantined), in `repo`, now. */
  testCase(type: WebhookKind, repo: Repo): WebhookEvent {
    this.flush();
    const test = getTestDetails(this.world, { repo, org: repo.owner }, SEEDED_TEST_IDS[0]!);
    const change =
      type === 'test_case.status_changed'
        ? { status_change: { previous_status: 'healthy', current_status: test.status } }
        : {
            quarantine_setting_changed: {
              actor: { full_name: 'Sandbox User', email: 'sandbox@example.com' },
              reason: null,
              timestamp: iso(this.world.state.now),
              previous_quarantining_setting: 'UNSPECIFIED',
              updated_quarantining_setting: 'ALWAYS_QUARANTINE',
            },
          };
    return this.made(type, { test_case: test, ...change });
  }

  /** An event of the sequence: `type` first in the body, as the service sends it, and the next id. */
  private made(type: WebhookKind, payload: Payload): WebhookEvent {
    const state = this.world.state;
    const n = state.nextEventId ?? 0;
    state.nextEventId = n + 1;
    // 16 hex digits of the seed's digest (made once), then the counter's 16: no digest per event.
    this.idPrefix ??= `msg_${sha256Hex(`${state.seed}:webhook`).slice(0, 16)}`;
    const event: WebhookEvent = { id: this.idPrefix + n.toString(16).padStart(16, '0'), type, payload: { type, ...payload } };
    this.recentEvents.push(event);
    if (this.recentEvents.length >= 2 * RECENT_MAX) this.recentEvents = this.recentEvents.slice(-RECENT_MAX);
    return event;
  }

  private flush(): void {
    const steps = this.steps;
    if (steps.length === 0) return;
    this.steps = [];
    // A batch's event follows the last of its PRs' events that make it, within what is flushed together.
    // Leaving a cancelled run, cancelled or sent back, is one thing: the batch is `canceled` once. A PR already
    // off the run (sent back by its cancel, then cancelled) leaves nothing, whichever take the two fell in.
    const batchKey = (step: Step, run: TestRun) => {
      const state = stateOf(step);
      return `${run.id}:${LEFT.has(state) ? (leftRun(step, run) ? 'left' : 'off') : state}:${run === step.run}`;
    };
    const lastOfBatch = new Map<string, number>();
    steps.forEach((step, index) => {
      for (const run of [step.run, step.previousRun]) if (run) lastOfBatch.set(batchKey(step, run), index);
    });
    steps.forEach((step, index) => {
      const state = stateOf(step);
      const action = ACTION_OF[state];
      if (action) this.untaken.push(this.made(`pull_request.${action}`, this.pullRequestPayload(step, action)));
      for (const run of [step.run, step.previousRun]) {
        if (!run || lastOfBatch.get(batchKey(step, run)) !== index) continue;
        const batch = batchActionOf(this.world, step, run);
        if (!batch) continue;
        const payload = batchPayload(this.world, step.queue, run, batch, atOf(step));
        const reason = recordedReason(step);
        if (batch === 'canceled' && isCancellation(reason)) payload.cancellation_reason = reason;
        this.untaken.push(this.made(`pull_request_batch.${batch}`, payload));
      }
    });
    if (!this.taken && this.untaken.length > RECENT_MAX) this.untaken = this.untaken.slice(-RECENT_MAX);
  }

  /** `reason`: the history's for the step unless given. */
  /** `at`: when it happened, the step's instant unless said. */
  private pullRequestPayload(step: Step, action: EntryAction, at = atOf(step), reason = this.reasonOf(step)): Payload {
    const { queue, submission, run } = step;
    const record = pullRequestOf(this.world, submission);
    const payload: Payload = {
      action,
      status: action,
      pr_number: record.number,
      author: record.author,
      http_details_url: `https://app.trunk.io/gh/${record.repo.owner}/${record.repo.name}/merge/${queue.branch}/${record.number}`,
      ...common(queue, at),
    };
    const tested = action !== 'submitted' && action !== 'queued' && run !== undefined;
    if (tested) Object.assign(payload, testFields(run), { batched: run.pullRequestIds.length > 1 });
    if (WITH_BISECTION.has(action)) payload.is_bisection = tested && run.queueType === 'bisection';
    const field = REASON_FIELD_OF[action];
    if (field && reason !== undefined) payload[field] = reason;
    return payload;
  }

  /** The history's cause of the step (v2's queue-entry history gives the same), in the service's upper case. */
  private reasonOf(step: Step): string | undefined {
    const { submission, run } = step;
    const steps = stepsOf(submission);
    const timelineStep = steps[step.index];
    if (!timelineStep) return undefined;
    return causeOf(this.world, submission, timelineStep, steps[step.index - 1]?.state, run).reason?.toUpperCase();
  }
}

const LEFT: ReadonlySet<PullRequestState> = new Set(['cancelled', 'pending']);

/** The states of a PR on a run, from its start until it leaves it. */
const ON_RUN: ReadonlySet<PullRequestState> = new Set(['testing', 'tests_passed', 'pending_failure']);

/** The PR's step before this one in its timeline, if any. */
function stepBefore(step: Step) {
  return stepsOf(step.submission)[step.index - 1];
}

/** Whether the PR was on `run` until this step: not when an earlier step (at the same instant) already took it off. */
function leftRun(step: Step, run: TestRun): boolean {
  const before = stepBefore(step);
  return before !== undefined && before.at >= run.createdAt && ON_RUN.has(before.state);
}

function isCancellation(cause: string | undefined): cause is string {
  return (REASON_FIELDS.cancellation_reason as readonly (string | undefined)[]).includes(cause);
}

/** The reason recorded on the step (a request's, or the engine's), in the service's upper case. */
function recordedReason(step: Step): string | undefined {
  return stepsOf(step.submission)[step.index]?.reason?.toUpperCase();
}

function stateOf(step: Step): PullRequestState {
  return stepsOf(step.submission)[step.index]?.state ?? step.submission.state;
}

function atOf(step: Step): number {
  return stepsOf(step.submission)[step.index]?.at ?? step.submission.stateChangedAt;
}

/** What every event of a queue carries. */
function common(queue: QueueRecord, at: number): Payload {
  const { host, owner, name } = queue.repo;
  return { repository: { host, owner, name }, target_branch: queue.branch, timestamp: iso(at) };
}

function testFields(run: TestRun): Payload {
  return { test_branch: run.testBranch, test_branch_sha: run.testBranchSha };
}

/** Whether a member of the run reached `state` on it, at or before `at`. */
function reached(submission: Submission, run: TestRun, state: PullRequestState, at: number): boolean {
  return stepsOf(submission).some((step) => step.state === state && step.at >= run.createdAt && step.at <= at);
}

/**
 * The batch event the step completes, for a run of several PRs: `testing` when the last started; `pending_failure`
 * and `merged` when the last reached it; `failed` when the run failed and the last left pending failure;
 * `canceled` when the run was cancelled (a member cancelled or sent back).
 */
function batchActionOf(world: QueueWorld, step: Step, run: TestRun): EntryAction | undefined {
  if (run.pullRequestIds.length < 2) return undefined;
  const state = stateOf(step);
  const at = atOf(step);
  const members = run.pullRequestIds.map((id) => world.state.submissions[id]).filter((s): s is Submission => s !== undefined);
  const all = (wanted: PullRequestState) => members.every((member) => reached(member, run, wanted, at));
  if (step.run === run && state === 'testing') return run.createdAt === at && all('testing') ? 'testing' : undefined;
  if (step.run === run && (state === 'merged' || state === 'pending_failure')) return all(state) ? ACTION_OF[state] : undefined;
  if (run.status === 'cancelled' && run.finishedAt === at && LEFT.has(state) && leftRun(step, run)) return 'canceled';
  if (run.status === 'failed' && stepBefore(step)?.state === 'pending_failure' && state !== 'pending_failure') {
    // Left this run's pending failure: a member of a bisection's batch left the pending failure of the batch
    // before it too, and that one does not count (the event was sent twice, the first time too early, when a
    // tick fell between two members' leaving; one long advance sent it once, so a replay made other ids).
    const left = members.every((member) =>
      stepsOf(member).some((s, i, steps) => {
        const before = steps[i - 1];
        return s.at <= at && before?.state === 'pending_failure' && before.at >= run.createdAt && s.state !== 'pending_failure';
      }),
    );
    return left ? 'failed' : undefined;
  }
  return undefined;
}

function batchPayload(world: QueueWorld, queue: QueueRecord, run: TestRun, action: EntryAction, at: number): Payload {
  const numbers = run.pullRequestIds.map((id) => world.state.submissions[id]?.number).filter((n): n is number => n !== undefined);
  const payload: Payload = { action, status: action, pr_numbers: numbers, pr_numbers_in_batch: numbers, ...common(queue, at), ...testFields(run) };
  if (WITH_BISECTION.has(action)) payload.is_bisection = run.queueType === 'bisection';
  if (action === 'merged') payload.merged_reason = 'MERGE_GRAPH_MERGE';
  if ((action === 'failed' || action === 'pending_failure') && run.status === 'failed') payload.failure_reason = runFailure(run).toUpperCase();
  return payload;
}
