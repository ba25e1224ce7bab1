// The v1 API as the service serves it today, read by the adapter whichever way the service words what its docs
// leave open: the batch read's list and `notFound`, the timeline's entries, the estimate's field and shape, the
// testing results. Against a scripted service, so each shape is the service's, not the sandbox's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createV1Service } from '../../src/api/v1/v1-service.js';
import type { MergeQueueService } from '../../src/model/service.js';
import * as fixture from './fixtures.js';
import { json, REPO, startHttpService, TOKEN, USER_AGENT, type FakeService } from './harness.js';

const QUEUE = { repo: REPO, targetBranch: 'main' };
let fake: FakeService;
let service: MergeQueueService;

beforeEach(async () => {
  fake = await startHttpService();
  service = createV1Service({ apiUrl: fake.apiUrl, token: TOKEN, timeoutMs: 5_000, userAgent: USER_AGENT, dispatcher: fake.dispatcher, sleep: async () => {} });
});
afterEach(async () => {
  await service.close();
  await fake.close();
});

const sent = (i: number) => JSON.parse(fake.requests[i]!.body) as Record<string, unknown>;

describe('the batch read, either way the service answers', () => {
  it.each([
    ['{ pullRequests, notFound: [{ number }] } (the sandbox)', { pullRequests: [fixture.submittedPullRequest({ prNumber: 1 })], notFound: [{ number: 2 }] }],
    ['{ submittedPullRequests, notFound: [numbers] }', { submittedPullRequests: [fixture.submittedPullRequest({ prNumber: 1 })], notFound: [2] }],
    ['{ pullRequests, notFound: [{ prNumber }] }', { pullRequests: [fixture.submittedPullRequest({ prNumber: 1 })], notFound: [{ prNumber: 2 }] }],
  ])('%s', async (_shape, answer) => {
    fake.reply(json(answer));
    const batch = await service.getSubmittedPullRequests(QUEUE, [1, 2]);
    expect(batch.pullRequests.map((pr) => pr.prNumber)).toEqual([1]);
    expect(batch.notFound).toEqual([2]);
    expect(batch.failed).toEqual([]);
    expect(fake.requests.map((r) => r.url)).toEqual(['/v1/getSubmittedPullRequests']);
    expect(sent(0)).toEqual({ ...QUEUE, prs: [{ number: 1 }, { number: 2 }] });
  });
});

