// Reads are tried again after a 5xx, a 429 or a network failure; a POST that changes state never is (the API has
// no idempotency key). The injected sleep records each pause, so no test waits.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MergeQueueClient } from '../../src/api/v1/client.js';
import { ApiError, exitCodeOf, NetworkError } from '../../src/errors.js';
import * as fixture from './fixtures.js';
import { Transport } from '../../src/api/transport.js';
import { V2_DIALECT } from '../../src/api/v2/dialect.js';
import { clientFor, json, plainText, rejectionOf, REPO, startHttpService, TOKEN, type FakeService, type Reply } from './harness.js';

const queueRef = { repo: REPO, targetBranch: 'main' };
const prRef = { ...queueRef, pr: { number: 42 } };
const unavailable = (headers: Record<string, string> = {}) => plainText(503, 'Service Unavailable', headers);

const READS: [string, (c: MergeQueueClient) => Promise<unknown>, Reply][] = [
  ['getQueue', (c) => c.call('getQueue', queueRef), json(fixture.queue())],
  ['getSubmittedPullRequest', (c) => c.call('getSubmittedPullRequest', prRef), json(fixture.submittedPullRequest())],
  ['listPullRequests', (c) => c.call('listPullRequests', queueRef), json(fixture.pullRequestList())],
  ['getMergeQueueTestingDetails', (c) => c.call('getMergeQueueTestingDetails', { ...queueRef, testRunId: 'run-7' }), json(fixture.testingDetails())],
  ['getTestDetails', (c) => c.call('getTestDetails', { repo: REPO, org_url_slug: 'acme', test_id: fixture.TEST_ID }), json(fixture.testDetails())],
  ['getMergeQueueMetrics', (c) => c.getMergeQueueMetrics(), { status: 200, body: fixture.METRICS_TEXT }],
];

const MUTATIONS: [string, (c: MergeQueueClient) => Promise<unknown>][] = [
  ['submitPullRequest', (c) => c.call('submitPullRequest', prRef)],
  ['cancelPullRequest', (c) => c.call('cancelPullRequest', prRef)],
  ['restartTestsOnPullRequest', (c) => c.call('restartTestsOnPullRequest', prRef)],
  ['createQueue', (c) => c.call('createQueue', queueRef)],
  ['updateQueue', (c) => c.call('updateQueue', { ...queueRef, state: 'paused' })],
  ['deleteQueue', (c) => c.call('deleteQueue', queueRef)],
  ['setImpactedTargets', (c) => c.call('setImpactedTargets', { ...queueRef, pr: { number: 42, sha: 'abc' }, impactedTargets: 'ALL' })],
];

