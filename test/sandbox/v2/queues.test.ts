// v2's repositories and merge queues over real HTTP: lookups, create/list/get/delete, pause/resume/drain,
// config as a JSON merge patch under v2's names, metrics; each error code the sandbox gives them.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/io/server.js';
import { queueIn, useV2Sandbox, v2, WIDGETS_URL } from '../../support/v2.js';

const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };

describe('v2 repositories', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('resolves any well-formed URL to one repository, .git and trailing slashes normalized', async () => {
    const plain = await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: WIDGETS_URL } });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ hasMore: false, nextCursor: null, data: [{ provider: 'github', path: 'acme/widgets', host: null, url: WIDGETS_URL }] });
    for (const providerUrl of [`${WIDGETS_URL}.git`, `${WIDGETS_URL}/`, `${WIDGETS_URL}.git//`]) {
      const same = await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl } });
      expect(same.body.data[0].id, providerUrl).toBe(plain.body.data[0].id);
    }
    const byId = await sandbox.call('repositories.get', { params: { id: plain.body.data[0].id } });
    expect(byId.body).toEqual(plain.body.data[0]);
  });

  it('answers 404 PROVIDER_URL_NOT_FOUND for a malformed URL, 400 without one', async () => {
    for (const providerUrl of ['github.com/acme/widgets', 'https://github.com/acme', 'ftp://github.com/acme/widgets']) {
      const answer = await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl } });
      expect(answer.status, providerUrl).toBe(404);
      expect(answer.body.error.code).toBe('PROVIDER_URL_NOT_FOUND');
    }
    const missing = await sandbox.call('repositories.resolveByProviderUrl', { invalid: true });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('providerUrl') });
  });

  it('knows a repository a v1 call named, and answers 404 REPOSITORY_NOT_FOUND or 400 for other ids', async () => {
    expect((await sandbox.v1Call('createQueue', { repo: WIDGETS, targetBranch: 'main' })).status).toBe(200);
    const list = await sandbox.call('mergeQueues.list');
    const known = await sandbox.call('repositories.get', { params: { id: list.body.data[0].repositoryId } });
    expect(known.body.path).toBe('acme/widgets');
    const unknown = await sandbox.call('repositories.get', { params: { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('REPOSITORY_NOT_FOUND');
    const malformed = await sandbox.call('repositories.get', { params: { id: 'widgets' }, invalid: true });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('v2 merge queues', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('creates a queue (201) with the v1 defaults, and reads it back by id and in the list', async () => {
    const { repositoryId, queueId } = await queueIn(sandbox);
    const queue = await sandbox.call('mergeQueues.get', { params: { id: queueId } });
    expect(queue.body).toMatchObject({
      id: queueId,
      repositoryId,
      targetBranch: 'main',
      state: 'running',
      mode: 'queue',
      managedState: 'manual',
      repositoryUrl: WIDGETS_URL,
      pullRequestsUrl: `/v2/merge-queues/${queueId}/pull-requests`,
      config: { concurrency: 1, mergeMethod: 'squash', allowBatching: false, requiredStatuses: [] },
    });
    expect(queueId).toMatch(/^[0-9A-Za-z]{8}$/);
    const list = await sandbox.call('mergeQueues.list');
    expect(list.body.data.map((row: { id: string }) => row.id)).toEqual([queueId]);
  });

  it('takes mode, concurrency, bisectionConcurrency and enqueueingLabel on create', async () => {
    const { repositoryId } = await queueIn(sandbox);
    const created = await sandbox.call('mergeQueues.create', {
      body: { repositoryId, targetBranch: 'release', mode: 'graph', concurrency: 3, bisectionConcurrency: 2, enqueueingLabel: 'ship-it' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ mode: 'graph', config: { concurrency: 3, bisectionConcurrency: 2, enqueueingLabel: 'ship-it' } });
  });

  it('refuses a second queue on the branch (409 QUEUE_ALREADY_EXISTS), an unknown repository (404), and bad bodies (400)', async () => {
    const { repositoryId } = await queueIn(sandbox);
    const again = await sandbox.call('mergeQueues.create', { body: { repositoryId, targetBranch: 'main' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('QUEUE_ALREADY_EXISTS');
    const unknown = await sandbox.call('mergeQueues.create', { body: { repositoryId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', targetBranch: 'main' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('REPOSITORY_NOT_FOUND');
    for (const [body, field] of [
      [{ repositoryId, targetBranch: 'x', repo: 'acme/widgets' }, 'repo'],
      [{ repositoryId, targetBranch: 'x', mode: 'parallel' }, 'mode'],
      [{ repositoryId, targetBranch: 'x', concurrency: 1001 }, 'concurrency'],
      [{ repositoryId: 'acme', targetBranch: 'x' }, 'repositoryId'],
      [{ repositoryId }, 'targetBranch'],
    ] as const) {
      const answer = await sandbox.call('mergeQueues.create', { body, invalid: true });
      expect(answer.status, field).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
      expect(answer.body.error.message).toContain(field);
    }
  });

  it('lists by repository URL then branch, narrows by repositoryId and targetBranch, and refuses targetBranch alone', async () => {
    const { repositoryId } = await queueIn(sandbox, 'main');
    await queueIn(sandbox, 'dev');
    const other = await queueIn(sandbox, 'main', 'https://github.com/acme/gadgets');
    const all = await sandbox.call('mergeQueues.list', { query: { includeTotal: true } });
    expect(all.body.data.map((row: { repositoryUrl: string; targetBranch: string }) => `${row.repositoryUrl} ${row.targetBranch}`)).toEqual([
      'https://github.com/acme/gadgets main',
      `${WIDGETS_URL} dev`,
      `${WIDGETS_URL} main`,
    ]);
    expect(all.body.total).toBe(3);
    const mine = await sandbox.call('mergeQueues.list', { query: { repositoryId, targetBranch: 'main' } });
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0].repositoryId).toBe(repositoryId);
    const theirs = await sandbox.call('mergeQueues.list', { query: { repositoryId: other.repositoryId } });
    expect(theirs.body.data.map((row: { id: string }) => row.id)).toEqual([other.queueId]);
    const alone = await sandbox.call('mergeQueues.list', { query: { targetBranch: 'main' } });
    expect(alone.status).toBe(400);
    expect(alone.body.error.message).toContain('targetBranch');
  });

  it('answers 404 MERGE_QUEUE_NOT_FOUND for an unknown queue id on every queue route', async () => {
    const id = 'zzzzzzzz';
    for (const [operationId, call] of [
      ['mergeQueues.get', {}],
      ['mergeQueues.delete', {}],
      ['mergeQueues.pause', {}],
      ['mergeQueues.resume', {}],
      ['mergeQueues.drain', {}],
      ['mergeQueues.updateConfig', { body: { concurrency: 2 } }],
      ['mergeQueues.metrics', {}],
      ['mergeQueues.submitPullRequest', { body: { number: 1 } }],
      ['mergeQueues.listPullRequests', {}],
      ['mergeQueues.listTestingResults', { query: { since: '2025-12-31T00:00:00Z' } }],
    ] as const) {
      const answer = await sandbox.call(operationId, { params: { id }, ...call });
      expect(answer.status, operationId).toBe(404);
      expect(answer.body.error.code).toBe('MERGE_QUEUE_NOT_FOUND');
    }
  });

  it('pauses, drains and resumes, answering the state after the write; the same state again changes nothing', async () => {
    const { queueId } = await queueIn(sandbox);
    const params = { id: queueId };
    expect((await sandbox.call('mergeQueues.pause', { params })).body).toEqual({
      id: queueId,
      state: 'paused',
      mode: 'queue',
      pullRequestsUrl: `/v2/merge-queues/${queueId}/pull-requests`,
    });
    expect((await sandbox.call('mergeQueues.pause', { params })).body.state).toBe('paused');
    expect((await sandbox.call('mergeQueues.drain', { params })).body.state).toBe('draining');
    expect((await sandbox.call('mergeQueues.resume', { params })).body.state).toBe('running');
    expect((await sandbox.call('mergeQueues.resume', { params })).body.state).toBe('running');
    expect((await sandbox.call('mergeQueues.get', { params })).body.state).toBe('running');
  });

  it('patches the config under v2’s names and camelCase values, returning the whole queue', async () => {
    const { queueId } = await queueIn(sandbox);
    const patched = await sandbox.call('mergeQueues.updateConfig', {
      params: { id: queueId },
      body: {
        allowBatching: true,
        mergeMethod: 'mergeCommit',
        optimizationMode: 'bisectionSkipRedundantTests',
        areCommentsEnabled: false,
        requiredStatuses: ['ci/test'],
        concurrency: 4,
        notReadyTimeoutMinutes: 1440,
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.config).toMatchObject({
      allowBatching: true,
      mergeMethod: 'mergeCommit',
      optimizationMode: 'bisectionSkipRedundantTests',
      areCommentsEnabled: false,
      requiredStatuses: ['ci/test'],
      concurrency: 4,
    });
    // Absent keys stay as they were; [] clears the list.
    const cleared = await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { requiredStatuses: [] } });
    expect(cleared.body.config).toMatchObject({ requiredStatuses: [], concurrency: 4, mergeMethod: 'mergeCommit' });
    // v1 reads the same settings; the list cleared is no override (null), as v1's deleteRequiredStatuses leaves it (helper-111).
    const v1 = await sandbox.v1Call('getQueue', { repo: WIDGETS, targetBranch: 'main' });
    expect(v1.body).toMatchObject({ batch: true, mergeMethod: 'merge_commit', concurrency: 4, commentsEnabled: false, requiredStatuses: null });
  });

  it('keeps the settings it does not act on as written (bots, batching rules, test branches, not-ready timeout), on both faces', async () => {
    const { queueId } = await queueIn(sandbox);
    const written = {
      allowedBotSubmitters: ['renovate[bot]'],
      batchingRules: [{ targetPattern: '//db/migrations:*', policy: 'isolate' }],
      testBranchConstructionMode: 'pushNewBranchFromTemp',
      notReadyTimeoutMinutes: 120,
    };
    const patched = await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { ...written, concurrency: 3 } });
    expect(patched.status).toBe(200);
    expect(patched.body.config).toMatchObject({ ...written, concurrency: 3 });
    expect((await sandbox.call('mergeQueues.get', { params: { id: queueId } })).body.config).toMatchObject(written);
    const v1 = await sandbox.v1Call('getQueue', { repo: WIDGETS, targetBranch: 'main' });
    expect(v1.body).toMatchObject({
      allowedBotSubmitters: ['renovate[bot]'],
      batchingRules: written.batchingRules,
      testBranchConstructionMode: 'push_new_branch_from_temp',
      notReadyTimeoutHours: 2,
    });
    // [] clears a list; an absent key stays.
    const cleared = await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { allowedBotSubmitters: [], batchingRules: [] } });
    expect(cleared.body.config).toMatchObject({ allowedBotSubmitters: [], batchingRules: [], notReadyTimeoutMinutes: 120 });
  });

  it('moves a queue’s updatedAt with each write of its settings or state, not with a read or a write that changes nothing', async () => {
    const { queueId } = await queueIn(sandbox);
    const params = { id: queueId };
    const created = (await sandbox.call('mergeQueues.get', { params })).body;
    expect(created.updatedAt).toBe(created.createdAt);
    await sandbox.control('advance', { seconds: 60 });
    await sandbox.call('mergeQueues.updateConfig', { params, body: { concurrency: 2 } });
    const configured = (await sandbox.call('mergeQueues.get', { params })).body.updatedAt;
    expect(Date.parse(configured) - Date.parse(created.createdAt)).toBe(60_000);
    await sandbox.control('advance', { seconds: 60 });
    await sandbox.call('mergeQueues.updateConfig', { params, body: {} });
    await sandbox.call('mergeQueues.resume', { params });
    expect((await sandbox.call('mergeQueues.get', { params })).body.updatedAt).toBe(configured);
    await sandbox.call('mergeQueues.pause', { params });
    expect(Date.parse((await sandbox.call('mergeQueues.get', { params })).body.updatedAt) - Date.parse(configured)).toBe(60_000);
  });

  it('refuses unknown keys, snake_case values and minutes that are not whole hours with 400 naming the field', async () => {
    const { queueId } = await queueIn(sandbox);
    for (const [body, field] of [
      [{ targetBranch: 'dev' }, 'targetBranch'],
      [{ batch: true }, 'batch'],
      [{ mergeMethod: 'merge_commit' }, 'mergeMethod'],
      [{ requiredStatuses: [''] }, 'requiredStatuses'],
      // The schema leaves this to its description ("a whole number of hours", NOTES §5).
      [{ notReadyTimeoutMinutes: 90 }, 'notReadyTimeoutMinutes'],
    ] as const) {
      const invalid = field !== 'notReadyTimeoutMinutes';
      const answer = await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body, invalid });
      expect(answer.status, field).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
  });

  it('refuses a config write while the queue switches modes (409 MODE_CHANGE_IN_PROGRESS)', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } });
    expect((await sandbox.v1Call('updateQueue', { repo: WIDGETS, targetBranch: 'main', mode: 'parallel' })).status).toBe(200);
    expect((await sandbox.call('mergeQueues.get', { params: { id: queueId } })).body.state).toBe('switchingModes');
    const answer = await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 2 } });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('MODE_CHANGE_IN_PROGRESS');
  });

  it('deletes an empty queue (204) and refuses one with entries (409 QUEUE_HAS_ACTIVE_ENTRIES)', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } });
    const busy = await sandbox.call('mergeQueues.delete', { params: { id: queueId } });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('QUEUE_HAS_ACTIVE_ENTRIES');
    const { queueId: empty } = await queueIn(sandbox, 'dev');
    const deleted = await sandbox.call('mergeQueues.delete', { params: { id: empty } });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await sandbox.call('mergeQueues.get', { params: { id: empty } })).status).toBe(404);
  });

  it('serves the metrics of one queue and of the organization as Prometheus text', async () => {
    const { repositoryId, queueId } = await queueIn(sandbox);
    await queueIn(sandbox, 'dev');
    const one = await sandbox.call('mergeQueues.metrics', { params: { id: queueId } });
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(one.text).toContain('branch="main"');
    expect(one.text).not.toContain('branch="dev"');
    const all = await sandbox.call('mergeQueues.organizationMetrics');
    expect(all.text).toContain('branch="dev"');
    const repository = await sandbox.call('mergeQueues.organizationMetrics', { query: { repositoryId } });
    expect(repository.text).toContain('repo="acme/widgets"');
    const unknown = await sandbox.call('mergeQueues.organizationMetrics', { query: { repositoryId: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('REPOSITORY_NOT_FOUND');
    const malformed = await sandbox.call('mergeQueues.organizationMetrics', { query: { repositoryId: 'acme' }, invalid: true });
    expect(malformed.status).toBe(400);
  });
});

describe('the queue ids of a fresh sandbox', () => {
  /** The id of the first queue a fresh sandbox on this clock makes. */
  async function firstQueueId(clock: 'real' | 'manual'): Promise<string> {
    const sandbox = await startSandbox({ clock, rateLimits: false });
    try {
      const origin = sandbox.url.replace(/\/v1$/, '');
      return (await queueIn({ call: (operationId, call) => v2(origin, operationId, call) })).queueId;
    } finally {
      await sandbox.close();
    }
  }

  it('differ from run to run on the real clock (an id a client kept from an earlier run names no queue), and not on a manual one', async () => {
    const [real, again] = [await firstQueueId('real'), await firstQueueId('real')];
    expect(real).toMatch(/^[0-9A-Za-z]{8}$/);
    expect(again).not.toBe(real);
    expect(await firstQueueId('manual')).toBe(await firstQueueId('manual'));
  });
});
