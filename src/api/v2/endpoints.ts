// The v2 API's endpoints as data: the method, the path template (ids in the path, api/v2 NOTES §3), the rate-limit
// bucket the service counts it in (§9), and whether a failed try may be made again. Named by the description's
// operationId, so a request in a trace reads as the description names it.
import type { BudgetKind } from '../budget.js';

export interface V2Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** `/v2/merge-queues/{id}/pause`: `{id}` filled from the call's params. */
  path: string;
  /**
   * A read may be tried again after a 5xx, a 429 or a network failure. A write may not: v2 honours no
   * idempotency key (§7), so a second try could apply it twice; a 429 on a write is the transport's to pace.
   */
  retry: boolean;
  /** Which of the process's budgets a request spends: PR reads have a bucket of their own on v2. */
  budget?: BudgetKind;
}

const read = (path: string, budget?: BudgetKind): V2Endpoint => ({ method: 'GET', path, retry: true, ...(budget && { budget }) });
const write = (method: V2Endpoint['method'], path: string): V2Endpoint => ({ method, path, retry: false });

export const V2_ENDPOINTS = {
  'mergeQueues.list': read('/v2/merge-queues'),
  'mergeQueues.create': write('POST', '/v2/merge-queues'),
  'mergeQueues.organizationMetrics': read('/v2/merge-queues/metrics'),
  'mergeQueues.metrics': read('/v2/merge-queues/{id}/metrics'),
  'mergeQueues.get': read('/v2/merge-queues/{id}'),
  'mergeQueues.delete': write('DELETE', '/v2/merge-queues/{id}'),
  'mergeQueues.order': read('/v2/merge-queues/{id}/order'),
  'mergeQueues.graph': read('/v2/merge-queues/{id}/graph'),
  'mergeQueues.listTestingResults': read('/v2/merge-queues/{id}/testing-results'),
  'mergeQueues.submitPullRequest': write('POST', '/v2/merge-queues/{id}/pull-requests'),
  'mergeQueues.listPullRequests': read('/v2/merge-queues/{id}/pull-requests'),
  'mergeQueues.pause': write('POST', '/v2/merge-queues/{id}/pause'),
  'mergeQueues.resume': write('POST', '/v2/merge-queues/{id}/resume'),
  'mergeQueues.drain': write('POST', '/v2/merge-queues/{id}/drain'),
  'mergeQueues.switchModes': write('POST', '/v2/merge-queues/{id}/switch-modes'),
  'mergeQueues.updateConfig': write('PATCH', '/v2/merge-queues/{id}/config'),
  'mergeQueues.listVerificationRuns': read('/v2/merge-queues/{id}/verification-runs'),
  'impactedTargets.upload': write('PUT', '/v2/impacted-targets'),
  'mergeQueueVerificationRuns.get': read('/v2/merge-queue-verification-runs/{id}'),
  'pullRequests.listVerificationRuns': read('/v2/pull-requests/{id}/verification-runs', 'pullRequestRead'),
  'pullRequests.queueEntryHistory': read('/v2/pull-requests/{id}/queue-entry-history', 'pullRequestRead'),
  'pullRequests.queueEntryHistoryBatch': read('/v2/queue-entry-history'),
  'pullRequests.resolveByCoordinates': read('/v2/pull-requests', 'pullRequestRead'),
  'pullRequests.get': read('/v2/pull-requests/{id}', 'pullRequestRead'),
  'pullRequests.queueEntryEstimate': read('/v2/pull-requests/{id}/queue-entry-estimate', 'pullRequestRead'),
  'pullRequests.reprioritize': write('POST', '/v2/pull-requests/{id}/reprioritize'),
  'pullRequests.updateQueueEntry': write('PATCH', '/v2/pull-requests/{id}/queue-entry'),
  'pullRequests.dequeue': write('POST', '/v2/pull-requests/{id}/dequeue'),
  'pullRequests.restartTests': write('POST', '/v2/pull-requests/{id}/restart-tests'),
  'repositories.resolveByProviderUrl': read('/v2/repositories'),
  'repositories.get': read('/v2/repositories/{id}'),
} as const satisfies Record<string, V2Endpoint>;

export type V2EndpointName = keyof typeof V2_ENDPOINTS;

/** The path with its `{name}` parts filled, each encoded as one path segment. */
export function fillPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
