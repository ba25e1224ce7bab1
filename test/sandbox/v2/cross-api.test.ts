// v1 and v2 over one state: a PR submitted through one API is read, changed and cancelled through the other; a
// queue created through either is the other's; runs and testing results read the same.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox } from '../../support/v2.js';

const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: WIDGETS, targetBranch: 'main' };

describe('v1 and v2 over one state', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('reads through v2 a PR submitted through v1', async () => {
    expect((await sandbox.v1Call('createQueue', MAIN)).status).toBe(200);
    expect((await sandbox.v1Call('submitPullRequest', { ...MAIN, pr: { number: 12 }, priority: 'high' })).status).toBe(200);
    const repositories = await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } });
    const repositoryId = repositories.body.data[0].id;
    const found = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: '12' } });
    expect(found.body.data[0]).toMatchObject({ number: 12, queueEntry: { state: 'testing', priorityName: 'high', priorityValue: 10 } });
    const v1 = (await sandbox.v1Call('getSubmittedPullRequest', { ...MAIN, pr: { number: 12 } })).body as { id: string };
    expect(found.body.data[0].queueEntry.id).toBe(v1.id);
  });

  it('keeps one entry per PR: submitted to another queue of its repository, it leaves the first (helper-101)', async () => {
    const RELEASE = { ...MAIN, targetBranch: 'release' };
    for (const queue of [MAIN, RELEASE]) expect((await sandbox.v1Call('createQueue', queue)).status).toBe(200);
    expect((await sandbox.v1Call('submitPullRequest', { ...MAIN, pr: { number: 5 } })).status).toBe(200);
    expect((await sandbox.v1Call('submitPullRequest', { ...RELEASE, pr: { number: 5 } })).status).toBe(200);
    const left = (await sandbox.v1Call('getSubmittedPullRequest', { ...MAIN, pr: { number: 5 }, includeTimeline: true })).body as {
      state: string;
      timeline: { state: string; reason?: string }[];
    };
    expect(left.state).toBe('cancelled');
    expect(left.timeline).toContainEqual(expect.objectContaining({ state: 'cancelled', reason: 'user_requested' }));
    const queued = (await sandbox.v1Call('getSubmittedPullRequest', { ...RELEASE, pr: { number: 5 } })).body as {
      id: string;
      isCurrentlySubmittedToQueue: boolean;
    };
    expect(queued.isCurrentlySubmittedToQueue).toBe(true);
    // v2's one queueEntry is the one in the queue it is in now.
    const repositoryId = (await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } })).body.data[0]
      .id;
    const found = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: '5' } });
    expect(found.body.data[0].queueEntry.id).toBe(queued.id);
    expect(((await sandbox.v1Call('getQueue', MAIN)).body as { enqueuedPullRequests: unknown[] }).enqueuedPullRequests).toEqual([]);
  });

  it('shows through v1 a queue paused through v2', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.pause', { params: { id: queueId } });
    expect(((await sandbox.v1Call('getQueue', MAIN)).body as { state: string }).state).toBe('paused');
    await sandbox.v1Call('updateQueue', { ...MAIN, state: 'draining' });
    expect((await sandbox.call('mergeQueues.get', { params: { id: queueId } })).body.state).toBe('draining');
  });

  it('shows through v1 a PR dequeued through v2, and through v2 a PR cancelled through v1', async () => {
    const { queueId } = await queueIn(sandbox);
    const first = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } });
    await sandbox.call('pullRequests.dequeue', { params: { id: first.body.id } });
    expect(((await sandbox.v1Call('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 } })).body as { state: string }).state).toBe('cancelled');
    const second = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 2 } });
    await sandbox.v1Call('cancelPullRequest', { ...MAIN, pr: { number: 2 } });
    expect((await sandbox.call('pullRequests.get', { params: { id: second.body.id } })).body.queueEntry.state).toBe('cancelled');
  });

  it('reads a merged PR’s verification run and testing results through v2, the run v1 names', async () => {
    const { queueId } = await queueIn(sandbox);
    const pr = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 4 } });
    await sandbox.control('advance', { seconds: 600 });
    const merged = await sandbox.call('pullRequests.get', { params: { id: pr.body.id } });
    expect(merged.body).toMatchObject({ state: 'merged', isCurrentlySubmittedToQueue: false, queueEntry: { state: 'merged' } });
    const runId = merged.body.queueEntry.verifiedByVerificationRunId as string;
    const v1 = (await sandbox.v1Call('getSubmittedPullRequest', { ...MAIN, pr: { number: 4 } })).body as { verifiedByTestRun: string };
    expect(runId).toBe(v1.verifiedByTestRun);
    const run = await sandbox.call('mergeQueueVerificationRuns.get', { params: { id: runId } });
    expect(run.body).toMatchObject({
      id: runId,
      isBisection: false,
      status: 'succeeded',
      testedPullRequests: [{ id: pr.body.id, number: 4 }],
      dependentPullRequests: [],
      checks: expect.arrayContaining([expect.objectContaining({ name: 'test', kind: 'checkRun', status: 'completed', conclusion: 'success' })]),
    });
    const results = await sandbox.call('mergeQueues.listTestingResults', { params: { id: queueId }, query: { since: '2025-12-31T00:00:00Z' } });
    expect(results.body.data).toEqual([
      {
        pullRequestNumber: 4,
        endedAt: '2026-01-01T00:05:00.000Z',
        testingDurationMs: 300_000,
        outcome: 'passed',
        entryConclusion: 'merged',
        isBisection: false,
        startedBisection: false,
        verificationRunId: runId,
      },
    ]);
    const unknown = await sandbox.call('mergeQueueVerificationRuns.get', { params: { id: 'no-such-run' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('VERIFICATION_RUN_NOT_FOUND');
  });

  it('names a bisection’s run <id>-bisection on v1, and takes either; v2 names it by its id alone, and refuses the suffix (helper-99)', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.v1Call('updateQueue', { ...MAIN, batch: true, batchingMinSize: 2, batchingMaxWaitTimeMinutes: 1 });
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 2, testOutcome: 'fail' });
    for (const number of [1, 2]) expect((await sandbox.v1Call('submitPullRequest', { ...MAIN, pr: { number } })).status).toBe(200);
    // The batch of #1 and #2 failed; #1 is tested alone in the bisection's first run.
    await sandbox.control('advance', { seconds: 400 });
    const pr = (await sandbox.v1Call('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 } })).body as { state: string; verifiedByTestRun: string };
    expect(pr.state).toBe('testing');
    expect(pr.verifiedByTestRun).toMatch(/^[0-9a-f-]{36}-bisection$/);
    const runId = pr.verifiedByTestRun.slice(0, 36);
    const details = async (testRunId: string) => sandbox.v1Call('getMergeQueueTestingDetails', { ...MAIN, testRunId });
    for (const asked of [pr.verifiedByTestRun, runId]) {
      expect((await details(asked)).body).toMatchObject({ testRunId: pr.verifiedByTestRun, queueType: 'bisection' });
    }
    const order = await sandbox.call('mergeQueues.order', { params: { id: queueId } });
    expect(order.body.batches).toEqual([expect.objectContaining({ verificationRunId: runId, isBisection: true })]);
    expect((await sandbox.call('mergeQueueVerificationRuns.get', { params: { id: runId } })).body).toMatchObject({ id: runId, isBisection: true });
    const suffixed = await sandbox.call('mergeQueueVerificationRuns.get', { params: { id: pr.verifiedByTestRun } });
    expect(suffixed.status).toBe(404);
    expect(suffixed.body.error.code).toBe('VERIFICATION_RUN_NOT_FOUND');

    // Both bisection runs over: v1's rows name them with the suffix, and the batch's run without; v2's rows by id alone.
    await sandbox.control('advance', { seconds: 700 });
    const v1Rows = (
      (await sandbox.v1Call('listMergeQueueTestingResults', { ...MAIN, since: '2025-12-31T00:00:00Z' })).body as {
        testingResults: { prNumber: number; testRunId: string; bisection?: string }[];
      }
    ).testingResults;
    const bisected = v1Rows.filter((row) => row.bisection === 'in_bisection');
    const batch = v1Rows.filter((row) => row.bisection === 'entered_bisection');
    expect(bisected.map((row) => row.prNumber).sort()).toEqual([1, 2]);
    expect(batch.map((row) => row.prNumber).sort()).toEqual([1, 2]);
    for (const row of bisected) expect(row.testRunId).toMatch(/^[0-9a-f-]{36}-bisection$/);
    for (const row of batch) expect(row.testRunId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bisected.map((row) => row.testRunId)).toContain(pr.verifiedByTestRun);
    const notBisection = await details(`${batch[0]!.testRunId}-bisection`);
    expect(notBisection).toEqual({ status: 404, body: `no test run ${batch[0]!.testRunId}-bisection in the queue for github.com/acme/widgets branch main` });
    const v2Rows = (await sandbox.call('mergeQueues.listTestingResults', { params: { id: queueId }, query: { since: '2025-12-31T00:00:00Z' } })).body.data as {
      pullRequestNumber: number;
      isBisection: boolean;
      verificationRunId: string;
    }[];
    expect(v2Rows.map((row) => row.verificationRunId).sort()).toEqual(v1Rows.map((row) => row.testRunId.replace(/-bisection$/, '')).sort());
    const runs = (await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId } })).body.data as { id: string }[];
    expect(runs.map((run) => run.id)).toContain(runId);
    for (const run of runs) expect(run.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses testing results without since, or over 45 days, with 400', async () => {
    const { queueId } = await queueIn(sandbox);
    const missing = await sandbox.call('mergeQueues.listTestingResults', { params: { id: queueId }, invalid: true });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('since');
    const long = await sandbox.call('mergeQueues.listTestingResults', { params: { id: queueId }, query: { since: '2025-01-01T00:00:00Z' } });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_FAILED');
    const notATime = await sandbox.call('mergeQueues.listTestingResults', { params: { id: queueId }, query: { since: 'yesterday' }, invalid: true });
    expect(notATime.status).toBe(400);
  });
});