describe('retries', () => {
  let service: FakeService;
  beforeEach(async () => {
    service = await startHttpService();
  });
  afterEach(async () => {
    await service.close();
  });

  it('getQueue after a 503 is tried again, and the second answer is the result', async () => {
    service.reply(unavailable(), json(fixture.queue()));
    const { client, sleeps } = clientFor(service);
    await expect(client.call('getQueue', queueRef)).resolves.toMatchObject({ branch: 'main' });
    expect(service.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('submitPullRequest after a 503 is not tried again: one call, ApiError 503', async () => {
    service.reply(unavailable(), json({}));
    const { client, sleeps } = clientFor(service);
    const error = await rejectionOf(client.call('submitPullRequest', prRef));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect(exitCodeOf(error)).toBe(6);
    expect(service.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it.each(READS)('the read %s is retried after a 503', async (_name, call, ok) => {
    service.reply(unavailable(), ok);
    const { client } = clientFor(service);
    await call(client);
    expect(service.requests).toHaveLength(2);
    expect(service.requests[0]?.url).toBe(service.requests[1]?.url);
    expect(service.requests[0]?.body).toBe(service.requests[1]?.body);
  });

  it.each(MUTATIONS)('the mutation %s is not retried after a 503', async (_name, call) => {
    service.reply(unavailable());
    const { client, sleeps } = clientFor(service);
    const error = await rejectionOf(call(client));
    expect(error).toMatchObject({ status: 503 });
    expect(service.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it.each(MUTATIONS)('the mutation %s is not retried after a dropped connection either', async (_name, call) => {
    service.reply({ destroy: true });
    const { client, sleeps } = clientFor(service);
    const error = await rejectionOf(call(client));
    expect(error).toBeInstanceOf(NetworkError);
    expect(service.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it.each(MUTATIONS)('the mutation %s answered 502 or 504 by a gateway: sent once, and its answer lost, as a hang is', async (_name, call) => {
    service.reply(plainText(504, 'Gateway Timeout'), plainText(502, ''));
    const { client, sleeps } = clientFor(service);
    const timedOut = await rejectionOf(call(client));
    expect(timedOut).toBeInstanceOf(NetworkError);
    expect(timedOut).toMatchObject({ sent: true, message: "a gateway answered 504 (Gateway Timeout) in place of the service's answer" });
    expect(exitCodeOf(timedOut)).toBe(6);
    expect(await rejectionOf(call(client))).toMatchObject({ sent: true, message: "a gateway answered 502 in place of the service's answer" });
    expect(service.requests).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it("a write's 502 in v2's envelope is the service's own (its upstream failed): sent, and its fate unknown too", async () => {
    service.reply(json({ error: { code: 'UPSTREAM_ERROR', message: 'the provider did not answer' } }, 502));
    const transport = new Transport({
      apiUrl: service.apiUrl,
      token: TOKEN,
      timeoutMs: 5_000,
      userAgent: 'mq',
      dispatcher: service.dispatcher,
      dialect: V2_DIALECT,
    });
    const error = await rejectionOf(transport.send({ method: 'POST', path: '/submit', operation: 'mergeQueues.submitPullRequest', idempotent: false }));
    expect(error).toMatchObject({ sent: true, message: 'the service answered 502 (UPSTREAM_ERROR: the provider did not answer)' });
  });

  it('a read answered 502 or 504 is tried again, and ends as the service error it is', async () => {
    service.reply(plainText(504, 'Gateway Timeout'), plainText(502, 'Bad Gateway'), plainText(504, 'Gateway Timeout'));
    const { client } = clientFor(service);
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 504, message: 'Gateway Timeout' });
    expect(service.requests).toHaveLength(3);
  });

  it('makes no retry whose pause would end past the time the command has left', async () => {
    service.reply(unavailable({ 'retry-after': '3600' }), unavailable({ 'retry-after': '2' }), json(fixture.queue()));
    let left = 8_000;
    const { client, sleeps } = clientFor(service, { timeLeftMs: () => left });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toMatchObject({ status: 503 });
    expect(sleeps).toEqual([]);
    left = 2_000;
    await expect(client.call('getQueue', queueRef)).resolves.toMatchObject({ branch: 'main' });
    expect(sleeps).toEqual([2_000]);
  });

  it('gives up after the default 2 retries: 3 calls, the last ApiError, exit code 6', async () => {
    service.reply(plainText(500, 'boom 1'), plainText(502, 'boom 2'), plainText(503, 'boom 3'), json(fixture.queue()));
    const { client, sleeps } = clientFor(service);
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, message: 'boom 3' });
    expect(exitCodeOf(error)).toBe(6);
    expect(service.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it.each([0, 1, 4])('honours retries: %i', async (retries) => {
    for (let i = 0; i < 10; i++) service.reply(unavailable());
    const { client, sleeps } = clientFor(service, { retries });
    await rejectionOf(client.call('getQueue', queueRef));
    expect(service.requests).toHaveLength(retries + 1);
    expect(sleeps).toHaveLength(retries);
  });

  it('a 429 on a read is retried', async () => {
    service.reply(plainText(429, 'Too Many Requests'), json(fixture.queue()));
    const { client } = clientFor(service);
    await client.call('getQueue', queueRef);
    expect(service.requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 413, 422])('a %i on a read is not retried', async (status) => {
    service.reply(plainText(status, 'no'), json(fixture.queue()));
    const { client, sleeps } = clientFor(service);
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toMatchObject({ status });
    expect(service.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a read whose connection was dropped is retried', async () => {
    service.reply({ destroy: true }, json(fixture.queue()));
    const { client, sleeps } = clientFor(service);
    await expect(client.call('getQueue', queueRef)).resolves.toMatchObject({ branch: 'main' });
    expect(service.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  describe('how long it waits', () => {
    it('Retry-After in seconds: the sleep receives the header in ms', async () => {
      service.reply(unavailable({ 'retry-after': '2' }), plainText(429, 'slow down', { 'retry-after': '7' }), json(fixture.queue()));
      const { client, sleeps } = clientFor(service);
      await client.call('getQueue', queueRef);
      expect(sleeps).toEqual([2000, 7000]);
    });

    it('Retry-After is capped at 30 s', async () => {
      service.reply(unavailable({ 'retry-after': '3600' }), json(fixture.queue()));
      const { client, sleeps } = clientFor(service);
      await client.call('getQueue', queueRef);
      expect(sleeps).toEqual([30_000]);
    });

    it('Retry-After: 0 retries at once', async () => {
      service.reply(unavailable({ 'retry-after': '0' }), json(fixture.queue()));
      const { client, sleeps } = clientFor(service);
      await client.call('getQueue', queueRef);
      expect(sleeps).toEqual([0]);
    });

    it('Retry-After as an HTTP date: the time until then', async () => {
      // HTTP dates have whole seconds: 5 s ahead is between 4 and 5 s ahead once truncated.
      const at = new Date(Date.now() + 5_000).toUTCString();
      service.reply(unavailable({ 'retry-after': at }), json(fixture.queue()));
      const { client, sleeps } = clientFor(service);
      await client.call('getQueue', queueRef);
      expect(sleeps).toHaveLength(1);
      expect(sleeps[0]).toBeGreaterThan(3_000);
      expect(sleeps[0]).toBeLessThanOrEqual(5_000);
    });

    it('Retry-After as a date in the past: no wait', async () => {
      service.reply(unavailable({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), json(fixture.queue()));
      const { client, sleeps } = clientFor(service);
      await client.call('getQueue', queueRef);
      expect(sleeps).toEqual([0]);
    });

    it('without Retry-After (or with one it cannot read): exponential backoff with jitter', async () => {
      service.reply(unavailable(), unavailable({ 'retry-after': 'soon' }), json(fixture.queue()));
      const { client, sleeps } = clientFor(service);
      await client.call('getQueue', queueRef);
      expect(sleeps).toHaveLength(2);
      expect(sleeps[0]).toBeGreaterThanOrEqual(125);
      expect(sleeps[0]).toBeLessThanOrEqual(250);
      expect(sleeps[1]).toBeGreaterThanOrEqual(250);
      expect(sleeps[1]).toBeLessThanOrEqual(500);
    });
  });

  it('announces each retry before its pause: what failed, attempt n of m, the pause', async () => {
    service.reply(unavailable({ 'retry-after': '2' }), plainText(502, 'bad gateway'), json(fixture.queue()));
    const notices: Array<{ attempt: number; tries: number; delayMs: number; error: Error }> = [];
    const { client, sleeps } = clientFor(service, { onRetry: (notice) => notices.push(notice) });
    await client.call('getQueue', queueRef);
    expect(notices.map((n) => [n.attempt, n.tries, n.delayMs, n.error.message])).toEqual([
      [1, 3, 2_000, 'Service Unavailable'],
      [2, 3, sleeps[1], 'bad gateway'],
    ]);
  });

  it('a 429 that runs out of retries carries its Retry-After, for a poll to honour', async () => {
    service.reply(...Array.from({ length: 3 }, () => plainText(429, 'slow down', { 'retry-after': '12' })));
    const { client } = clientFor(service);
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 12_000 });
  });

  it('the backoff grows, with jitter, but never past 5s', async () => {
    for (let i = 0; i < 10; i++) service.reply(unavailable());
    const { client, sleeps } = clientFor(service, { retries: 9 });
    await rejectionOf(client.call('getQueue', queueRef));
    expect(sleeps).toHaveLength(9);
    sleeps.forEach((ms, i) => {
      const step = Math.min(250 * 2 ** i, 5_000);
      expect(ms).toBeGreaterThanOrEqual(step / 2);
      expect(ms).toBeLessThanOrEqual(step);
    });
  });

  it('without an injected sleep it really waits (Retry-After: 0 keeps it short)', async () => {
    service.reply(unavailable({ 'retry-after': '0' }), json(fixture.queue()));
    const { client } = clientFor(service, { sleep: undefined });
    await expect(client.call('getQueue', queueRef)).resolves.toMatchObject({ branch: 'main' });
    expect(service.requests).toHaveLength(2);
  });
});
