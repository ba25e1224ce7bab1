// The v2 API as data, one row per operation named by its operationId, read by the client and the sandbox's face (docs/v2.md
// says what each rule means). Schemas are named, not held: the client checks answers without loading zod (checks.ts).
import type * as z from 'zod';
import type * as F from './flaky-schemas.js';
import type * as S from './schemas.js';

/** What a v2 key may do beyond reading: the sandbox's `--key KEY=PERMS` word, and the service app's words for it. */
export const PERMISSIONS = {
  submit: 'Merge and cancel PRs',
  priority: 'Set priority on PRs',
  'skip-batching': 'Skip batching',
  direct: 'Merge PRs with direct to queue',
  settings: 'Update Merge Queue settings',
} as const;
export type V2Permission = keyof typeof PERMISSIONS;
export const V2_PERMISSIONS = Object.keys(PERMISSIONS) as readonly V2Permission[];

/** A key's permissions as a seed or the library gives them (checked before): `all`, alone or in the list, is every one. */
export function grantedPermissions(given: 'all' | readonly string[] | undefined): V2Permission[] {
  if (given === undefined) return [];
  return given === 'all' || given.includes('all') ? [...V2_PERMISSIONS] : [...(given as readonly V2Permission[])];
}

/** The service's rate limits a second: per organization; per key for `/v2/pull-requests…` reads; the metrics reads. */
export const RATE_LIMITS = { organization: 100, pullRequestReads: 5, metrics: 5 } as const;
export type RateBucket = keyof typeof RATE_LIMITS;

type Body = Readonly<Record<string, unknown>> | undefined;
type Schemas = typeof S & typeof F;
/** The schemas of schemas.ts and flaky-schemas.ts, by name. */
export type SchemaName = { [K in keyof Schemas]: Schemas[K] extends z.ZodType ? K : never }[keyof Schemas];

export interface V2Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** `/v2/merge-queues/{id}/pause`: ids go in the path. */
  path: string;
  /** The schema of the JSON body it takes (none: a body sent is ignored). */
  body?: SchemaName;
  /** The schema of the query it reads (none: a query sent is ignored). */
  query?: SchemaName;
  /** The schema of its 2xx answer's JSON (checks.ts); none for an answer in text (the metrics) or with no body. */
  answer?: SchemaName;
  /** The permissions a request needs beyond reading, judged by the keys its body sends. */
  needs?: (body: Body) => V2Permission[];
  bucket: RateBucket;
  /** A read may be tried again; a write may not: v2 honours no idempotency key, so it could apply twice. */
  retry: boolean;
  /** Its answer depends on the state alone (not the clock, nor the caller): the sandbox may keep it until a change. */
  keep: boolean;
}

type Extra = Partial<Omit<V2Operation, 'method' | 'path' | 'retry'>>;

/** The row's defaults, then what `extra` says (a spread's type, not an intersection). */
type RowOf<D, E> = Omit<D, keyof E> & E;
const row = <M extends V2Operation['method'], E extends Extra>(method: M, path: string, extra: E) =>
  ({ bucket: 'organization', keep: false, ...extra, method, path, retry: method === 'GET' }) as RowOf<{ bucket: 'organization'; keep: false }, E> & {
    method: M;
    path: string;
    retry: M extends 'GET' ? true : false;
  };
const read = <const E extends Extra>(path: string, extra: E) => row('GET', path, extra);
const write = <const M extends Exclude<V2Operation['method'], 'GET'>, const E extends Extra>(method: M, path: string, extra: E) => row(method, path, extra);

/** Whether the body sends `key` (with this value, when one is given). */
function sends(body: Body, key: string, value?: unknown): boolean {
  if (body === undefined || !Object.hasOwn(body, key) || body[key] === undefined) return false;
  return value === undefined || body[key] === value;
}

const SETTINGS = (): V2Permission[] => ['settings'];
const SUBMIT = (): V2Permission[] => ['submit'];
const PR_READS = { bucket: 'pullRequestReads' } as const;
const KEEP = { keep: true } as const;

