// v2's rate limits (NOTES §9, §17) on the clock the test moves: 100 requests a second per organization (a
// repository owner; requests naming none share one bucket), 5 a second per key for pull-request reads, 5 a second
// for the metrics; over a limit a bare 429. v1 is never limited, and `rateLimits: false` lifts v2's.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox } from '../../support/v2.js';

describe('v2 rate limits', () => {
  const sandbox = useV2Sandbox({
    keys: [
      { key: 'one', permissions: ['submit', 'settings'] },
      { key: 'two', permissions: [] },
    ],
  });
  const as = (key: string) => ({ ...sandbox, call: (op: string, call = {}) => sandbox.call(op, { key, ...call }) });

  it('allows 5 pull-request reads a second per key, then answers a bare 429, and again once the second has passed', async () => {
    const { queueId } = await queueIn(as('one'));
    sandbox.advanceRateClock(1000);
    const pr = await sandbox.call('mergeQueues.submitPullRequest', { key: 'one', params: { id: queueId }, body: { number: 1 } });
    for (let i = 0; i < 5; i++) expect((await sandbox.call('pullRequests.get', { key: 'one', params: { id: pr.body.id } })).status).toBe(200);
    const over = await sandbox.call('pullRequests.get', { key: 'one', params: { id: pr.body.id } });
    expect(over.status).toBe(429);
    expect(over.text).toBe('');
    expect(over.headers.get('retry-after')).toBeNull();
    // Another key has its own bucket; the organization's bucket is not this one.
    expect((await sandbox.call('pullRequests.get', { key: 'two', params: { id: pr.body.id } })).status).toBe(200);
    expect((await sandbox.call('mergeQueues.get', { key: 'one', params: { id: queueId } })).status).toBe(200);
    sandbox.advanceRateClock(999);
    expect((await sandbox.call('pullRequests.get', { key: 'one', params: { id: pr.body.id } })).status).toBe(429);
    sandbox.advanceRateClock(1);
    expect((await sandbox.call('pullRequests.get', { key: 'one', params: { id: pr.body.id } })).status).toBe(200);
  });

  it('allows 5 metrics reads a second per organization', async () => {
    const { queueId } = await queueIn(as('one'));
    sandbox.advanceRateClock(1000);
    for (let i = 0; i < 5; i++) expect((await sandbox.call('mergeQueues.metrics', { key: i % 2 ? 'one' : 'two', params: { id: queueId } })).status).toBe(200);
    expect((await sandbox.call('mergeQueues.metrics', { key: 'two', params: { id: queueId } })).status).toBe(429);
    expect((await sandbox.call('mergeQueues.get', { key: 'two', params: { id: queueId } })).status).toBe(200);
  });

  it('allows 100 requests a second per organization, shared by its keys; another owner has its own', async () => {
    const acme = await queueIn(as('one'));
    const other = await queueIn(as('one'), 'main', 'https://github.com/globex/gadgets');
    sandbox.advanceRateClock(1000);
    for (let i = 0; i < 100; i++) {
      const answer = await sandbox.call('mergeQueues.get', { key: i % 2 ? 'one' : 'two', params: { id: acme.queueId } });
      expect(answer.status).toBe(200);
    }
    expect((await sandbox.call('mergeQueues.get', { key: 'two', params: { id: acme.queueId } })).status).toBe(429);
    expect((await sandbox.call('mergeQueues.pause', { key: 'one', params: { id: acme.queueId } })).status).toBe(429);
    expect((await sandbox.call('mergeQueues.get', { key: 'two', params: { id: other.queueId } })).status).toBe(200);
  });

  it('never limits v1', async () => {
    sandbox.advanceRateClock(1000);
    for (let i = 0; i < 120; i++) {
      const answer = await sandbox.v1Call('getQueue', { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' });
      expect(answer.status).toBe(404);
    }
  });
});

describe('v2 rate limits off (--rate-limits off)', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('serves every request', async () => {
    const { queueId } = await queueIn(sandbox);
    const pr = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } });
    for (let i = 0; i < 20; i++) expect((await sandbox.call('pullRequests.get', { params: { id: pr.body.id } })).status).toBe(200);
  });
});
