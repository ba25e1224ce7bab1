// The v1 API's contract: one row per operation, read by the client (client.ts) and by the sandbox's v1 face
// (src/sandbox/io/v1/routes.ts). A row gives the method, the path under the API's base URL, what a request must be
// and what an answer is (zod schemas, schemas.ts), and the rules a request goes by.
import type * as z from 'zod';
import * as schemas from './schemas.js';

/** The v1 API's path segment under the service's root. */
export const API_VERSION = 'v1';
/** The header v1's organization token travels in. */
export const TOKEN_HEADER = 'x-api-token';
/** What a fork's upload sends instead of a token: its workflow run's id (see `forkUploads`). */
export const FORKED_RUN_HEADER = 'x-forked-workflow-run-id';

export interface Endpoint {
  method: 'GET' | 'POST';
  /** Under the API's base URL (`…/v1`). */
  path: string;
  /** The request body mq sends; none for a GET. */
  request?: z.ZodType;
  /** The request body the service takes, where it takes more than mq sends (the sandbox checks this one). */
  served?: z.ZodType;
  response: z.ZodType;
  /**
   * A read may be tried again after a 5xx, a 429 or a network failure. A write may not: v1 has no idempotency
   * key, so a second try could apply it twice.
   */
  retry: boolean;
  /** Its answer depends on its body and the state alone: the sandbox may keep it until the state changes. */
  keep: boolean;
  /** Asked without the credential (`/status`): no token is sent, and none is checked. */
  anonymous?: boolean;
  /** A fork's upload may call it with a workflow run's id instead of a token (setImpactedTargets alone). */
  forkUploads?: boolean;
}

const read = <Q extends z.ZodType, R extends z.ZodType>(path: string, request: Q, response: R) =>
  ({ method: 'POST', path, request, response, retry: true, keep: true }) as const;
const write = <Q extends z.ZodType>(path: string, request: Q) =>
  ({ method: 'POST', path, request, response: schemas.Acknowledgement, retry: false, keep: false }) as const;

export const ENDPOINTS = {
  submitPullRequest: { ...write('/submitPullRequest', schemas.SubmitPullRequestRequest), served: schemas.ServedSubmitPullRequestRequest },
  cancelPullRequest: write('/cancelPullRequest', schemas.PullRequestRequest),
  restartTestsOnPullRequest: write('/restartTestsOnPullRequest', schemas.PullRequestRequest),
  getSubmittedPullRequest: read('/getSubmittedPullRequest', schemas.GetSubmittedPullRequestRequest, schemas.SubmittedPullRequest),
  getSubmittedPullRequests: read('/getSubmittedPullRequests', schemas.GetSubmittedPullRequestsRequest, schemas.SubmittedPullRequests),
  listPullRequests: read('/listPullRequests', schemas.ListPullRequestsRequest, schemas.ListPullRequestsResponse),
  listMergeQueueTestingResults: read('/listMergeQueueTestingResults', schemas.ListMergeQueueTestingResultsRequest, schemas.TestingResultsResponse),
  getQueue: read('/getQueue', schemas.QueueRequest, schemas.Queue),
  createQueue: write('/createQueue', schemas.CreateQueueRequest),
  updateQueue: { ...write('/updateQueue', schemas.UpdateQueueRequest), response: schemas.UpdateQueueResponse },
  deleteQueue: write('/deleteQueue', schemas.QueueRequest),
  setImpactedTargets: {
    ...write('/setImpactedTargets', schemas.SetImpactedTargetsRequest),
    served: schemas.ServedSetImpactedTargetsRequest,
    forkUploads: true,
  },
  getMergeQueueTestingDetails: read('/getMergeQueueTestingDetails', schemas.GetMergeQueueTestingDetailsRequest, schemas.TestingDetails),
  getTestDetails: read('/flaky-tests/get-test-details', schemas.GetTestDetailsRequest, schemas.TestDetailsResponse),
  listQuarantinedTests: read('/flaky-tests/list-quarantined-tests', schemas.ListQuarantinedTestsRequest, schemas.ListQuarantinedTestsResponse),
  listUnhealthyTests: read('/flaky-tests/list-unhealthy-tests', schemas.ListUnhealthyTestsRequest, schemas.ListUnhealthyTestsResponse),
  listFailingTests: read('/flaky-tests/list-failing-tests', schemas.ListFailingTestsRequest, schemas.ListFailingTestsResponse),
  linkTicketToTestCase: write('/flaky-tests/link-ticket-to-test-case', schemas.LinkTicketRequest),
  /**
   * The Prometheus exposition text, with `repo` and `repoHost` in the query (none: every repository). Not kept:
   * its question is in the query.
   */
  getMergeQueueMetrics: { method: 'GET', path: '/getMergeQueueMetrics', response: schemas.Acknowledgement, retry: true, keep: false },
  /** The service's own health. */
  status: { method: 'GET', path: '/status', response: schemas.ServiceStatus, retry: true, keep: true, anonymous: true },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;
/** The endpoints that take a JSON body. */
export type PostName = { [N in EndpointName]: (typeof ENDPOINTS)[N] extends { request: z.ZodType } ? N : never }[EndpointName];

/** What the service takes as the body of `name`: its `served` schema where it takes more than mq sends. */
export type ServedRequest<N extends PostName> = z.ZodType &
  ((typeof ENDPOINTS)[N] extends { served: infer S extends z.ZodType } ? S : (typeof ENDPOINTS)[N]['request']);
export function servedRequest<N extends PostName>(name: N): ServedRequest<N> {
  const endpoint: Endpoint = ENDPOINTS[name];
  return (endpoint.served ?? endpoint.request) as ServedRequest<N>;
}