describe('getSubmittedPullRequest with its timeline and the estimate', () => {
  it('sends the flags only when asked, so a plain read is the request it always was', async () => {
    fake.reply(json(fixture.submittedPullRequest()), json(fixture.submittedPullRequest()));
    await service.getSubmittedPullRequest(QUEUE, { number: 42 });
    await service.getSubmittedPullRequest(QUEUE, { number: 42 }, { timeline: true, estimate: true });
    expect(sent(0)).toEqual({ ...QUEUE, pr: { number: 42 } });
    expect(sent(1)).toEqual({ ...QUEUE, pr: { number: 42 }, includeTimeline: true, includeEstimatedTimeToMerge: true });
  });

  it('reads the timeline, passing over entries without a state or a time, and v2’s changedAt as the time', async () => {
    const timeline = [
      { state: 'TESTING', timestamp: '2026-01-01T00:05:00Z', testRun: { id: 'r' } },
      { state: 'pending', changedAt: '2026-01-01T00:01:00Z', reason: 'merge_item_now_ready' },
      { reason: 'no state' },
      'junk',
    ];
    fake.reply(json(fixture.submittedPullRequest({ timeline })));
    const pr = await service.getSubmittedPullRequest(QUEUE, { number: 42 }, { timeline: true });
    expect(pr.timeline).toEqual([
      { state: 'testing', timestamp: '2026-01-01T00:05:00Z', testRun: { id: 'r' } },
      { state: 'pending', changedAt: '2026-01-01T00:01:00Z', timestamp: '2026-01-01T00:01:00Z', reason: 'merge_item_now_ready' },
    ]);
  });

  it('reads each step’s reason in lower snake case, from the step or from its state’s object', async () => {
    const timeline = [
      { state: 'failed', timestamp: '2026-01-01T00:09:00Z', failure: { reason: 'TEST_RUN_TIMEOUT', blockReasons: [] } },
      { state: 'cancelled', timestamp: '2026-01-01T00:08:00Z', cancellation: { reason: 'pr_closed' } },
      { state: 'not_ready', timestamp: '2026-01-01T00:07:00Z', reason: 'notReady' },
      { state: 'pending', timestamp: '2026-01-01T00:06:00Z', reason: 'a free text, kept' },
    ];
    fake.reply(json(fixture.submittedPullRequest({ timeline, estimatedTimeToMerge: { status: 'unavailable', reason: 'QUEUE_PAUSED' } })));
    const pr = await service.getSubmittedPullRequest(QUEUE, { number: 42 }, { timeline: true, estimate: true });
    expect(pr.timeline?.map((step) => step.reason)).toEqual(['test_run_timeout', 'pr_closed', 'not_ready', 'a free text, kept']);
    expect(pr.estimatedTimeToMerge).toEqual({ status: 'unavailable', reason: 'queue_paused' });
  });

  const available = { status: 'available', computedAt: '2026-01-01T00:00:00Z', kind: 'merge', estimatedAt: '2026-01-01T00:10:00Z' };
  it.each([
    ['estimatedTimeToMerge (the sandbox)', { estimatedTimeToMerge: available }, available],
    ['estimate', { estimate: available }, available],
    ['queueEntryEstimate (v2’s name)', { queueEntryEstimate: available }, available],
    ['a bare time', { estimatedTimeToMerge: '2026-01-01T00:10:00Z' }, { status: 'available', kind: 'merge', estimatedAt: '2026-01-01T00:10:00Z' }],
    [
      'unavailable, with a reason as an object',
      { estimatedTimeToMerge: { status: 'unavailable', reason: { code: 'QUEUE_PAUSED' } } },
      { status: 'unavailable', reason: '{"code":"QUEUE_PAUSED"}' },
    ],
    [
      'pending failure, waiting on PRs by number or by object',
      { estimatedTimeToMerge: { ...available, kind: 'pendingFailureResolution', waitingFor: [3, { prNumber: 4 }] } },
      { ...available, kind: 'pendingFailureResolution', waitingFor: [3, 4] },
    ],
  ])('reads the estimate from %s', async (_shape, fields, expected) => {
    fake.reply(json(fixture.submittedPullRequest(fields)));
    const pr = await service.getSubmittedPullRequest(QUEUE, { number: 42 }, { estimate: true });
    expect(pr.estimatedTimeToMerge).toEqual(expected);
    expect(pr).not.toHaveProperty('estimate');
    expect(pr).not.toHaveProperty('queueEntryEstimate');
  });

  it('a service that gives neither answers the record alone', async () => {
    fake.reply(json(fixture.submittedPullRequest()));
    const pr = await service.getSubmittedPullRequest(QUEUE, { number: 42 }, { timeline: true, estimate: true });
    expect(pr).not.toHaveProperty('timeline');
    expect(pr).not.toHaveProperty('estimatedTimeToMerge');
  });
});

describe('listTestingResults', () => {
  it('sends the window and the page, and reads the rows; totalItems absent counts the rows', async () => {
    const rows = [{ prNumber: 1, testRunId: 'r1', outcome: 'passed', testingDurationMs: 1000, extra: true }];
    fake.reply(json({ testingResults: rows }));
    const page = await service.listTestingResults(QUEUE, { since: '2026-01-01T00:00:00Z', offset: 0, take: 100 });
    expect(sent(0)).toEqual({ ...QUEUE, since: '2026-01-01T00:00:00Z', offset: 0, take: 100 });
    expect(fake.requests[0]!.url).toBe('/v1/listMergeQueueTestingResults');
    expect(page).toEqual({ testingResults: rows, totalItems: 1 });
  });
});
