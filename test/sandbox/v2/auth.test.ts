// v2's credentials and permissions (NOTES §2, §17): Bearer keys, the envelope's 401s, a v1 token refused on v2 and
// a v2 key on v1, the permissions judged by endpoint and body, and the control routes taking either credential.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox, WIDGETS_URL } from '../../support/v2.js';

describe('v2 credentials with any trunk_v2_ key', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('answers 401 AUTHENTICATION_REQUIRED without a credential', async () => {
    const answer = await sandbox.call('mergeQueues.list', { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('AUTHENTICATION_REQUIRED');
  });

  it('answers 401 INVALID_TOKEN for a v1 token, and for a key that is not a v2 key', async () => {
    const v1Token = await sandbox.call('mergeQueues.list', { key: null, headers: { 'x-api-token': 'sandbox' } });
    expect(v1Token.status).toBe(401);
    expect(v1Token.body.error.code).toBe('INVALID_TOKEN');
    const notV2 = await sandbox.call('mergeQueues.list', { key: 'sandbox' });
    expect(notV2.status).toBe(401);
    expect(notV2.body.error.code).toBe('INVALID_TOKEN');
    const notBearer = await sandbox.call('mergeQueues.list', { key: null, headers: { authorization: 'Basic dHJ1bms6eA==' } });
    expect(notBearer.body.error.code).toBe('INVALID_TOKEN');
    // A login's token is a credential (NOTES §2), one the sandbox cannot honour: not valid, rather than none.
    const login = await sandbox.call('mergeQueues.list', { key: null, headers: { 'x-trunk-token': 'abc' } });
    expect([login.status, login.body.error.code]).toEqual([401, 'INVALID_TOKEN']);
  });

  it('refuses a v2 key on v1 with v1’s plain 401', async () => {
    const response = await fetch(`${sandbox.v1}/getQueue`, {
      method: 'POST',
      headers: { authorization: 'Bearer trunk_v2_test', 'content-type': 'application/json' },
      body: JSON.stringify({ repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).not.toMatch(/json/);
  });

  it('refuses a v2 key sent as v1’s x-api-token with v1’s plain 401, on reads and writes alike', async () => {
    for (const operation of ['getQueue', 'createQueue']) {
      const response = await fetch(`${sandbox.v1}/${operation}`, {
        method: 'POST',
        headers: { 'x-api-token': 'trunk_v2_test', 'content-type': 'application/json' },
        body: JSON.stringify({ repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' }),
      });
      expect(response.status, operation).toBe(401);
      expect(response.headers.get('content-type')).not.toMatch(/json/);
      expect(await response.text()).toContain('a v2 API key is not accepted by the v1 API');
    }
    // Nothing was created: the same request with the v1 token finds no queue.
    expect((await sandbox.v1Call('getQueue', { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' })).status).toBe(404);
  });

  it('answers an unknown /v2 path 404 NOT_FOUND in the envelope', async () => {
    const response = await fetch(`${sandbox.origin}/v2/nothing-here`, { headers: { authorization: 'Bearer trunk_v2_test' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('/v2/nothing-here') } });
  });

  it('lets the control routes take a v2 key as well as the v1 token', async () => {
    const response = await fetch(`${sandbox.origin}/_sandbox/advance`, {
      method: 'POST',
      headers: { authorization: 'Bearer trunk_v2_test', 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 1 }),
    });
    expect(response.status).toBe(200);
    const wrong = await fetch(`${sandbox.origin}/_sandbox/advance`, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 1 }),
    });
    expect(wrong.status).toBe(401);
  });
});

describe('v2 keys given to the sandbox (--key KEY[=PERMS])', () => {
  const sandbox = useV2Sandbox({
    rateLimits: false,
    keys: [
      { key: 'admin', permissions: ['submit', 'priority', 'skip-batching', 'direct', 'settings'] },
      { key: 'reader', permissions: [] },
      { key: 'submitter', permissions: ['submit'] },
    ],
  });

  const setUp = () => queueIn({ ...sandbox, call: (op, call) => sandbox.call(op, { key: 'admin', ...call }) });

  it('takes exactly those keys: another trunk_v2_ key is refused', async () => {
    const answer = await sandbox.call('mergeQueues.list', { key: 'trunk_v2_test' });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('INVALID_TOKEN');
  });

  it('lets a key without permissions read, and refuses its writes with 403 INSUFFICIENT_PERMISSIONS', async () => {
    const { repositoryId, queueId } = await setUp();
    expect((await sandbox.call('mergeQueues.get', { key: 'reader', params: { id: queueId } })).status).toBe(200);
    expect((await sandbox.call('repositories.get', { key: 'reader', params: { id: repositoryId } })).status).toBe(200);
    for (const [operationId, call] of [
      ['mergeQueues.create', { body: { repositoryId, targetBranch: 'next' } }],
      ['mergeQueues.pause', { params: { id: queueId } }],
      ['mergeQueues.resume', { params: { id: queueId } }],
      ['mergeQueues.drain', { params: { id: queueId } }],
      ['mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 2 } }],
      ['mergeQueues.delete', { params: { id: queueId } }],
      ['mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } }],
      ['impactedTargets.upload', { body: { repositoryId, targetBranch: 'main', sha: 'abc', number: 1, impactedTargets: [] } }],
    ] as const) {
      const answer = await sandbox.call(operationId, { key: 'reader', ...call });
      expect(answer.status, operationId).toBe(403);
      expect(answer.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    }
  });

  it('judges submit by its body: priority, allowBatching false and direct true each need their permission', async () => {
    const { queueId } = await setUp();
    const submit = (body: Record<string, unknown>) => sandbox.call('mergeQueues.submitPullRequest', { key: 'submitter', params: { id: queueId }, body });
    for (const body of [
      { number: 1, priorityValue: 5 },
      { number: 1, priorityName: 'high' },
      { number: 1, allowBatching: false },
      { number: 1, direct: true },
    ]) {
      const answer = await submit(body);
      expect(answer.status, JSON.stringify(body)).toBe(403);
      expect(answer.body.error.message).toMatch(/priority|skip-batching|direct/);
    }
    expect((await submit({ number: 1, allowBatching: true, direct: false })).status).toBe(201);
  });

  it('lets a submitter dequeue and restart, but not change the queue', async () => {
    const { queueId } = await setUp();
    const submitted = await sandbox.call('mergeQueues.submitPullRequest', { key: 'submitter', params: { id: queueId }, body: { number: 3 } });
    expect((await sandbox.call('pullRequests.restartTests', { key: 'submitter', params: { id: submitted.body.id } })).status).toBe(200);
    expect((await sandbox.call('pullRequests.dequeue', { key: 'submitter', params: { id: submitted.body.id } })).status).toBe(200);
    expect((await sandbox.call('mergeQueues.pause', { key: 'submitter', params: { id: queueId } })).status).toBe(403);
    expect((await sandbox.call('pullRequests.dequeue', { key: 'reader', params: { id: submitted.body.id } })).status).toBe(403);
  });

  it('answers a key it does not take on the control routes in v2’s words, in their plain text (helper-98)', async () => {
    for (const key of ['trunk_v2_test', 'nope']) {
      const response = await fetch(`${sandbox.origin}/_sandbox/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 1 }),
      });
      expect([response.status, await response.text()], key).toEqual([401, 'the API key is not valid for this sandbox']);
    }
    expect((await sandbox.call('mergeQueues.list', { key: 'trunk_v2_test' })).body.error.message).toBe('the API key is not valid for this sandbox');
  });

  it('looks a repository up for any key', async () => {
    const answer = await sandbox.call('repositories.resolveByProviderUrl', { key: 'reader', query: { providerUrl: WIDGETS_URL } });
    expect(answer.status).toBe(200);
  });

  it('lets any key write to Flaky Tests: link a ticket, make a test collection', async () => {
    await sandbox.call('repositories.resolveByProviderUrl', { key: 'reader', query: { providerUrl: WIDGETS_URL } });
    const [test] = (await sandbox.call('tests.list', { key: 'reader', query: { limit: 1 } })).body.data;
    expect((await sandbox.call('tests.linkTicket', { key: 'reader', params: { testId: test.id }, body: { externalTicketId: 'KAN-1' } })).status).toBe(201);
    expect((await sandbox.call('testCollections.create', { key: 'reader', body: { name: 'mine' } })).status).toBe(201);
  });
});
