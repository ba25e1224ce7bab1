// What each of the 17 methods sends: method, path, headers and body, and that the published description
// accepts the body. Run against a real server (what reaches the wire) and undici's MockAgent (what undici is given).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MergeQueueClient } from '../../src/api/v1/client.js';
import type { QueueSettings } from '../../src/model/queue.js';
import { validateCurrentRequest, validateRequest } from '../support/openapi/validate.js';
import * as fixture from './fixtures.js';
import { clientFor, json, REPO, rejectionOf, startHttpService, startMockService, TOKEN, USER_AGENT, type FakeService, type Reply } from './harness.js';

interface Case {
  name: string;
  operation: string;
  call: (client: MergeQueueClient) => Promise<unknown>;
  /** The JSON body expected on the wire. */
  sent: Record<string, unknown>;
  /** A valid answer, for operations whose response is checked. */
  reply?: Reply;
}

const queueRef = { repo: REPO, targetBranch: 'main' };
const prRef = { ...queueRef, pr: { number: 42 } };
const SHA = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
const LAST_PAGE = { total_rows: 0, total_pages: 0, next_page_token: '', prev_page_token: '', last_page_token: '', page_index: 0 };
const CURSOR = '0c8a1f52-7d0e-4d1b-a0a4-5c1f1c9e2b77';
const allSettings: QueueSettings = {
  concurrency: 3,
  bisectionConcurrency: 2,
  testingTimeoutMinutes: 90,
  pendingFailureDepth: 2,
  canOptimisticallyMerge: true,
  batch: true,
  batchingMaxWaitTimeMinutes: 10,
  batchingMinSize: 4,
  mode: 'parallel',
  commentsEnabled: false,
  commandsEnabled: true,
  createPrsForTestingBranches: false,
  directMergeMode: 'always',
  optimizationMode: 'bisection_skip_redundant_tests',
  mergeMethod: 'rebase',
  statusCheckEnabled: true,
  requiredStatuses: ['build', 'lint'],
  deleteRequiredStatuses: false,
  // Beyond the published description, which lets further fields through.
  extensionEnabled: true,
  enqueueingLabel: 'merge',
  labelCommandsEnabled: false,
  stateLabelsEnabled: true,
};

