// Every one of the 31 operations, as one table: each refuses a request without a credential (401
// AUTHENTICATION_REQUIRED) and with a key the sandbox does not take (401 INVALID_TOKEN), with the envelope, before
// it looks at anything else; each list refuses a cursor it did not mint (400 INVALID_CURSOR); a PR id that is not
// a UUID is 400 VALIDATION_FAILED. The requests are otherwise ones the description accepts, so that the credential
// (or the cursor) is the only thing wrong with them. Run with MQ_V2_COVERAGE=<file> to list what was answered.
import { describe, expect, it } from 'vitest';
import { useV2Sandbox, type V2Call } from '../../support/v2.js';

const fixture = useV2Sandbox();

const PR = '00000000-0000-4000-8000-000000000001';
const REPOSITORY = '00000000-0000-4000-8000-000000000002';
const QUEUE = 'AbCd1234';
const SINCE = '2026-01-01T00:00:00.000Z';

/** A request each operation's description accepts, by operationId. */
const REQUESTS: Record<string, V2Call> = {
  'mergeQueues.list': {},
  'mergeQueues.create': { body: { repositoryId: REPOSITORY, targetBranch: 'main' } },
  'mergeQueues.organizationMetrics': {},
  'mergeQueues.metrics': { params: { id: QUEUE } },
  'mergeQueues.get': { params: { id: QUEUE } },
  'mergeQueues.delete': { params: { id: QUEUE } },
  'mergeQueues.order': { params: { id: QUEUE } },
  'mergeQueues.graph': { params: { id: QUEUE } },
  'mergeQueues.listTestingResults': { params: { id: QUEUE }, query: { since: SINCE } },
  'mergeQueues.submitPullRequest': { params: { id: QUEUE }, body: { number: 1 } },
  'mergeQueues.listPullRequests': { params: { id: QUEUE } },
  'mergeQueues.pause': { params: { id: QUEUE } },
  'mergeQueues.resume': { params: { id: QUEUE } },
  'mergeQueues.drain': { params: { id: QUEUE } },
  'mergeQueues.switchModes': { params: { id: QUEUE }, body: { mode: 'graph' } },
  'mergeQueues.updateConfig': { params: { id: QUEUE }, body: { concurrency: 2 } },
  'mergeQueues.listVerificationRuns': { params: { id: QUEUE } },
  'impactedTargets.upload': { body: { repositoryId: REPOSITORY, targetBranch: 'main', sha: 'abc123', number: 1, impactedTargets: [] } },
  'mergeQueueVerificationRuns.get': { params: { id: 'run-1' } },
  'pullRequests.listVerificationRuns': { params: { id: PR } },
  'pullRequests.queueEntryHistory': { params: { id: PR } },
  'pullRequests.queueEntryHistoryBatch': { query: { pullRequestIds: PR } },
  'pullRequests.resolveByCoordinates': { query: { repositoryId: REPOSITORY, number: 1 } },
  'pullRequests.get': { params: { id: PR } },
  'pullRequests.queueEntryEstimate': { params: { id: PR } },
  'pullRequests.reprioritize': { params: { id: PR }, body: { priorityName: 'high' } },
  'pullRequests.updateQueueEntry': { params: { id: PR }, body: { priorityName: 'high' } },
  'pullRequests.dequeue': { params: { id: PR } },
  'pullRequests.restartTests': { params: { id: PR } },
  'repositories.resolveByProviderUrl': { query: { providerUrl: 'https://github.com/acme/widgets' } },
  'repositories.get': { params: { id: REPOSITORY } },
};

/** The lists that take a cursor, with a request each accepts. */
const LISTS = [
  'mergeQueues.list',
  'mergeQueues.listTestingResults',
  'mergeQueues.listPullRequests',
  'mergeQueues.listVerificationRuns',
  'pullRequests.listVerificationRuns',
  'pullRequests.queueEntryHistory',
  'pullRequests.queueEntryHistoryBatch',
  'pullRequests.resolveByCoordinates',
  'repositories.resolveByProviderUrl',
];

describe('every operation', () => {
  it('has a request in the table: all 31', () => {
    expect(Object.keys(REQUESTS)).toHaveLength(31);
  });

  it.each(Object.keys(REQUESTS))('%s: 401 AUTHENTICATION_REQUIRED without a credential, 401 INVALID_TOKEN with a key not taken', async (operationId) => {
    const none = await fixture.call(operationId, { ...REQUESTS[operationId], key: null });
    expect([none.status, none.body?.error?.code]).toEqual([401, 'AUTHENTICATION_REQUIRED']);
    const wrong = await fixture.call(operationId, { ...REQUESTS[operationId], key: 'not-a-v2-key' });
    expect([wrong.status, wrong.body?.error?.code]).toEqual([401, 'INVALID_TOKEN']);
  });
});

describe('lists', () => {
  it.each(LISTS)('%s: 400 INVALID_CURSOR for a cursor it never minted', async (operationId) => {
    // A queue and a PR that exist, so that the cursor is the only thing refused.
    const repositories = await fixture.call('repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } });
    const repositoryId = repositories.body.data[0].id as string;
    const queue = await fixture.call('mergeQueues.create', { body: { repositoryId, targetBranch: 'main' } });
    const pr = await fixture.call('mergeQueues.submitPullRequest', { params: { id: queue.body.id }, body: { number: 1 } });
    const request = REQUESTS[operationId]!;
    const live = {
      ...request,
      ...(request.params && { params: { id: request.params.id === QUEUE ? queue.body.id : pr.body.id } }),
      ...(request.query && {
        query: Object.fromEntries(
          Object.entries(request.query).map(([name, value]) => [name, value === REPOSITORY ? repositoryId : value === PR ? pr.body.id : value]),
        ),
      }),
    };
    const answer = await fixture.call(operationId, { ...live, query: { ...live.query, cursor: 'bm90LWEtY3Vyc29y' } });
    expect([answer.status, answer.body?.error?.code]).toEqual([400, 'INVALID_CURSOR']);
  });
});

describe('PR ids', () => {
  it.each(['pullRequests.dequeue', 'pullRequests.restartTests', 'pullRequests.get'])(
    '%s: 400 VALIDATION_FAILED for an id that is not a UUID',
    async (operationId) => {
      const answer = await fixture.call(operationId, { params: { id: 'not-a-uuid' }, invalid: true });
      expect([answer.status, answer.body?.error?.code]).toEqual([400, 'VALIDATION_FAILED']);
    },
  );
});
