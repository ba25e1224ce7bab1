// v2's cursor pages (NOTES §10): limit 1..100 (25 by default), an opaque cursor bound to its operation and
// filters, includeTotal, and {data, nextCursor, hasMore, total?}.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox } from '../../support/v2.js';

describe('v2 pages', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  async function thirtyPullRequests() {
    const { queueId } = await queueIn(sandbox);
    for (let number = 1; number <= 30; number++) {
      const answer = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number } });
      expect(answer.status).toBe(201);
    }
    return queueId;
  }

  it('pages 25 by default, then follows nextCursor to the end, with the total when asked', async () => {
    const queueId = await thirtyPullRequests();
    const first = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { includeTotal: true } });
    expect(first.body.data).toHaveLength(25);
    expect(first.body).toMatchObject({ hasMore: true, total: 30 });
    expect(first.body.data[0].number).toBe(30);
    const second = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { cursor: first.body.nextCursor } });
    expect(second.body.data.map((row: { number: number }) => row.number)).toEqual([5, 4, 3, 2, 1]);
    expect(second.body).toEqual(expect.objectContaining({ hasMore: false, nextCursor: null }));
    expect(second.body).not.toHaveProperty('total');
  });

  it('takes limit 1..100 and refuses 0 and 101 with 400 VALIDATION_FAILED', async () => {
    const queueId = await thirtyPullRequests();
    const small = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { limit: 7 } });
    expect(small.body.data).toHaveLength(7);
    const all = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { limit: 100 } });
    expect(all.body).toMatchObject({ hasMore: false, nextCursor: null });
    for (const limit of [0, 101, 'ten']) {
      const answer = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { limit }, invalid: true });
      expect(answer.status, String(limit)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('limit') });
    }
  });

  it('refuses a cursor sent with other filters, to another operation, or made up, with 400 INVALID_CURSOR', async () => {
    const queueId = await thirtyPullRequests();
    const first = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { limit: 5, state: 'testing,pending' } });
    const cursor = first.body.nextCursor as string;
    const same = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { limit: 10, state: 'testing,pending', cursor } });
    expect(same.body.data[0].number).toBe(25);
    const otherFilter = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { state: 'pending', cursor } });
    expect(otherFilter.status).toBe(400);
    expect(otherFilter.body.error.code).toBe('INVALID_CURSOR');
    const otherOperation = await sandbox.call('mergeQueues.list', { query: { cursor } });
    expect(otherOperation.body.error.code).toBe('INVALID_CURSOR');
    const garbage = await sandbox.call('mergeQueues.list', { query: { cursor: 'AQEKZm9vYmFy' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.code).toBe('INVALID_CURSOR');
  });

  it('pages the queue list too', async () => {
    for (const branch of ['a', 'b', 'c']) await queueIn(sandbox, branch);
    const first = await sandbox.call('mergeQueues.list', { query: { limit: 2 } });
    expect(first.body.data.map((row: { targetBranch: string }) => row.targetBranch)).toEqual(['a', 'b']);
    const rest = await sandbox.call('mergeQueues.list', { query: { limit: 2, cursor: first.body.nextCursor } });
    expect(rest.body.data.map((row: { targetBranch: string }) => row.targetBranch)).toEqual(['c']);
  });
});
