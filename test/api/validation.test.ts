// A request the client would not send: a UsageError (exit 2) before anything leaves the process.
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MergeQueueClient } from '../../src/api/v1/client.js';
import { BODY_LIMIT_BYTES } from '../../src/model/vocabulary.js';
import { exitCodeOf, UsageError } from '../../src/errors.js';
import { validateRequest } from '../support/openapi/validate.js';
import * as fixture from './fixtures.js';
import { clientFor, json, rejectionOf, REPO, startHttpService, startMockService, type FakeService } from './harness.js';

const queueRef = { repo: REPO, targetBranch: 'main' };
const prRef = (number: number) => ({ ...queueRef, pr: { number } });
const SHA = 'abc123';

/** Every method that takes a PR number, called with `number`. */
const PR_METHODS: [string, (c: MergeQueueClient, number: number) => Promise<unknown>][] = [
  ['submitPullRequest', (c, n) => c.call('submitPullRequest', prRef(n))],
  ['cancelPullRequest', (c, n) => c.call('cancelPullRequest', prRef(n))],
  ['restartTestsOnPullRequest', (c, n) => c.call('restartTestsOnPullRequest', prRef(n))],
  ['getSubmittedPullRequest', (c, n) => c.call('getSubmittedPullRequest', prRef(n))],
  ['setImpactedTargets', (c, n) => c.call('setImpactedTargets', { ...queueRef, pr: { number: n, sha: SHA }, impactedTargets: [] })],
];

async function expectRefusedBeforeSending(service: FakeService, promise: Promise<unknown>, mentions: RegExp) {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(UsageError);
  expect(exitCodeOf(error)).toBe(2);
  expect(error.message).toMatch(mentions);
  expect(service.requests).toHaveLength(0);
}