export const V2_OPERATIONS = {
  'repositories.resolveByProviderUrl': read('/v2/repositories', { query: 'ResolveRepositoryQuery', answer: 'RepositoryList' }),
  'repositories.get': read('/v2/repositories/{id}', { answer: 'Repository', ...KEEP }),
  'mergeQueues.list': read('/v2/merge-queues', { query: 'ListMergeQueuesQuery', answer: 'MergeQueueList', ...KEEP }),
  'mergeQueues.create': write('POST', '/v2/merge-queues', { body: 'CreateMergeQueueRequest', answer: 'MergeQueue', needs: SETTINGS }),
  'mergeQueues.organizationMetrics': read('/v2/merge-queues/metrics', { query: 'OrganizationMetricsQuery', bucket: 'metrics' }),
  'mergeQueues.get': read('/v2/merge-queues/{id}', { answer: 'MergeQueue', ...KEEP }),
  'mergeQueues.delete': write('DELETE', '/v2/merge-queues/{id}', { needs: SETTINGS }),
  'mergeQueues.pause': write('POST', '/v2/merge-queues/{id}/pause', { answer: 'MergeQueueStateChange', needs: SETTINGS }),
  'mergeQueues.resume': write('POST', '/v2/merge-queues/{id}/resume', { answer: 'MergeQueueStateChange', needs: SETTINGS }),
  'mergeQueues.drain': write('POST', '/v2/merge-queues/{id}/drain', { answer: 'MergeQueueStateChange', needs: SETTINGS }),
  'mergeQueues.updateConfig': write('PATCH', '/v2/merge-queues/{id}/config', { body: 'UpdateMergeQueueConfigRequest', answer: 'MergeQueue', needs: SETTINGS }),
  'mergeQueues.metrics': read('/v2/merge-queues/{id}/metrics', { bucket: 'metrics' }),
  'mergeQueues.listTestingResults': read('/v2/merge-queues/{id}/testing-results', { query: 'ListTestingResultsQuery', answer: 'TestingResultList' }),
  'mergeQueues.submitPullRequest': write('POST', '/v2/merge-queues/{id}/pull-requests', {
    body: 'SubmitPullRequestRequest',
    answer: 'PullRequest',
    needs: (body) => [
      'submit',
      ...(sends(body, 'priorityValue') || sends(body, 'priorityName') ? (['priority'] as const) : []),
      ...(sends(body, 'allowBatching', false) ? (['skip-batching'] as const) : []),
      ...(sends(body, 'direct', true) ? (['direct'] as const) : []),
    ],
  }),
  'mergeQueues.listPullRequests': read('/v2/merge-queues/{id}/pull-requests', { query: 'ListQueuePullRequestsQuery', answer: 'PullRequestList', ...KEEP }),
  'pullRequests.resolveByCoordinates': read('/v2/pull-requests', { query: 'ResolvePullRequestsQuery', answer: 'PullRequestList', ...PR_READS, ...KEEP }),
  'pullRequests.get': read('/v2/pull-requests/{id}', { answer: 'PullRequest', ...PR_READS, ...KEEP }),
  'pullRequests.queueEntryEstimate': read('/v2/pull-requests/{id}/queue-entry-estimate', { answer: 'QueueEntryEstimate', ...PR_READS }),
  'pullRequests.dequeue': write('POST', '/v2/pull-requests/{id}/dequeue', { answer: 'PullRequest', needs: SUBMIT }),
  'pullRequests.restartTests': write('POST', '/v2/pull-requests/{id}/restart-tests', { answer: 'PullRequest', needs: SUBMIT }),
  'mergeQueueVerificationRuns.get': read('/v2/merge-queue-verification-runs/{id}', { answer: 'VerificationRun', ...KEEP }),
  'impactedTargets.upload': write('PUT', '/v2/impacted-targets', { body: 'UploadImpactedTargetsRequest', needs: SUBMIT }),
  'mergeQueues.order': read('/v2/merge-queues/{id}/order', { answer: 'MergeQueueOrder', ...KEEP }),
  'mergeQueues.graph': read('/v2/merge-queues/{id}/graph', { query: 'GraphQuery', answer: 'MergeGraph', ...KEEP }),
  'mergeQueues.listVerificationRuns': read('/v2/merge-queues/{id}/verification-runs', { query: 'QueueRunsQuery', answer: 'VerificationRunList', ...KEEP }),
  'pullRequests.listVerificationRuns': read('/v2/pull-requests/{id}/verification-runs', {
    query: 'PullRequestRunsQuery',
    answer: 'VerificationRunList',
    ...PR_READS,
    ...KEEP,
  }),
  'pullRequests.queueEntryHistory': read('/v2/pull-requests/{id}/queue-entry-history', {
    query: 'HistoryQuery',
    answer: 'QueueEntryHistoryList',
    ...PR_READS,
    ...KEEP,
  }),
  'pullRequests.queueEntryHistoryBatch': read('/v2/queue-entry-history', { query: 'BatchHistoryQuery', answer: 'BatchQueueEntryHistoryList', ...KEEP }),
  'mergeQueues.switchModes': write('POST', '/v2/merge-queues/{id}/switch-modes', {
    body: 'SwitchModesRequest',
    answer: 'MergeQueueStateChange',
    needs: SETTINGS,
  }),
  'pullRequests.reprioritize': write('POST', '/v2/pull-requests/{id}/reprioritize', {
    body: 'ReprioritizeRequest',
    answer: 'PullRequest',
    needs: () => ['priority'],
  }),
  'pullRequests.updateQueueEntry': write('PATCH', '/v2/pull-requests/{id}/queue-entry', {
    body: 'UpdateQueueEntryRequest',
    answer: 'PullRequest',
    // By the keys sent: allowBatching at all, whichever value; direct at all, true or false.
    needs: (body) => [
      ...(sends(body, 'priorityValue') || sends(body, 'priorityName') ? (['priority'] as const) : []),
      ...(sends(body, 'allowBatching') ? (['skip-batching'] as const) : []),
      ...(sends(body, 'direct') ? (['direct'] as const) : []),
    ],
  }),
  // Flaky Tests (docs/v2.md): any key may call them, writes included; the organization's bucket alone.
  'testCollections.list': read('/v2/test-collections', { query: 'ListTestCollectionsQuery', answer: 'TestCollectionList', ...KEEP }),
  'testCollections.create': write('POST', '/v2/test-collections', { body: 'CreateTestCollectionRequest', answer: 'TestCollection' }),
  'testCollections.get': read('/v2/test-collections/{id}', { answer: 'TestCollection', ...KEEP }),
  'tests.list': read('/v2/tests', { query: 'ListTestsQuery', answer: 'TestList' }),
  'tests.get': read('/v2/tests/{testId}', { query: 'GetTestQuery', answer: 'Test' }),
  'tests.listStatusHistory': read('/v2/tests/{testId}/status-history', { query: 'StatusHistoryQuery', answer: 'StatusHistoryEntryList', ...KEEP }),
  'tests.listTestRuns': read('/v2/tests/{testId}/test-runs', { query: 'TestRunsQuery', answer: 'TestRunList', ...KEEP }),
  'tests.linkTicket': write('POST', '/v2/tests/{testId}/ticket', { body: 'LinkTicketRequest', answer: 'Ticket' }),
};

