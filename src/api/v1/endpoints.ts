// The v1 API's endpoints as data: the method, the path under the API's base URL, the schemas of the request and
// the answer (by name, src/api/v1/schemas.ts via checks.ts), and whether a failed try may be made again.
import type { SchemaName } from './checks.js';

export interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
  /** The request body's schema; none for a GET. */
  request?: SchemaName;
  response: SchemaName;
  /**
   * A read may be tried again after a 5xx, a 429 or a network failure. A write may not: v1 has no idempotency
   * key, so a second try could apply it twice.
   */
  retry: boolean;
  /** Sent without the credential: an endpoint that takes none need not see it. */
  anonymous?: boolean;
}

const read = <Q extends SchemaName, R extends SchemaName>(path: string, request: Q, response: R) => ({
  method: 'POST' as const,
  path,
  request,
  response,
  retry: true,
});
const write = <Q extends SchemaName, R extends SchemaName = 'Acknowledgement'>(path: string, request: Q, response?: R) => ({
  method: 'POST' as const,
  path,
  request,
  response: (response ?? 'Acknowledgement') as R,
  retry: false,
});

export const ENDPOINTS = {
  submitPullRequest: write('/submitPullRequest', 'SubmitPullRequestRequest'),
  cancelPullRequest: write('/cancelPullRequest', 'PullRequestRequest'),
  restartTestsOnPullRequest: write('/restartTestsOnPullRequest', 'PullRequestRequest'),
  getSubmittedPullRequest: read('/getSubmittedPullRequest', 'GetSubmittedPullRequestRequest', 'SubmittedPullRequest'),
  getSubmittedPullRequests: read('/getSubmittedPullRequests', 'GetSubmittedPullRequestsRequest', 'SubmittedPullRequests'),
  listPullRequests: read('/listPullRequests', 'ListPullRequestsRequest', 'ListPullRequestsResponse'),
  listMergeQueueTestingResults: read('/listMergeQueueTestingResults', 'ListMergeQueueTestingResultsRequest', 'TestingResultsResponse'),
  getQueue: read('/getQueue', 'QueueRequest', 'Queue'),
  createQueue: write('/createQueue', 'CreateQueueRequest'),
  updateQueue: write('/updateQueue', 'UpdateQueueRequest', 'UpdateQueueResponse'),
  deleteQueue: write('/deleteQueue', 'QueueRequest'),
  setImpactedTargets: write('/setImpactedTargets', 'SetImpactedTargetsRequest'),
  getMergeQueueTestingDetails: read('/getMergeQueueTestingDetails', 'GetMergeQueueTestingDetailsRequest', 'TestingDetails'),
  getTestDetails: read('/flaky-tests/get-test-details', 'GetTestDetailsRequest', 'TestDetailsResponse'),
  listQuarantinedTests: read('/flaky-tests/list-quarantined-tests', 'ListQuarantinedTestsRequest', 'ListQuarantinedTestsResponse'),
  listUnhealthyTests: read('/flaky-tests/list-unhealthy-tests', 'ListUnhealthyTestsRequest', 'ListUnhealthyTestsResponse'),
  listFailingTests: read('/flaky-tests/list-failing-tests', 'ListFailingTestsRequest', 'ListFailingTestsResponse'),
  linkTicketToTestCase: write('/flaky-tests/link-ticket-to-test-case', 'LinkTicketRequest'),
  /** The Prometheus exposition text, with `repo` and `repoHost` in the query (none: every repository). */
  getMergeQueueMetrics: { method: 'GET', path: '/getMergeQueueMetrics', response: 'Acknowledgement' as const, retry: true },
  /** The service's own health; it takes no token. */
  status: { method: 'GET', path: '/status', response: 'ServiceStatus' as const, retry: true, anonymous: true },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;
/** The endpoints that take a JSON body. */
export type PostName = { [N in EndpointName]: (typeof ENDPOINTS)[N] extends { request: SchemaName } ? N : never }[EndpointName];
