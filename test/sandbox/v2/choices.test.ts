// The sandbox's choices where the v2 description is silent (api/v2/NOTES.md §17), one test each, in the order of
// the table there. Every request and answer still goes through the harness that checks them against the
// description (test/support/v2.ts); what is tested here is the choice itself.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox, WIDGETS_URL } from '../../support/v2.js';

const sandbox = useV2Sandbox();
const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };

async function submitted(number: number, body: Record<string, unknown> = {}) {
  const { queueId, repositoryId } = await queueIn(sandbox);
  const answer = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number, ...body } });
  return { queueId, repositoryId, answer };
}

describe('NOTES §17: the sandbox where the description is silent', () => {
  it('1, 18 estimate: available with estimatedAt, waitingBehind and waitingOn; unavailable with a reason (queuePaused)', async () => {
    const { queueId } = await queueIn(sandbox);
    const first = (await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } })).body;
    const second = (await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 2 } })).body;
    const estimate = (await sandbox.call('pullRequests.queueEntryEstimate', { params: { id: second.id } })).body;
    expect(estimate).toMatchObject({ status: 'available', kind: 'merge', waitingBehind: expect.any(Number), waitingOn: expect.any(Array) });
    expect(Date.parse(estimate.estimatedAt)).toBeGreaterThan(Date.parse(estimate.computedAt));
    expect(first.id).not.toBe(second.id);
    await sandbox.call('mergeQueues.pause', { params: { id: queueId } });
    const paused = (await sandbox.call('pullRequests.queueEntryEstimate', { params: { id: second.id } })).body;
    expect(paused).toMatchObject({ status: 'unavailable', reason: 'queuePaused' });
  });

  it('3 priority: 0..32767 as the schema says; names are 0, 10, 100, 200', async () => {
    const { queueId } = await queueIn(sandbox);
    const highest = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1, priorityValue: 32767 } });
    expect(highest.body.queueEntry.priorityValue).toBe(32767);
    const over = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 2, priorityValue: 32768 }, invalid: true });
    expect([over.status, over.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    for (const [number, name, value] of [
      [3, 'urgent', 0],
      [4, 'high', 10],
      [5, 'medium', 100],
      [6, 'low', 200],
    ] as const) {
      const named = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number, priorityName: name } });
      expect(named.body.queueEntry.priorityValue).toBe(value);
    }
  });

  it('4 429: an empty body, no Retry-After, no envelope', async () => {
    const { answer } = await submitted(1);
    let last = answer;
    for (let i = 0; i < 6; i++) last = await sandbox.call('pullRequests.get', { params: { id: answer.body.id } });
    expect(last.status).toBe(429);
    expect(last.text).toBe('');
    expect(last.headers.get('retry-after')).toBeNull();
  });

  it('5 ETag: none sent, If-None-Match ignored', async () => {
    const { answer } = await submitted(1);
    const read = await sandbox.call('pullRequests.get', { params: { id: answer.body.id }, headers: { 'if-none-match': '"anything"' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBeNull();
  });

  it('7 a v1 token on v2 is 401 INVALID_TOKEN with the envelope; a Bearer key on v1 is 401 in plain text', async () => {
    const v1TokenOnV2 = await fetch(`${sandbox.origin}/v2/merge-queues`, { headers: { 'x-api-token': 'an-org-token' } });
    expect(v1TokenOnV2.status).toBe(401);
    expect(((await v1TokenOnV2.json()) as { error: { code: string } }).error.code).toBe('INVALID_TOKEN');
    const keyOnV1 = await fetch(`${sandbox.v1}/getQueue`, {
      method: 'POST',
      headers: { authorization: 'Bearer trunk_v2_test', 'content-type': 'application/json' },
      body: JSON.stringify({ repo: WIDGETS, targetBranch: 'main' }),
    });
    expect(keyOnV1.status).toBe(401);
    expect(keyOnV1.headers.get('content-type')).not.toContain('json');
  });

  it('8 impacted targets: from any host', async () => {
    const { repositoryId } = await queueIn(sandbox, 'main', 'https://gitlab.example.com/acme/widgets');
    const uploaded = await sandbox.call('impactedTargets.upload', {
      body: { repositoryId, targetBranch: 'main', number: 1, sha: 'abc123', impactedTargets: ['//app:lib'] },
    });
    expect(uploaded.status).toBe(202);
  });

  it('9 a submit to a draining queue: 422 PR_NOT_ENQUEUEABLE naming the draining queue', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.drain', { params: { id: queueId } });
    const refused = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'PR_NOT_ENQUEUEABLE']);
    // By its branch and repository, as a person knows it; not by the id only the API uses.
    expect(refused.body.error.message).toBe('the queue github.com/acme/widgets branch main is draining: it takes no new pull requests until it is resumed');
    expect(refused.body.error.message).not.toContain(queueId);
  });

  it('10 pause of a paused queue and resume of a running one: 200 with the state, nothing changed', async () => {
    const { queueId } = await queueIn(sandbox);
    expect((await sandbox.call('mergeQueues.resume', { params: { id: queueId } })).body.state).toBe('running');
    await sandbox.call('mergeQueues.pause', { params: { id: queueId } });
    const again = await sandbox.call('mergeQueues.pause', { params: { id: queueId } });
    expect([again.status, again.body.state]).toEqual([200, 'paused']);
  });

  it('11 PR_NOT_ENQUEUEABLE for a PR whose facts say closed', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 7, state: 'closed' });
    const refused = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 7 } });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'PR_NOT_ENQUEUEABLE']);
  });

  it("12 create: v1's defaults (mode queue, concurrency 1)", async () => {
    const { queueId } = await queueIn(sandbox);
    const queue = (await sandbox.call('mergeQueues.get', { params: { id: queueId } })).body;
    expect(queue).toMatchObject({
      mode: 'queue',
      state: 'running',
      config: { concurrency: 1, allowBatching: false, batchingMinSize: 4, testingTimeoutMinutes: 300 },
    });
  });

  it('13 queues listed by repository URL, then target branch', async () => {
    await queueIn(sandbox, 'release', 'https://github.com/zeta/app');
    await queueIn(sandbox, 'main', 'https://github.com/zeta/app');
    await queueIn(sandbox, 'main', WIDGETS_URL);
    const listed = (await sandbox.call('mergeQueues.list')).body.data.map(
      (queue: { repositoryUrl: string; targetBranch: string }) => `${queue.repositoryUrl} ${queue.targetBranch}`,
    );
    expect(listed).toEqual(['https://github.com/acme/widgets main', 'https://github.com/zeta/app main', 'https://github.com/zeta/app release']);
  });

  it('14 a cursor given with other filters than it was minted with: 400 INVALID_CURSOR', async () => {
    const { repositoryId } = await queueIn(sandbox, 'main');
    await queueIn(sandbox, 'next');
    const first = await sandbox.call('mergeQueues.list', { query: { limit: 1 } });
    const cursor = first.body.nextCursor as string;
    expect((await sandbox.call('mergeQueues.list', { query: { limit: 1, cursor } })).status).toBe(200);
    const replayed = await sandbox.call('mergeQueues.list', { query: { limit: 1, cursor, repositoryId } });
    expect([replayed.status, replayed.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('16 queue ids: 8 letters and digits', async () => {
    const { queueId } = await queueIn(sandbox);
    expect(queueId).toMatch(/^[0-9A-Za-z]{8}$/);
  });

  it('19 the token exchange is not served', async () => {
    const answer = await fetch(`${sandbox.origin}/v2/auth/api-key/login`, { method: 'POST', headers: { authorization: 'Bearer trunk_v2_test' } });
    expect(answer.status).toBe(404);
  });

  it('org: an organization is a repository owner; with no filter, every queue is listed', async () => {
    await queueIn(sandbox, 'main', 'https://github.com/acme/widgets');
    await queueIn(sandbox, 'main', 'https://github.com/other/tools');
    expect((await sandbox.call('mergeQueues.list')).body.data).toHaveLength(2);
  });
});