export type V2OperationName = keyof typeof V2_OPERATIONS;
/** Each row is an operation (checked here rather than by `satisfies`, which would type the rows' helpers from it). */
V2_OPERATIONS satisfies Record<V2OperationName, V2Operation>;
type Row<N extends V2OperationName> = (typeof V2_OPERATIONS)[N];
/** The checked body of an operation, as its handler (or the client) holds it. */
export type BodyOf<N extends V2OperationName> = Row<N> extends { body: infer B extends SchemaName } ? z.output<Schemas[B]> : undefined;
export type QueryOf<N extends V2OperationName> = Row<N> extends { query: infer Q extends SchemaName } ? z.output<Schemas[Q]> : undefined;
/** The schemas the rows' answers name (checks.ts checks them). */
export type AnswerName = { [N in V2OperationName]: Row<N> extends { answer: infer A extends SchemaName } ? A : never }[V2OperationName];
export type AnswerOf<N extends V2OperationName> = Row<N> extends { answer: infer A extends SchemaName } ? z.output<Schemas[A]> : undefined;

/** The permissions a request to `name` with this body needs. */
export function needsOf(name: V2OperationName, body: unknown): V2Permission[] {
  const row: V2Operation = V2_OPERATIONS[name];
  return row.needs?.(typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : undefined) ?? [];
}

/** The path with its `{name}` parts filled, each encoded as one path segment. */
export function fillPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
