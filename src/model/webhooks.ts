// The service's webhooks (the `webhooks` section of the v1 OpenAPI description, docs/sandbox.md): the kinds a
// sandbox sends and `mq webhooks` prints, filters and triggers. Written once, read by the sandbox and the commands.
import { cutValue } from '../argv-values.js';

/** What a queue entry or a test run did: the suffix of a `pull_request.*` or `pull_request_batch.*` kind. */
export const ENTRY_ACTIONS = ['submitted', 'queued', 'testing', 'pending_failure', 'failed', 'canceled', 'merged'] as const;
export type EntryAction = (typeof ENTRY_ACTIONS)[number];

export const TEST_CASE_KINDS = ['test_case.status_changed', 'test_case.quarantining_setting_changed'] as const;

/** The 16 kinds, in the order the service's documentation lists them. */
export const WEBHOOK_KINDS = [
  ...ENTRY_ACTIONS.map((action) => `pull_request.${action}` as const),
  ...ENTRY_ACTIONS.map((action) => `pull_request_batch.${action}` as const),
  ...TEST_CASE_KINDS,
] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** One event as the service sends it: `id` is its `svix-id`, the same on every attempt to every endpoint. */
export interface WebhookEvent {
  id: string;
  type: WebhookKind;
  /** The body, as the kind's schema in the service's description has it (`type` first). */
  payload: Record<string, unknown>;
}

/**
 * Whether `kind` passes a filter of kinds and `family.*` patterns (`--webhook 'URL#pull_request.*'`, `mq webhooks
 * listen --events`). No filter passes every kind, as Svix does for an endpoint without one.
 */
export function kindMatches(filter: readonly string[] | undefined, kind: string): boolean {
  if (!filter || filter.length === 0) return true;
  return filter.some((pattern) => pattern === kind || (pattern.endsWith('.*') && kind.startsWith(pattern.slice(0, -1))));
}

/**
 * Why `url` cannot be an endpoint (`mq sandbox --webhook`, the library's `webhooks`), or undefined: it is http or
 * https, with a host, and a URL the WHATWG parser takes (as the control route's check). Said as what is wrong with
 * it, where the parser says only "Invalid URL": a port past 65535, a host with a space, an IPv6 address unclosed.
 */
export function webhookUrlProblem(url: string): string | undefined {
  // A scheme is case-insensitive (RFC 3986): HTTP:// is http://, as the parser and the control route take it.
  if (!/^https?:\/\/[^/]/i.test(url)) return 'not an http:// or https:// URL';
  if (URL.canParse(url)) return undefined;
  const authority = url.replace(/^https?:\/\//i, '').split(/[/?#]/, 1)[0]!;
  // After the user name and password, never shown.
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const ipv6 = hostPort.startsWith('[');
  if (ipv6 && !hostPort.includes(']')) return 'not a URL: its IPv6 address has no closing ]';
  const colon = hostPort.lastIndexOf(':');
  const hasPort = colon > (ipv6 ? hostPort.indexOf(']') : -1);
  const [host, port] = hasPort ? [hostPort.slice(0, colon), hostPort.slice(colon + 1)] : [hostPort, ''];
  if (!/^\d*$/.test(port) || Number(port) > 65_535) return `not a URL: its port ${JSON.stringify(cutValue(port))} is not a number from 0 to 65535`;
  if (host === '') return 'not a URL: it has no host';
  if ((!ipv6 && host.includes(':')) || !URL.canParse(`http://${host}/`))
    return `not a URL: its host ${JSON.stringify(cutValue(host))} is no host name or IP address`;
  return 'not a URL';
}

/** Whether `type` is one of the service's kinds. */
export function isWebhookKind(type: string): type is WebhookKind {
  return (WEBHOOK_KINDS as readonly string[]).includes(type);
}

/** A filter as written (`pull_request.*, pull_request_batch.merged`): its patterns, trimmed, empty ones dropped. */
export function kindFilter(text: string): string[] {
  return text
    .split(',')
    .map((kind) => kind.trim())
    .filter((kind) => kind !== '');
}

/** The patterns of `filter` that name no kind: a filter naming none would silently never pass anything. */
export function unknownKinds(filter: readonly string[]): string[] {
  return filter.filter((pattern) => !WEBHOOK_KINDS.some((kind) => kindMatches([pattern], kind)));
}

/** The reason field of each kind that has one, and the values the service documents for it. */
export const REASON_FIELDS = {
  submitted_reason: ['USER_REQUESTED', 'TRUNK_ADMIN_REQUESTED', 'API_REQUESTED'],
  queued_reason: [
    'MANUAL_PUSH_TO_TARGET_BRANCH',
    'PREREQUISITE_MERGE_ITEM_CANCELLED',
    'PREREQUISITE_MERGE_ITEM_FAILED',
    'PREREQUISITE_MERGE_ITEM_MANUALLY_MERGED',
    'MERGE_ITEM_NOW_READY',
    'TESTS_RESTARTED_BY_USER',
    'TESTS_RESTARTED_BY_API_REQUEST',
    'SKIP_THE_LINE_INTERRUPTED',
    'BISECTION_REQUIRED',
    'BISECTION_TEST_RUN_PASSED',
  ],
  failure_reason: [
    'START_TEST_RUN_INVALID_EVENT',
    'START_TEST_RUN_MERGE_CONFLICT',
    'START_TEST_RUN_CONFIG_NOT_FOUND',
    'START_TEST_RUN_CONFIG_PARSING_FAILURE',
    'START_TEST_RUN_CONFIG_MISSING_REQUIRED_STATUSES',
    'START_TEST_RUN_CONFIG_BAD_REQUIRED_STATUSES',
    'START_TEST_RUN_CONFIG_BAD_VERSION',
    'START_TEST_RUN_NO_REQUIRED_STATUSES',
    'TEST_RUN_REQUIRED_STATUS_FAILED',
    'TEST_RUN_TIMEOUT',
    'GITHUB_API_MERGE_PR_FAILED',
    'GITHUB_API_DIRECT_MERGE_PR_FAILED',
    'PR_UPDATED_AT_MERGE_TIME',
    'START_TEST_RUN_RETRY_EXHAUSTED',
    'START_TEST_RUN_DRAFT_PRS_NOT_ALLOWED',
    'TEST_RUN_FAILED_BY_OPTIMIZATION',
  ],
  cancellation_reason: [
    'USER_REQUESTED',
    'PR_CLOSED',
    'PR_PUSHED_TO',
    'PR_BASE_BRANCH_CHANGED',
    'TRUNK_ADMIN_REQUESTED',
    'PR_CONVERTED_TO_DRAFT',
    'STACKED_PR_MEMBER_PUSHED_TO',
    'STACKED_PR_MEMBER_CLOSED',
    'STACKED_PR_MEMBER_MERGED',
    'STACKED_PR_MEMBER_BASE_BRANCH_CHANGED',
  ],
  merged_reason: ['MERGE_GRAPH_MERGE', 'MANUAL_MERGE', 'MERGE_GRAPH_DIRECT_MERGE'],
} as const;

/** The reason field an entry action carries (testing has none). */
export const REASON_FIELD_OF: Readonly<Record<EntryAction, keyof typeof REASON_FIELDS | undefined>> = {
  submitted: 'submitted_reason',
  queued: 'queued_reason',
  testing: undefined,
  pending_failure: 'failure_reason',
  failed: 'failure_reason',
  canceled: 'cancellation_reason',
  merged: 'merged_reason',
};
