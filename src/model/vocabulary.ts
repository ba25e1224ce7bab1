// The service's words and limits, whichever API says them: states, modes, priorities, the bounds on numbers.
// Plain constants, so a command that needs only these loads nothing else.

/** v1 documents 2147483647 as the largest PR number; its description allows more (docs/differences.md). */
export const PR_NUMBER_MAX = 2_147_483_647;
/** What v2 bounds a PR number to (SubmitPullRequestRequest.number). */
export const V2_PR_NUMBER_MAX = 10_000_000;
/**
 * The largest PR number a command takes: the smaller of the two, so that a number one API would refuse is refused
 * before anything is sent, with either credential alike (v2 answered 400 where v1 went on).
 */
export const PR_NUMBER_TAKEN_MAX = Math.min(PR_NUMBER_MAX, V2_PR_NUMBER_MAX);
/** The service's request body limit. */
export const BODY_LIMIT_BYTES = 20 * 1024 * 1024;

export const PULL_REQUEST_STATES = ['not_ready', 'pending', 'testing', 'tests_passed', 'merged', 'failed', 'cancelled', 'pending_failure'] as const;
export const FINAL_PULL_REQUEST_STATES = ['merged', 'failed', 'cancelled'] as const;

/** Whether a state as a response reported it is final (the PR has left the queue); an unknown one is not. */
export function isFinalState(state: string | undefined): boolean {
  return state !== undefined && (FINAL_PULL_REQUEST_STATES as readonly string[]).includes(state);
}

/** A final state as a person says it of a PR: "has already merged", "has already failed", "was already cancelled". */
export function alreadyEnded(state: string): string {
  return state === 'cancelled' ? 'was already cancelled' : `has already ${state}`;
}
/** A merged PR submitted again, one sentence on both APIs: the service queued it to be tested again (v1) or refused it (v2). */
export function mergedSubmittedAgain(pr: number, queued: boolean): string {
  return `#${pr} ${alreadyEnded('merged')}: the service ${queued ? 'queued it to be tested again' : 'refused to queue it again'}`;
}
/** A reason in the model's lower snake_case however an API cases it (`TEST_RUN_PASSED`, `notReady`); free text stays as it came. */
export function reasonWord(word: string): string {
  return /^[A-Za-z0-9_]+$/.test(word) ? word.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase() : word;
}
export const QUEUE_STATES = ['running', 'paused', 'draining', 'switching_modes'] as const;
/** The states a client may set: `switching_modes` is entered by the service itself. */
export const SETTABLE_QUEUE_STATES = ['running', 'paused', 'draining'] as const;
export const QUEUE_MODES = ['single', 'parallel'] as const;
export const DIRECT_MERGE_MODES = ['off', 'always'] as const;
export const OPTIMIZATION_MODES = ['off', 'bisection_skip_redundant_tests'] as const;
export const MERGE_METHODS = ['merge_commit', 'squash', 'rebase'] as const;
export const TEST_BRANCH_CONSTRUCTION_MODES = ['rename_temp_branch', 'push_new_branch_from_temp'] as const;
export const MERGEABILITY = ['unspecified', 'in_progress', 'mergeable', 'not_mergeable'] as const;
export const TEST_RUN_STATUSES = ['in_progress', 'failed', 'cancelled', 'succeeded'] as const;

/** The largest count the published description allows for a queue setting. */
export const SETTING_MAX = 4_294_967_295;
/** The largest `attempt` of a CI run the published description allows. */
export const CI_RUN_ATTEMPT_MAX = 4_294_967_295;

/** Named priorities and their values (docs/service.md#priorities); 255 is the lowest a number may say. */
export const PRIORITY_NAMES = { urgent: 0, high: 10, medium: 100, low: 200 } as const;
export type PriorityName = keyof typeof PRIORITY_NAMES;
export const PRIORITY_MAX = 255;
/**
 * Tested, waiting for the PRs ahead: an urgent PR that comes stands behind these at the front of the line, ahead of
 * the PRs testing (it interrupts their runs where they hold it: every one in a single queue, its lane's in a parallel one).
 */
export const DONE_TESTING_STATES: ReadonlySet<string> = new Set<PullRequestState>(['tests_passed', 'pending_failure']);
/** A priority as a user gives it: a name, or 0 (most urgent) to 255. */
export type Priority = number | PriorityName;

export type PullRequestState = (typeof PULL_REQUEST_STATES)[number];
export type QueueState = (typeof QUEUE_STATES)[number];
export type SettableQueueState = (typeof SETTABLE_QUEUE_STATES)[number];
/** A state as the service reported it: a known one, or one this client does not know yet, shown as it came. */
export type ReportedPullRequestState = PullRequestState | (string & {});
export type ReportedQueueState = QueueState | (string & {});
/** A value of one of the lists above as reported: known, or new and shown as it came. */
export type Reported<T extends readonly string[]> = T[number] | (string & {});

/** What every v2 API key begins with; a v1 organization token never does (docs/service.md#keys-and-permissions). */
export const V2_KEY_PREFIX = 'trunk_v2_';

export function isV2Key(token: string): boolean {
  return token.startsWith(V2_KEY_PREFIX);
}

/** The most PRs one batch read asks for: v2 documents 50; v1 leaves its limit unsaid. */
export const BATCH_READ_MAX = 50;
/** How many PRs one page of a history read holds at most. */
export const LIST_TAKE_MAX = 100;
/** listMergeQueueTestingResults keeps and spans at most this many days (the service's retention). */
export const TESTING_RESULTS_SPAN_DAYS = 45;
/** Impacted targets meaning "every target". */
export const IMPACTS_ALL = 'ALL';
/** Any 8-4-4-4-12 hexadecimal id: the service checks no UUID version or variant. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A merge queue's id on v2: 8 letters and digits (`xK9mP2nQ`). */
export const QUEUE_ID_PATTERN = /^[0-9A-Za-z]{8}$/;
export const TEST_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const TEST_STATUS_VALUES = ['healthy', 'flaky', 'broken'] as const;
/** The statuses of list-unhealthy-tests, in the service's upper case. */
export const UNHEALTHY_STATUSES = ['FLAKY', 'BROKEN'] as const;
/** The most tests one page of a flaky-test list holds. */
export const FLAKY_PAGE_SIZE_MAX = 100;
/** A failing-tests window: at most 7 days. */
export const FAILING_WINDOW_MAX_MS = 7 * 24 * 3600 * 1000;