const CASES: Case[] = [
  { name: 'submitPullRequest', operation: 'submitPullRequest', call: (c) => c.call('submitPullRequest', prRef), sent: prRef },
  {
    name: 'submitPullRequest with a named priority and noBatch',
    operation: 'submitPullRequest',
    call: (c) => c.call('submitPullRequest', { ...prRef, priority: 'urgent', noBatch: true }),
    sent: { ...prRef, priority: 'urgent', noBatch: true },
  },
  {
    name: 'submitPullRequest with a numeric priority',
    operation: 'submitPullRequest',
    call: (c) => c.call('submitPullRequest', { ...prRef, priority: 255 }),
    sent: { ...prRef, priority: 255 },
  },
  { name: 'cancelPullRequest', operation: 'cancelPullRequest', call: (c) => c.call('cancelPullRequest', prRef), sent: prRef },
  {
    name: 'restartTestsOnPullRequest',
    operation: 'restartTestsOnPullRequest',
    call: (c) => c.call('restartTestsOnPullRequest', prRef),
    sent: prRef,
  },
  {
    name: 'getSubmittedPullRequest by number',
    operation: 'getSubmittedPullRequest',
    call: (c) => c.call('getSubmittedPullRequest', prRef),
    sent: prRef,
    reply: json(fixture.submittedPullRequest()),
  },
  {
    name: 'getSubmittedPullRequest by head branch',
    operation: 'getSubmittedPullRequest',
    call: (c) => c.call('getSubmittedPullRequest', { ...queueRef, pr: { branch: 'feature/faster' } }),
    sent: { ...queueRef, pr: { branch: 'feature/faster' } },
    reply: json(fixture.submittedPullRequest()),
  },
  {
    name: 'listPullRequests',
    operation: 'listPullRequests',
    call: (c) => c.call('listPullRequests', queueRef),
    sent: queueRef,
    reply: json(fixture.pullRequestList()),
  },
  {
    name: 'listPullRequests with every filter',
    operation: 'listPullRequests',
    call: (c) => c.call('listPullRequests', { ...queueRef, state: 'merged', since: '2026-11-20T00:00:00Z', cursor: CURSOR, take: 100 }),
    sent: { ...queueRef, state: 'merged', since: '2026-11-20T00:00:00Z', cursor: CURSOR, take: 100 },
    reply: json(fixture.pullRequestList()),
  },
  { name: 'getQueue', operation: 'getQueue', call: (c) => c.call('getQueue', queueRef), sent: queueRef, reply: json(fixture.queue()) },
  { name: 'createQueue', operation: 'createQueue', call: (c) => c.call('createQueue', queueRef), sent: queueRef },
  {
    name: 'createQueue with mode and concurrency',
    operation: 'createQueue',
    call: (c) => c.call('createQueue', { ...queueRef, mode: 'parallel', concurrency: 4 }),
    sent: { ...queueRef, mode: 'parallel', concurrency: 4 },
  },
  {
    name: 'updateQueue with a state in upper case (sent in lower case)',
    operation: 'updateQueue',
    call: (c) => c.call('updateQueue', { ...queueRef, state: 'PAUSED' }),
    sent: { ...queueRef, state: 'paused' },
    reply: json(fixture.updatedQueue({ state: 'paused' })),
  },
  {
    name: 'updateQueue with every setting',
    operation: 'updateQueue',
    call: (c) => c.call('updateQueue', { ...queueRef, state: 'draining', ...allSettings }),
    sent: { ...queueRef, state: 'draining', ...allSettings },
    reply: json(fixture.updatedQueue()),
  },
  { name: 'deleteQueue', operation: 'deleteQueue', call: (c) => c.call('deleteQueue', queueRef), sent: queueRef },
  {
    name: 'setImpactedTargets with a list',
    operation: 'setImpactedTargets',
    call: (c) => c.call('setImpactedTargets', { ...queueRef, pr: { number: 42, sha: SHA }, impactedTargets: ['//a:lib', '//b:bin'] }),
    sent: { ...queueRef, pr: { number: 42, sha: SHA }, impactedTargets: ['//a:lib', '//b:bin'] },
  },
  {
    name: 'setImpactedTargets with ALL',
    operation: 'setImpactedTargets',
    call: (c) => c.call('setImpactedTargets', { ...queueRef, pr: { number: 42, sha: SHA }, impactedTargets: 'ALL' }),
    sent: { ...queueRef, pr: { number: 42, sha: SHA }, impactedTargets: 'ALL' },
  },
  {
    name: 'setImpactedTargets with an empty list',
    operation: 'setImpactedTargets',
    call: (c) => c.call('setImpactedTargets', { ...queueRef, pr: { number: 42, sha: SHA }, impactedTargets: [] }),
    sent: { ...queueRef, pr: { number: 42, sha: SHA }, impactedTargets: [] },
  },
  {
    name: 'getMergeQueueTestingDetails by testRunId',
    operation: 'getMergeQueueTestingDetails',
    call: (c) => c.call('getMergeQueueTestingDetails', { ...queueRef, testRunId: 'run-7' }),
    sent: { ...queueRef, testRunId: 'run-7' },
    reply: json(fixture.testingDetails()),
  },
  {
    name: 'getTestDetails',
    operation: 'flaky-tests/get-test-details',
    call: (c) => c.call('getTestDetails', { repo: REPO, org_url_slug: 'acme', test_id: fixture.TEST_ID }),
    sent: { repo: REPO, org_url_slug: 'acme', test_id: fixture.TEST_ID },
    reply: json(fixture.testDetails()),
  },
  {
    name: 'listQuarantinedTests, a later page',
    operation: 'flaky-tests/list-quarantined-tests',
    call: (c) => c.call('listQuarantinedTests', { repo: REPO, org_url_slug: 'acme', page_query: { page_size: 10, page_token: 'page-1' } }),
    sent: { repo: REPO, org_url_slug: 'acme', page_query: { page_size: 10, page_token: 'page-1' } },
    reply: json({ quarantined_tests: [], page: LAST_PAGE }),
  },
  {
    name: 'listUnhealthyTests, status in upper case',
    operation: 'flaky-tests/list-unhealthy-tests',
    call: (c) => c.call('listUnhealthyTests', { repo: REPO, org_url_slug: 'acme', status: 'broken', page_query: { page_size: 100 } }),
    sent: { repo: REPO, org_url_slug: 'acme', status: 'BROKEN', page_query: { page_size: 100 } },
    reply: json({ tests: [], page: LAST_PAGE }),
  },
  {
    name: 'listFailingTests',
    operation: 'flaky-tests/list-failing-tests',
    call: (c) =>
      c.call('listFailingTests', {
        repo: REPO,
        org_url_slug: 'acme',
        start_time: '2026-01-01T00:00:00.000Z',
        end_time: '2026-01-02T00:00:00.000Z',
        page_query: { page_size: 100 },
      }),
    sent: { repo: REPO, org_url_slug: 'acme', start_time: '2026-01-01T00:00:00.000Z', end_time: '2026-01-02T00:00:00.000Z', page_query: { page_size: 100 } },
    reply: json({ tests: [fixture.testDetails().test], page: LAST_PAGE }),
  },
  {
    name: 'linkTicketToTestCase',
    operation: 'flaky-tests/link-ticket-to-test-case',
    call: (c) => c.call('linkTicketToTestCase', { repo: REPO, test_case_id: fixture.TEST_ID, external_ticket_id: 'KAN-123' }),
    sent: { repo: REPO, test_case_id: fixture.TEST_ID, external_ticket_id: 'KAN-123' },
  },
];