describe.each([
  ['http server', startHttpService],
  ['MockAgent', startMockService],
] as const)('validation before sending, seen by a %s', (_kind, start) => {
  let service: FakeService;
  let client: MergeQueueClient;
  beforeEach(async () => {
    service = await start();
    client = clientFor(service).client;
  });
  afterEach(async () => {
    await service.close();
  });

  describe('PR numbers', () => {
    it.each([0, -1, 1.5, 2147483648, Number.NaN, Number.POSITIVE_INFINITY])('submitPullRequest refuses %d, and sends nothing', async (number) => {
      await expectRefusedBeforeSending(service, client.call('submitPullRequest', prRef(number)), /pr\.number/);
    });

    it.each(PR_METHODS)('%s refuses PR number 0, and sends nothing', async (_name, call) => {
      await expectRefusedBeforeSending(service, call(client, 0), /pr\.number/);
    });

    it.each([1, 2147483647])('submitPullRequest accepts %i and sends it as is', async (number) => {
      await client.call('submitPullRequest', prRef(number));
      expect(service.requests).toHaveLength(1);
      const body: unknown = JSON.parse(service.requests[0]?.body ?? '');
      expect(body).toMatchObject({ pr: { number } });
      expect(validateRequest('submitPullRequest', body)).toEqual([]);
    });
  });

  describe('priorities', () => {
    it.each(['urgent', 'high', 'medium', 'low', 0, 255] as const)('accepts %s and sends it as given', async (priority) => {
      await client.call('submitPullRequest', { ...prRef(42), priority });
      const body: unknown = JSON.parse(service.requests[0]?.body ?? '');
      expect(body).toMatchObject({ priority });
      expect(validateRequest('submitPullRequest', body)).toEqual([]);
    });

    it.each([256, 'asap', -1, 2.5, ''])('refuses %j, and sends nothing', async (priority) => {
      const bad = { ...prRef(42), priority } as unknown as never;
      await expectRefusedBeforeSending(service, client.call('submitPullRequest', bad), /priority/);
    });
  });

  describe('the 20 MiB body limit', () => {
    /** A setImpactedTargets body whose JSON is at least `bytes` long (exactly, when reachable), one target of `char`s. */
    function bodyOfSize(bytes: number, char = 'x') {
      const base = Buffer.byteLength(JSON.stringify({ ...queueRef, pr: { number: 42, sha: SHA }, impactedTargets: [''] }));
      const count = Math.ceil((bytes - base) / Buffer.byteLength(char));
      return { ...queueRef, pr: { number: 42, sha: SHA }, impactedTargets: [char.repeat(count)] };
    }

    // 20 MiB through a real socket: a loaded machine takes seconds, so neither the request nor the test has a
    // time limit it could reach.
    it('sends a body of exactly 20 MiB', { timeout: 180_000 }, async () => {
      await clientFor(service, { timeoutMs: 180_000 }).client.call('setImpactedTargets', bodyOfSize(BODY_LIMIT_BYTES));
      expect(service.requests).toHaveLength(1);
      expect(Buffer.byteLength(service.requests[0]?.body ?? '')).toBe(BODY_LIMIT_BYTES);
    });

    it('refuses a body one byte over, and sends nothing', async () => {
      const body = bodyOfSize(BODY_LIMIT_BYTES + 1);
      expect(Buffer.byteLength(JSON.stringify(body))).toBe(BODY_LIMIT_BYTES + 1);
      await expectRefusedBeforeSending(service, client.call('setImpactedTargets', body), /20 MiB/);
    });

    it('counts bytes, not characters', async () => {
      // 2-byte characters: fewer characters than the limit, more bytes.
      const body = bodyOfSize(BODY_LIMIT_BYTES + 1, 'é');
      expect(JSON.stringify(body).length).toBeLessThan(BODY_LIMIT_BYTES);
      expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(BODY_LIMIT_BYTES);
      await expectRefusedBeforeSending(service, client.call('setImpactedTargets', body), /20 MiB/);
    });
  });

  describe('other fields', () => {
    const refusals: [string, (c: MergeQueueClient) => Promise<unknown>, RegExp][] = [
      ['an empty target branch', (c) => c.call('getQueue', { repo: REPO, targetBranch: '' }), /targetBranch/],
      ['an empty repository owner', (c) => c.call('getQueue', { repo: { ...REPO, owner: '' }, targetBranch: 'main' }), /repo\.owner/],
      ['a test id that is not a UUID', (c) => c.call('getTestDetails', { repo: REPO, org_url_slug: 'acme', test_id: 'not-a-uuid' }), /test_id/],
      ['take 0', (c) => c.call('listPullRequests', { ...queueRef, take: 0 }), /take/],
      ['take 101', (c) => c.call('listPullRequests', { ...queueRef, take: 101 }), /take/],
      ['since without a time', (c) => c.call('listPullRequests', { ...queueRef, since: '2026-11-21' }), /since/],
      ['an unknown state filter', (c) => c.call('listPullRequests', { ...queueRef, state: 'exploded' as 'merged' }), /state/],
      [
        'a PR looked up by number and branch at once',
        (c) => c.call('getSubmittedPullRequest', { ...queueRef, pr: { number: 1, branch: 'x' } as unknown as { number: number } }),
        /pr/,
      ],
      ['a testing look-up without a testRunId', (c) => c.call('getMergeQueueTestingDetails', queueRef as { testRunId: string } & typeof queueRef), /testRunId/],
      ['updateQueue to switching_modes, which only the service enters', (c) => c.call('updateQueue', { ...queueRef, state: 'switching_modes' }), /state/],
      ['updateQueue concurrency 0', (c) => c.call('updateQueue', { ...queueRef, concurrency: 0 }), /concurrency/],
      ['createQueue mode "serial"', (c) => c.call('createQueue', { ...queueRef, mode: 'serial' as 'single' }), /mode/],
      [
        'impactedTargets "any"',
        (c) => c.call('setImpactedTargets', { ...queueRef, pr: { number: 1, sha: SHA }, impactedTargets: 'any' as 'ALL' }),
        /impactedTargets/,
      ],
    ];

    it.each(refusals)('refuses %s, and sends nothing', async (_name, call, mentions) => {
      await expectRefusedBeforeSending(service, call(client), mentions);
    });
  });
});

describe('nothing reaches undici (a MockAgent interceptor that is never consumed)', () => {
  it.each([0, -1, 1.5, 2147483648])('PR number %d', async (number) => {
    const mockAgent = new MockAgent();
    mockAgent.disableNetConnect();
    mockAgent.get('http://mq.invalid').intercept({ path: '/v1/submitPullRequest', method: 'POST' }).reply(200, '{}');
    const { client } = clientFor({ apiUrl: 'http://mq.invalid/v1', dispatcher: mockAgent });
    try {
      const error = await rejectionOf(client.call('submitPullRequest', prRef(number)));
      expect(error).toBeInstanceOf(UsageError);
      expect(mockAgent.pendingInterceptors()).toHaveLength(1);
      // The same interceptor is consumed by a valid request: the check above can fail.
      await client.call('submitPullRequest', prRef(1));
      expect(mockAgent.pendingInterceptors()).toHaveLength(0);
    } finally {
      await mockAgent.close();
    }
  });
});

describe('a valid request still gets its answer checked', () => {
  it('a read that passed validation is answered', async () => {
    const service = await startHttpService();
    try {
      service.reply(json(fixture.queue()));
      await expect(clientFor(service).client.call('getQueue', queueRef)).resolves.toMatchObject({ branch: 'main' });
    } finally {
      await service.close();
    }
  });
});
