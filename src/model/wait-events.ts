// What the waiting commands see as they go and hand back at the end (wait, submit --wait, queue drain --wait,
// queue get --watch): the events a view attached from outside receives, and the results it sums up.
import type { Eta } from './eta.js';
import type { ServiceEvents, Waited } from './poll.js';
import type { PullRequestCommands, SubmittedPullRequest } from './pull-request.js';
import type { PlacedPullRequest, Queue } from './queue.js';
import type { CommandResult, PrOutcome } from './result.js';
import type { PullRequestState, QueueState, ReportedPullRequestState } from './vocabulary.js';
import type { Why } from './why.js';

/** One PR's failure, as a multi-PR command reports it. */
export type PrFailure = Extract<PrOutcome, { ok: false }>['error'];
/** What submit, cancel and restart hand back. */
export type PerPr = Extract<CommandResult, { kind: 'perPr' }>;
/** What a change of the queue (create, update, pause, drain, resume, delete) hands back. */
export type QueueChange = Extract<CommandResult, { kind: 'queueChange' }>;

/** The state pause, resume and drain ask for; create, update and delete ask for none. */
export const REQUESTED_STATE: Partial<Record<QueueChange['action'], QueueState>> = { pause: 'paused', resume: 'running', drain: 'draining' };

/** A PR as last seen. `error`: the service does not know it (404), or refused to submit it. */
export interface PrSighting {
  pr: number;
  status: 'waiting' | 'reached' | 'ended' | 'error';
  pullRequest?: SubmittedPullRequest;
  /** 1-based place among the queue's PRs that hold one, as mq status gives it; undefined when not listed there, or not admitted yet (not_ready). */
  position?: number;
  /** Where the service names only some of the PRs awaiting admission (v2) and not this one: how many it names, all ahead of it (mq status's `after`). */
  after?: number;
  error?: PrFailure;
  /** submit --wait was refused it, and said why as it was. */
  refusedAtSubmit?: true;
  /** submit --wait found it already in the queue. */
  alreadyQueued?: boolean;
  /** The state the submit read of a PR already queued: what is known of it until a round reads it. */
  submittedState?: string;
  /** Why it ended failed or cancelled, looked up once the wait is over. */
  why?: Why;
  /** When it merges, as of the last round, while it is in the queue. */
  eta?: Eta;
  /** What the summary names to run next for it, aimed at the queue waited on. */
  commands?: PullRequestCommands;
}

/** A PR seen in a new state, the first sighting included (`previous` null). */
export interface PrChange {
  pr: number;
  state: ReportedPullRequestState;
  previous: ReportedPullRequestState | null;
  /** The service's `stateChangedAt`. */
  at: string;
  position: number | null;
  /** With no position: the PRs the service names, every one ahead of it, where it names only some awaiting admission. */
  after?: number;
  /** While it is still waited for: its record (for its readiness) and its ETA, for the line a pipe gets. */
  pullRequest?: SubmittedPullRequest;
  eta?: Eta;
}

export interface WaitEvents extends ServiceEvents {
  /** The result of what ran before the wait (submit), to be shown as that command shows it. */
  acted(result: PerPr): void;
  changed(change: PrChange): void;
  /** After every round: each PR as last seen, and the service's clock, for times in state. */
  polled(prs: readonly PrSighting[], now: number): void;
}

/** `ok`: every PR reached the target. */
export interface WaitResult extends Waited {
  target: PullRequestState;
  prs: PrSighting[];
}

// The states a PR passes through on its way to each one: a PR seen past the target (it moved between two
// polls) has reached it. Only cancelled can come from anywhere, so it passes through nothing.
const LATER_STATES: Record<PullRequestState, readonly PullRequestState[]> = {
  not_ready: ['pending', 'testing', 'tests_passed', 'pending_failure', 'merged', 'failed'],
  pending: ['testing', 'tests_passed', 'pending_failure', 'merged', 'failed'],
  testing: ['tests_passed', 'pending_failure', 'merged', 'failed'],
  tests_passed: ['merged'],
  pending_failure: ['failed'],
  merged: [],
  failed: [],
  cancelled: [],
};

/** Whether a PR in `state` is in `target` or already past it; a state this client does not know is neither. */
export function hasReached(state: ReportedPullRequestState, target: PullRequestState): boolean {
  return state === target || (LATER_STATES[target] as readonly string[]).includes(state);
}

/** The states of a PR the queue has admitted: a drain finishes these, and holds back `not_ready` ones. */
export const ADMITTED_STATES: readonly PullRequestState[] = ['pending', 'testing', 'tests_passed', 'pending_failure'];

export interface DrainEvents extends ServiceEvents {
  /** The drain itself, shown as `queue drain` shows it. */
  acted(result: QueueChange): void;
  /** After every round: the admitted PRs left in queue order, whether that list changed, the service's clock. */
  polled(admitted: readonly PlacedPullRequest[], changed: boolean, now: number): void;
}

export interface DrainResult extends Waited {
  change: QueueChange;
  /** The admitted PRs left at the end: none unless timed out. */
  admitted: PlacedPullRequest[];
}

export interface WatchEvents extends ServiceEvents {
  /** After every round: the queue, whether it differs, the service's clock, whether all settings are wanted, and how often it is read. */
  polled(queue: Queue, changed: boolean, now: number, shown?: { allSettings?: boolean; everyMs?: number }): void;
}