describe.each([
  ['http server', startHttpService],
  ['MockAgent', startMockService],
] as const)('requests, seen by a %s', (_kind, start) => {
  let service: FakeService;
  beforeEach(async () => {
    service = await start();
  });
  afterEach(async () => {
    await service.close();
  });

  it('covers all 17 operations', () => {
    const covered = new Set([...CASES.map((c) => c.operation), 'getMergeQueueMetrics']);
    expect(covered.size).toBe(17);
  });

  it.each(CASES)('$name: POST /v1/<operation>, token, JSON, user agent, and the body', async ({ operation, call, sent, reply }) => {
    if (reply) service.reply(reply);
    await call(clientFor(service).client);

    expect(service.requests).toHaveLength(1);
    const [request] = service.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`/v1/${operation}`);
    expect(request?.headers['x-api-token']).toBe(TOKEN);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe(USER_AGENT);
    expect(JSON.parse(request?.body ?? '')).toEqual(sent);
  });

  it.each(CASES)('$name: the body sent is accepted by the published description', async ({ operation, call, reply }) => {
    if (reply) service.reply(reply);
    await call(clientFor(service).client);
    const body: unknown = JSON.parse(service.requests[0]?.body ?? '');
    expect(validateRequest(operation, body)).toEqual([]);
  });

  it('getMergeQueueMetrics: GET with the token and user agent, no body and no content type', async () => {
    service.reply({ status: 200, headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }, body: 'x 1\n' });
    await clientFor(service).client.getMergeQueueMetrics();

    const [request] = service.requests;
    expect(service.requests).toHaveLength(1);
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/v1/getMergeQueueMetrics');
    expect(request?.headers['x-api-token']).toBe(TOKEN);
    expect(request?.headers['user-agent']).toBe(USER_AGENT);
    expect(request?.headers).not.toHaveProperty('content-type');
    expect(request?.body).toBe('');
    expect(validateRequest('getMergeQueueMetrics', undefined)).toEqual([]);
  });

  it('sends the user agent it was given, not a fixed one', async () => {
    await clientFor(service, { userAgent: 'mq/9.8.7-test (linux)' }).client.call('deleteQueue', queueRef);
    expect(service.requests[0]?.headers['user-agent']).toBe('mq/9.8.7-test (linux)');
  });

  it('sends the token it was given', async () => {
    await clientFor(service, { token: 'another-token' }).client.call('deleteQueue', queueRef);
    expect(service.requests[0]?.headers['x-api-token']).toBe('another-token');
  });

  it('joins the paths to a base URL given with a trailing slash without doubling it', async () => {
    await clientFor({ ...service, apiUrl: `${service.apiUrl}/` }).client.call('deleteQueue', queueRef);
    expect(service.requests[0]?.url).toBe('/v1/deleteQueue');
  });

  it('does not send fields the request schema does not know', async () => {
    const withExtra = { ...prRef, surprise: 'x', pr: { number: 42, title: 'y' } } as unknown as typeof prRef;
    await clientFor(service).client.call('cancelPullRequest', withExtra);
    expect(JSON.parse(service.requests[0]?.body ?? '')).toEqual(prRef);
  });
});

describe('the documented differences from the published description', () => {
  let service: FakeService;
  beforeEach(async () => {
    service = await startHttpService();
  });
  afterEach(async () => {
    await service.close();
  });

  // 0 is the service's default and what its Terraform provider sends; the description says minimum 1.
  it('updateQueue pendingFailureDepth 0 is sent, though the description says minimum 1', async () => {
    service.reply(json(fixture.queue()));
    await clientFor(service).client.call('updateQueue', { ...queueRef, pendingFailureDepth: 0 });

    const body: unknown = JSON.parse(service.requests[0]?.body ?? '');
    expect(body).toEqual({ ...queueRef, pendingFailureDepth: 0 });
    expect(validateRequest('updateQueue', body)).toEqual(['body/pendingFailureDepth: must be >= 1']);
  });

  // 0 disables the timeout: v1 as served today takes it (openapi-v1-additions.json lowers the minimum to 0).
  it('updateQueue testingTimeoutMinutes 0 is sent, as v1 today takes it, though the description says minimum 1', async () => {
    service.reply(json(fixture.queue()));
    await clientFor(service).client.call('updateQueue', { ...queueRef, testingTimeoutMinutes: 0 });

    const body: unknown = JSON.parse(service.requests[0]?.body ?? '');
    expect(body).toEqual({ ...queueRef, testingTimeoutMinutes: 0 });
    expect(validateRequest('updateQueue', body)).toEqual(['body/testingTimeoutMinutes: must be >= 1']);
    expect(validateCurrentRequest('updateQueue', body)).toEqual([]);
  });

  // The published description requires pr.sha, and so does the schema: a body without it is never sent.
  it('setImpactedTargets without pr.sha is refused before anything is sent', async () => {
    const error = await rejectionOf(
      clientFor(service).client.call('setImpactedTargets', { ...queueRef, pr: { number: 42 } as never, impactedTargets: ['//a'] }),
    );
    expect(error.message).toMatch(/^invalid setImpactedTargets request: .*sha/);
    expect(service.requests).toEqual([]);
  });
});

describe('the dispatcher it is given', () => {
  it('is left open by close(): the caller owns it', async () => {
    const service = await startHttpService();
    try {
      await clientFor(service).client.close();
      await clientFor(service).client.call('deleteQueue', queueRef);
      expect(service.requests).toHaveLength(1);
    } finally {
      await service.close();
    }
  });
});
