// The service's rate limits (NOTES §9, §17; SEMANTICS' Limits for v1) on the clock the test moves: 100 requests a
// second per organization (a repository owner; requests naming none share one bucket), v1's and v2's in one bucket,
// 5 a second per key for v2's pull-request reads, 5 a second for its metrics; over a limit v2's bare 429, v1's in
// plain text with Retry-After. `rateLimits: false` lifts them all.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox } from '../../support/v2.js';

describe('rate limits', () => {
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

  it('limits v1 as well: its requests count in their organization’s bucket with v2’s, past it a plain-text 429 with Retry-After (helper-99)', async () => {
    const acme = await queueIn(as('one'));
    sandbox.advanceRateClock(1000);
    const v1 = async (path: string, body?: unknown, token: string | null = 'sandbox') => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token !== null) headers['x-api-token'] = token;
      const response = await fetch(`${sandbox.v1}/${path}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        retryAfter: response.headers.get('retry-after'),
        text: await response.text(),
      };
    };
    const widgets = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
    for (let i = 0; i < 50; i++) expect((await sandbox.call('mergeQueues.get', { key: 'two', params: { id: acme.queueId } })).status).toBe(200);
    for (let i = 0; i < 50; i++) expect((await v1('getQueue', widgets)).status).toBe(200);
    // The 101st of the organization, on either API; the owner in another letter case is the same organization.
    const over = await v1('getQueue', { ...widgets, repo: { ...widgets.repo, owner: 'ACME' } });
    expect(over).toEqual({
      status: 429,
      type: 'text/plain',
      retryAfter: '1',
      text: 'rate limited: over 100 requests a second for the organization ACME',
    });
    expect((await v1('getMergeQueueMetrics?repo=acme/widgets&repoHost=github.com')).status).toBe(429);
    expect((await sandbox.call('mergeQueues.get', { key: 'two', params: { id: acme.queueId } })).status).toBe(429);
    // Another owner has its own bucket; the health check and the sandbox's own routes are no organization's.
    expect((await v1('getQueue', { ...widgets, repo: { ...widgets.repo, owner: 'globex' } })).status).toBe(404);
    expect((await v1('status', undefined, null)).status).toBe(200);
    expect((await v1('_sandbox/advance', { seconds: 0 })).status).toBe(200);
    sandbox.advanceRateClock(999);
    expect((await v1('getQueue', widgets)).status).toBe(429);
    sandbox.advanceRateClock(1);
    expect((await v1('getQueue', widgets)).status).toBe(200);
  });

  it('counts v1 requests that name no repository in one bucket of their own', async () => {
    sandbox.advanceRateClock(1000);
    for (let i = 0; i < 100; i++) expect((await sandbox.v1Call('getQueue', { targetBranch: 'main' })).status).toBe(400);
    expect(await sandbox.v1Call('getQueue', { targetBranch: 'main' })).toEqual({
      status: 429,
      body: 'rate limited: over 100 requests a second for requests naming no repository',
    });
    expect((await sandbox.v1Call('getQueue', { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' })).status).toBe(404);
  });
});

describe('rate limits off (--rate-limits off)', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('serves every request, on both APIs', async () => {
    const { queueId } = await queueIn(sandbox);
    const pr = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } });
    for (let i = 0; i < 20; i++) expect((await sandbox.call('pullRequests.get', { params: { id: pr.body.id } })).status).toBe(200);
    const widgets = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
    for (let i = 0; i < 120; i++) expect((await sandbox.v1Call('getQueue', widgets)).status).toBe(200);
  });
});