// api/v2 NOTES §3: an entry is reused when a cancelled or failed PR is submitted to the same queue again, and
// replaced when it was torn down (the PR moved to another queue). Its id is v1's `id` and v2's `queueEntry.id`.
describe('a PR submitted again: its queue entry reused or made anew', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });
  const RELEASE = { ...MAIN, targetBranch: 'release' };
  const v1Read = async (queue: typeof MAIN, number: number, includeTimeline = false) =>
    (await sandbox.v1Call('getSubmittedPullRequest', { ...queue, pr: { number }, includeTimeline })).body as {
      id: string;
      state: string;
      timeline: { state: string }[];
    };
  const v1Submit = async (queue: typeof MAIN, number: number) =>
    expect((await sandbox.v1Call('submitPullRequest', { ...queue, pr: { number } })).status).toBe(200);

  it('keeps the entry of a cancelled or failed PR submitted to the same queue, on both faces; its history reads as its stays', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 2, testOutcome: 'fail' });
    // #1 submitted through v2, dequeued, submitted again through v1.
    const first = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } });
    const entry = first.body.queueEntry.id as string;
    expect((await sandbox.call('pullRequests.dequeue', { params: { id: first.body.id } })).status).toBe(200);
    await v1Submit(MAIN, 1);
    const again = await v1Read(MAIN, 1, true);
    expect(again).toMatchObject({ id: entry, state: 'testing' });
    expect((await sandbox.call('pullRequests.get', { params: { id: first.body.id } })).body.queueEntry).toMatchObject({ id: entry, state: 'testing' });
    // #2 fails, and is submitted again through v2: its entry too.
    await v1Submit(MAIN, 2);
    await sandbox.control('advance', { seconds: 600 });
    const failed = await v1Read(MAIN, 2);
    expect(failed.state).toBe('failed');
    const second = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 2 } });
    expect(second.status, second.text).toBe(201);
    expect(second.body.queueEntry.id).toBe(failed.id);
    expect((await v1Read(MAIN, 2)).id).toBe(failed.id);
    // The entry's history: both stays, in order, the same on both faces, and paged one step at a time, each once.
    const stays = ['not_ready', 'pending', 'testing', 'cancelled', 'not_ready', 'pending', 'testing'];
    expect(again.timeline.map((step) => step.state).reverse()).toEqual(stays);
    const steps: { state: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: first.body.id }, query: { limit: 1, ...(cursor && { cursor }) } });
      steps.push(...page.body.data);
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
    } while (cursor !== undefined);
    // (#1 merged meanwhile, as #2 failed.)
    expect(steps.map((step) => step.state)).toEqual(['notReady', 'pending', 'testing', 'cancelled', 'notReady', 'pending', 'testing', 'testsPassed', 'merged']);
  });

  it('makes a new entry for a merged PR taken in again (v1), and for one whose entry another queue took since', async () => {
    for (const queue of [MAIN, RELEASE]) expect((await sandbox.v1Call('createQueue', queue)).status).toBe(200);
    // #3 merges, and v1 takes it in again: a new entry.
    await v1Submit(MAIN, 3);
    await sandbox.control('advance', { seconds: 600 });
    const merged = await v1Read(MAIN, 3);
    expect(merged.state).toBe('merged');
    await v1Submit(MAIN, 3);
    expect((await v1Read(MAIN, 3)).id).not.toBe(merged.id);
    // #4 cancelled in main, then submitted to release (its entry replaced), then to main again: a new entry in main.
    await v1Submit(MAIN, 4);
    await sandbox.v1Call('cancelPullRequest', { ...MAIN, pr: { number: 4 } });
    const cancelled = await v1Read(MAIN, 4);
    await v1Submit(RELEASE, 4);
    const released = await v1Read(RELEASE, 4);
    expect(released.id).not.toBe(cancelled.id);
    await v1Submit(MAIN, 4);
    const back = await v1Read(MAIN, 4);
    expect([cancelled.id, released.id]).not.toContain(back.id);
    // Moved away (its entry in release torn down), then cancelled in main and submitted there again: main's entry kept.
    await sandbox.v1Call('cancelPullRequest', { ...MAIN, pr: { number: 4 } });
    await v1Submit(MAIN, 4);
    expect((await v1Read(MAIN, 4)).id).toBe(back.id);
  });

  // The docs' history page: "the state transitions of this pull request's queue entry"; QueueEntry.createdAt: "First
  // submission (entry is reused across resubmissions)". Until helper-129 both were the PR's, over every queue.
  it('gives a moved PR the history and the createdAt of its entry in the queue it moved to, and a reused entry its first', async () => {
    for (const queue of [MAIN, RELEASE]) expect((await sandbox.v1Call('createQueue', queue)).status).toBe(200);
    const repositoryId = (await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } })).body.data[0]
      .id;
    const read = async (number: number) =>
      (await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: String(number) } })).body.data[0];
    const history = async (id: string) =>
      (await sandbox.call('pullRequests.queueEntryHistory', { params: { id } })).body.data.map((t: { state: string; changedAt: string }) => [
        t.state,
        t.changedAt,
      ]);
    // #6 tests in main, and a minute on moves to release: main's entry torn down, release's new.
    await v1Submit(MAIN, 6);
    await sandbox.control('advance', { seconds: 60 });
    await v1Submit(RELEASE, 6);
    const moved = await read(6);
    expect(moved.queueEntry).toMatchObject({ mergeQueueId: expect.any(String), state: 'notReady', createdAt: '2026-01-01T00:01:00.000Z' });
    expect(moved.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(await history(moved.id)).toEqual([['notReady', '2026-01-01T00:01:00.000Z']]);
    const batch = await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: moved.id } });
    expect(batch.body.data[0].transitions.map((t: { state: string }) => t.state)).toEqual(['notReady']);
    // Main's list still shows the entry #6 had there, made when it was.
    const mainId = (await sandbox.call('mergeQueues.list')).body.data.find((q: { targetBranch: string }) => q.targetBranch === 'main').id;
    const listed = await sandbox.call('mergeQueues.listPullRequests', { params: { id: mainId }, query: { state: 'cancelled' } });
    expect(listed.body.data.find((pr: { number: number }) => pr.number === 6).queueEntry.createdAt).toBe('2026-01-01T00:00:00.000Z');
    // #7 cancelled in main (at 00:01) and submitted there again a minute on: one entry, made at the first submission.
    await v1Submit(MAIN, 7);
    await sandbox.v1Call('cancelPullRequest', { ...MAIN, pr: { number: 7 } });
    await sandbox.control('advance', { seconds: 60 });
    await v1Submit(MAIN, 7);
    const reused = await read(7);
    expect(reused.queueEntry.createdAt).toBe('2026-01-01T00:01:00.000Z');
    expect((await history(reused.id)).map(([state]: string[]) => state)).toEqual([
      'notReady',
      'pending',
      'testing',
      'cancelled',
      'notReady',
      'pending',
      'testing',
    ]);
  });
});
