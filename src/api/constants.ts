// The v1 API's fixed words and limits, apart from the zod schemas (schemas.ts, which re-exports them): a command
// that only needs these does not load zod.

/** SERVICE.md shows 2147483647 as the largest PR number; the published description allows more, we send less. */
export const PR_NUMBER_MAX = 2_147_483_647;
/** The service's request body limit. */
export const BODY_LIMIT_BYTES = 20 * 1024 * 1024;
/** The service's path segment; every base URL ends in it. */
export const API_VERSION = 'v1';

export const PULL_REQUEST_STATES = ['not_ready', 'pending', 'testing', 'tests_passed', 'merged', 'failed', 'cancelled', 'pending_failure'] as const;
export const FINAL_PULL_REQUEST_STATES = ['merged', 'failed', 'cancelled'] as const;

/** Whether a state as a response reported it is final (the PR has left the queue); an unknown one is not. */
export function isFinalState(state: string | undefined): boolean {
  return state !== undefined && (FINAL_PULL_REQUEST_STATES as readonly string[]).includes(state);
}
export const QUEUE_STATES = ['running', 'paused', 'draining', 'switching_modes'] as const;
/** The states updateQueue accepts: `switching_modes` is entered by the service itself. */
export const SETTABLE_QUEUE_STATES = ['running', 'paused', 'draining'] as const;
export const QUEUE_MODES = ['single', 'parallel'] as const;
export const DIRECT_MERGE_MODES = ['off', 'always'] as const;
export const OPTIMIZATION_MODES = ['off', 'bisection_skip_redundant_tests'] as const;
export const MERGE_METHODS = ['merge_commit', 'squash', 'rebase'] as const;
export const MERGEABILITY = ['unspecified', 'in_progress', 'mergeable', 'not_mergeable'] as const;
export const TEST_RUN_STATUSES = ['in_progress', 'failed', 'cancelled', 'succeeded'] as const;

/** The largest count the published description allows for a queue setting. */
export const SETTING_MAX = 4_294_967_295;

/** Named priorities and their values (SEMANTICS.md); 255 is the lowest a number may say. */
export const PRIORITY_NAMES = { urgent: 0, high: 10, medium: 100, low: 200 } as const;
export type PriorityName = keyof typeof PRIORITY_NAMES;
export const PRIORITY_MAX = 255;

export type PullRequestState = (typeof PULL_REQUEST_STATES)[number];
export type QueueState = (typeof QUEUE_STATES)[number];
/** A state as a response carries it: a known one, or one this client does not know yet, shown as it came. */
export type ReportedPullRequestState = PullRequestState | (string & {});
export type ReportedQueueState = QueueState | (string & {});

export const LIST_TAKE_MAX = 100;
export const IMPACTS_ALL = 'ALL';
/** Any 8-4-4-4-12 hexadecimal id: the service checks no UUID version or variant. */
export const TEST_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const TEST_STATUS_VALUES = ['healthy', 'flaky', 'broken'] as const;

/** A path as an error message shows it: `enqueuedPullRequests[0].prNumber`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}
