// What the client makes of a 2xx answer: the documented shape passes (extra fields too), states arrive in lower
// case, and a body that is not the documented shape is a ResponseError naming the field.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MergeQueueClient } from '../../src/api/v1/client.js';
import { exitCodeOf, MqError, ResponseError } from '../../src/errors.js';
import * as fixture from './fixtures.js';
import { clientFor, json, rejectionOf, REPO, startHttpService, startMockService, type FakeService } from './harness.js';

const queueRef = { repo: REPO, targetBranch: 'main' };
const prRef = { ...queueRef, pr: { number: 42 } };

describe.each([
  ['http server', startHttpService],
  ['MockAgent', startMockService],
] as const)('responses, from a %s', (_kind, start) => {
  let service: FakeService;
  let client: MergeQueueClient;
  beforeEach(async () => {
    service = await start();
    client = clientFor(service).client;
  });
  afterEach(async () => {
    await service.close();
  });

  describe('the documented shape', () => {
    it.each([
      ['getQueue', fixture.queue(), (c: MergeQueueClient) => c.call('getQueue', queueRef)],
      ['getSubmittedPullRequest', fixture.submittedPullRequest(), (c: MergeQueueClient) => c.call('getSubmittedPullRequest', prRef)],
      ['listPullRequests', fixture.pullRequestList(), (c: MergeQueueClient) => c.call('listPullRequests', queueRef)],
      ['updateQueue', fixture.updatedQueue(), (c: MergeQueueClient) => c.call('updateQueue', { ...queueRef, batch: true })],
      [
        'getMergeQueueTestingDetails',
        fixture.testingDetails(),
        (c: MergeQueueClient) => c.call('getMergeQueueTestingDetails', { ...queueRef, testRunId: 'run-7' }),
      ],
      [
        'getTestDetails',
        fixture.testDetails(),
        (c: MergeQueueClient) => c.call('getTestDetails', { repo: REPO, org_url_slug: 'acme', test_id: fixture.TEST_ID }),
      ],
    ])('%s returns the body as the service sent it', async (_name, body, call) => {
      service.reply(json(body));
      await expect(call(client)).resolves.toEqual(body);
    });

    it('lets fields the schema does not know pass through, at every level', async () => {
      const body = fixture.queue({
        futureSetting: { nested: [1, 2] },
        enqueuedPullRequests: [fixture.enqueuedPullRequest({ reviewers: ['a'], state: 'pending' })],
      });
      service.reply(json(body));
      const queue = await client.call('getQueue', queueRef);
      expect(queue).toMatchObject({ futureSetting: { nested: [1, 2] } });
      expect(queue.enqueuedPullRequests[0]).toMatchObject({ reviewers: ['a'], prNumber: 42 });
    });

    it('keeps unknown fields of a submitted pull request and its readiness', async () => {
      const body = fixture.submittedPullRequest({
        mergedAt: null,
        readiness: { requiresImpactedTargets: false, doesBaseBranchMatch: true, isDraft: false },
      });
      service.reply(json(body));
      const pr = await client.call('getSubmittedPullRequest', prRef);
      expect(pr).toMatchObject({ mergedAt: null, readiness: { isDraft: false } });
    });

    it('accepts a pull request without the optional id, state and readiness', async () => {
      const { id: _id, state: _state, readiness: _readiness, usedDefaultPriorityName: _u, ...bare } = fixture.submittedPullRequest();
      service.reply(json(bare));
      await expect(client.call('getSubmittedPullRequest', prRef)).resolves.toEqual(bare);
    });

    it('accepts an updateQueue answer without the enqueued pull requests', async () => {
      service.reply(json(fixture.updatedQueue({ state: 'draining' })));
      const queue = await client.call('updateQueue', { ...queueRef, state: 'draining' });
      expect(queue?.state).toBe('draining');
      expect(queue).toBeDefined();
      expect(queue?.enqueuedPullRequests).toBeUndefined();
    });
  });

  describe('states in upper case arrive in lower case', () => {
    it('a pull request state: TESTING → testing', async () => {
      service.reply(json(fixture.submittedPullRequest({ state: 'TESTING' })));
      const pr = await client.call('getSubmittedPullRequest', prRef);
      expect(pr.state).toBe('testing');
    });

    it('the queue state, the states of its pull requests and its enums', async () => {
      service.reply(
        json(
          fixture.queue({
            state: 'PAUSED',
            mode: 'PARALLEL',
            mergeMethod: 'MERGE_COMMIT',
            enqueuedPullRequests: [fixture.enqueuedPullRequest({ state: 'PENDING_FAILURE' }), fixture.enqueuedPullRequest({ state: 'Not_Ready' })],
          }),
        ),
      );
      const queue = await client.call('getQueue', queueRef);
      expect(queue.state).toBe('paused');
      expect(queue.mode).toBe('parallel');
      expect(queue.mergeMethod).toBe('merge_commit');
      expect(queue.enqueuedPullRequests.map((pr) => pr.state)).toEqual(['pending_failure', 'not_ready']);
    });

    it('SWITCHING_MODES from updateQueue', async () => {
      service.reply(json(fixture.updatedQueue({ state: 'SWITCHING_MODES' })));
      const queue = await client.call('updateQueue', { ...queueRef, mode: 'parallel' });
      expect(queue?.state).toBe('switching_modes');
    });

    it('listed pull requests, readiness mergeability, a test run status', async () => {
      service.reply(
        json(fixture.pullRequestList({ pullRequests: [fixture.enqueuedPullRequest({ state: 'MERGED' })] })),
        json(
          fixture.submittedPullRequest({
            readiness: { requiresImpactedTargets: false, doesBaseBranchMatch: true, gitHubMergeability: 'NOT_MERGEABLE' },
          }),
        ),
        json(fixture.testingDetails({ status: 'IN_PROGRESS' })),
      );
      const list = await client.call('listPullRequests', queueRef);
      const pr = await client.call('getSubmittedPullRequest', prRef);
      const run = await client.call('getMergeQueueTestingDetails', { ...queueRef, testRunId: 'run-7' });
      expect(list.pullRequests[0]?.state).toBe('merged');
      expect(pr.readiness?.gitHubMergeability).toBe('not_mergeable');
      expect(run.status).toBe('in_progress');
    });
  });

  describe('a body that is not the documented shape', () => {
    it('names the missing field with its path: enqueuedPullRequests[0].prNumber', async () => {
      const { prNumber: _, ...withoutNumber } = fixture.enqueuedPullRequest();
      service.reply(json(fixture.queue({ enqueuedPullRequests: [withoutNumber] })));
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(error).toBeInstanceOf(ResponseError);
      expect(error.message).toContain('getQueue');
      expect(error.message).toContain('enqueuedPullRequests[0].prNumber: missing');
    });

    it('names a missing field deeper in the list: pullRequests[1].prSha', async () => {
      const { prSha: _, ...withoutSha } = fixture.enqueuedPullRequest();
      service.reply(json(fixture.pullRequestList({ pullRequests: [fixture.enqueuedPullRequest(), withoutSha] })));
      const error = await rejectionOf(client.call('listPullRequests', queueRef));
      expect(error).toBeInstanceOf(ResponseError);
      expect(error.message).toContain('pullRequests[1].prSha: missing');
    });

    it('names a missing top-level field: test.quarantined', async () => {
      const body = fixture.testDetails();
      const { quarantined: _, ...test } = body.test;
      service.reply(json({ test }));
      const error = await rejectionOf(client.call('getTestDetails', { repo: REPO, org_url_slug: 'acme', test_id: fixture.TEST_ID }));
      expect(error.message).toContain('test.quarantined: missing');
    });

    it('names a field of the wrong type', async () => {
      service.reply(json(fixture.queue({ concurrency: '2' })));
      const wrongType = await rejectionOf(client.call('getQueue', queueRef));
      expect(wrongType).toBeInstanceOf(ResponseError);
      expect(wrongType.message).toMatch(/(^|\W)concurrency: /);
    });

    // The service's rule: a client accepts fields and values it does not know.
    it('takes states and enum values it does not know as they came, known ones in lower case', async () => {
      service.reply(
        json(fixture.submittedPullRequest({ state: 'Exploded' })),
        json(fixture.queue({ state: 'FROZEN', mode: 'PARALLEL', mergeMethod: 'fast_forward', requiredStatuses: null, somethingNew: { x: 1 } })),
      );
      expect((await client.call('getSubmittedPullRequest', prRef)).state).toBe('Exploded');
      const queue = await client.call('getQueue', queueRef);
      expect(queue).toMatchObject({ state: 'FROZEN', mode: 'parallel', mergeMethod: 'fast_forward', requiredStatuses: null, somethingNew: { x: 1 } });
    });

    it('is exit code 6 (the service is not usable), with the stable code bad_response', async () => {
      service.reply(json({}));
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(error).toBeInstanceOf(MqError);
      expect((error as MqError).code).toBe('bad_response');
      expect(exitCodeOf(error)).toBe(6);
    });

    it('a 200 body that is not JSON is a ResponseError quoting what came, when it is a short text', async () => {
      service.reply({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'maintenance until 10:00' });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(error).toBeInstanceOf(ResponseError);
      expect(error.message).toBe('getQueue answered with a body that is not JSON: "maintenance until 10:00"');
      expect(exitCodeOf(error)).toBe(6);
    });

    it('a 200 HTML page (a captive portal, a proxy) is summarised, not quoted', async () => {
      const page = `<html><head><title>Sign in to the Wi-Fi</title></head><body>${'<p>x</p>'.repeat(100)}</body></html>`;
      service.reply({ status: 200, headers: { 'content-type': 'text/html' }, body: page });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(error).toBeInstanceOf(ResponseError);
      expect(error.message).toBe(`getQueue answered with an HTML page (text/html, ${page.length} bytes) titled "Sign in to the Wi-Fi", not JSON`);
      expect(exitCodeOf(error)).toBe(6);
    });

    it('an empty 200 body for a read is a ResponseError, not an empty result', async () => {
      service.reply({ status: 200, body: '' });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(error).toBeInstanceOf(ResponseError);
      expect(error.message).toMatch(/^getQueue answered with /);
    });
  });

  describe('mutations', () => {
    const mutations: [string, (c: MergeQueueClient) => Promise<unknown>][] = [
      ['submitPullRequest', (c) => c.call('submitPullRequest', prRef)],
      ['cancelPullRequest', (c) => c.call('cancelPullRequest', prRef)],
      ['restartTestsOnPullRequest', (c) => c.call('restartTestsOnPullRequest', prRef)],
      ['createQueue', (c) => c.call('createQueue', queueRef)],
      ['deleteQueue', (c) => c.call('deleteQueue', queueRef)],
      ['setImpactedTargets', (c) => c.call('setImpactedTargets', { ...queueRef, pr: { number: 42, sha: 'abc' }, impactedTargets: 'ALL' })],
    ];

    it.each(mutations)('%s: an empty 200 body is a success', async (_name, call) => {
      service.reply({ status: 200, body: '' }, { status: 200, headers: { 'content-type': 'application/json' }, body: ' \n' });
      await call(client);
      await call(client);
      expect(service.requests).toHaveLength(2);
    });

    it.each(mutations)('%s: a 204 No Content is a success', async (_name, call) => {
      service.reply({ status: 204 });
      await call(client);
      expect(service.requests).toHaveLength(1);
    });

    // SERVICE.md: updateQueue's response body is "not shown", so a service may answer it empty; the change was
    // applied, so it is a success with no queue to show.
    it('updateQueue: an empty 200 body is a success', async () => {
      service.reply({ status: 200, body: '' });
      await expect(client.call('updateQueue', { ...queueRef, state: 'paused' })).resolves.toBeUndefined();
    });

    it('a mutation answered with a non-JSON 200 body was still applied', async () => {
      service.reply({ status: 200, body: 'OK' });
      await expect(client.call('cancelPullRequest', prRef)).resolves.toBeUndefined();
    });

    it('returns whatever JSON a mutation answers with', async () => {
      service.reply(json({ queued: true, position: 3 }));
      await expect(client.call('submitPullRequest', prRef)).resolves.toEqual({ queued: true, position: 3 });
    });
  });
});
