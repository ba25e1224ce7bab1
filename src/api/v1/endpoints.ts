// The v1 API's contract, one row per operation, read by the client (client.ts) and the sandbox's v1 face (routes.ts).
// Schemas are named, not held: the client checks with the build's compiled checks (checks.ts) without loading zod.
import type * as z from 'zod';
import type { RateBucket } from '../v2/contract.js';
import type * as schemas from './schemas.js';

type SchemaName = { [K in keyof typeof schemas]: (typeof schemas)[K] extends z.ZodType ? K : never }[keyof typeof schemas];

/** The v1 API's path segment under the service's root. */
export const API_VERSION = 'v1';
/** The header v1's organization token travels in. */
export const TOKEN_HEADER = 'x-api-token';
/** v1's rate limit: the organization's (a repository owner's) requests a second, one bucket with its v2 requests. */
export const RATE_BUCKET = 'organization' satisfies RateBucket;
/** What a fork's upload sends instead of a token: its workflow run's id (see `forkUploads`). */
export const FORKED_RUN_HEADER = 'x-forked-workflow-run-id';

export interface Endpoint {
  method: 'GET' | 'POST';
  /** Under the API's base URL (`…/v1`). */
  path: string;
  /** The request body mq sends (or would: a row mq does not call has the one the service takes); none for a GET. */
  request?: SchemaName;
  /** The request body the service takes, where it takes more than mq sends (the sandbox checks this one). */
  served?: SchemaName;
  response: SchemaName;
  /** A read may be tried again; a write may not: v1 has no idempotency key, so it could apply twice. */
  retry: boolean;
  /** A read: the sandbox may keep its answer until the state changes, unless its route says the clock moves it too. */
  keep: boolean;
  /** Asked without the credential (`/status`): no token is sent, and none is checked. */
  anonymous?: boolean;
  /** A fork's upload may call it with a workflow run's id instead of a token (setImpactedTargets alone). */
  forkUploads?: boolean;
}

const read = <Q extends SchemaName, R extends SchemaName>(path: string, request: Q, response: R) =>
  ({ method: 'POST', path, request, response, retry: true, keep: true }) as const;
const write = <Q extends SchemaName>(path: string, request: Q) =>
  ({ method: 'POST', path, request, response: 'Acknowledgement', retry: false, keep: false }) as const;

export const ENDPOINTS = {
  submitPullRequest: { ...write('/submitPullRequest', 'SubmitPullRequestRequest'), served: 'ServedSubmitPullRequestRequest' },
  cancelPullRequest: write('/cancelPullRequest', 'PullRequestRequest'),
  restartTestsOnPullRequest: write('/restartTestsOnPullRequest', 'PullRequestRequest'),
  getSubmittedPullRequest: read('/getSubmittedPullRequest', 'GetSubmittedPullRequestRequest', 'SubmittedPullRequest'),
  getSubmittedPullRequests: {
    ...read('/getSubmittedPullRequests', 'GetSubmittedPullRequestsRequest', 'SubmittedPullRequests'),
    served: 'ServedGetSubmittedPullRequestsRequest',
  },
  listPullRequests: read('/listPullRequests', 'ListPullRequestsRequest', 'ListPullRequestsResponse'),
  listMergeQueueTestingResults: read('/listMergeQueueTestingResults', 'ListMergeQueueTestingResultsRequest', 'TestingResultsResponse'),
  getQueue: read('/getQueue', 'QueueRequest', 'Queue'),
  createQueue: write('/createQueue', 'CreateQueueRequest'),
  updateQueue: { ...write('/updateQueue', 'UpdateQueueRequest'), response: 'UpdateQueueResponse' },
  deleteQueue: write('/deleteQueue', 'QueueRequest'),
  setImpactedTargets: {
    ...write('/setImpactedTargets', 'SetImpactedTargetsRequest'),
    served: 'ServedSetImpactedTargetsRequest',
    forkUploads: true,
  },
  getMergeQueueTestingDetails: read('/getMergeQueueTestingDetails', 'GetMergeQueueTestingDetailsRequest', 'TestingDetails'),
  getTestDetails: read('/flaky-tests/get-test-details', 'GetTestDetailsRequest', 'TestDetailsResponse'),
  listQuarantinedTests: read('/flaky-tests/list-quarantined-tests', 'ListQuarantinedTestsRequest', 'ListQuarantinedTestsResponse'),
  listUnhealthyTests: read('/flaky-tests/list-unhealthy-tests', 'ListUnhealthyTestsRequest', 'ListUnhealthyTestsResponse'),
  listFailingTests: read('/flaky-tests/list-failing-tests', 'ListFailingTestsRequest', 'ListFailingTestsResponse'),
  linkTicketToTestCase: write('/flaky-tests/link-ticket-to-test-case', 'LinkTicketRequest'),
  /** The Prometheus exposition, for `repo` and `repoHost` in the query (none: every repository). A read whose
   * windows end now: the sandbox keeps no answer of it (its route says so), and it drops none it keeps. */
  getMergeQueueMetrics: { method: 'GET', path: '/getMergeQueueMetrics', response: 'Acknowledgement', retry: true, keep: true },
  /** The service's CLI login by device (RFC 8628, through WorkOS): no token. mq logs in with a token and calls neither;
   * the sandbox emulates them for clients that do. A poll changes the login (its pace, a session handed out once). */
  deviceAuthInitiate: {
    method: 'POST',
    path: '/device-auth/initiate',
    request: 'DeviceAuthInitiateRequest',
    response: 'DeviceAuthInitiateResponse',
    retry: false,
    keep: false,
    anonymous: true,
  },
  deviceAuthTokens: {
    method: 'POST',
    path: '/device-auth/tokens',
    request: 'DeviceAuthTokensRequest',
    response: 'DeviceAuthTokensResponse',
    retry: false,
    keep: false,
    anonymous: true,
  },
  /** Records a CI run for Flaky Tests ([alpha]); mq does not call it. */
  createCiRun: { ...write('/flaky-ci/create-ci-run', 'CreateCiRunRequest'), response: 'CreateCiRunResponse' },
  /** The service's own health. */
  status: { method: 'GET', path: '/status', response: 'ServiceStatus', retry: true, keep: true, anonymous: true },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;
export type PostName = { [N in EndpointName]: (typeof ENDPOINTS)[N] extends { request: string } ? N : never }[EndpointName];

/** The name of the schema of what the service takes as the body of `name`: `served` where it takes more than mq sends. */
export type ServedName<N extends PostName> = (typeof ENDPOINTS)[N] extends { served: infer S extends SchemaName } ? S : (typeof ENDPOINTS)[N]['request'];
export function servedName<N extends PostName>(name: N): ServedName<N> {
  const endpoint: Endpoint = ENDPOINTS[name];
  return (endpoint.served ?? endpoint.request) as ServedName<N>;
}
