// v2's verification-run lists and queue-entry history over real HTTP (NOTES §10, §13): newest-first run pages of a
// queue (one status, createdAfter strictly after) and of a PR (createdAfter refused), a PR's transitions oldest
// first or newest first, the batch read of several PRs' timelines; each error code the sandbox gives them, the
// sandbox's choices of §17 that concern them, and the same history and runs read through v1 and v2.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox, type V2Answer, type V2Call, type V2Fixture } from '../../support/v2.js';

const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: WIDGETS, targetBranch: 'main' };
const UNKNOWN_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

async function submit(sandbox: V2Fixture, queueId: string, number: number): Promise<string> {
  const answer = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

/** Every row of a list, page by page (`limit` each), checking each page's shape. */
async function allPages(sandbox: V2Fixture, operationId: string, call: V2Call, limit: number): Promise<unknown[]> {
  const rows: unknown[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page: V2Answer = await sandbox.call(operationId, { ...call, query: { ...call.query, limit, ...(cursor !== undefined && { cursor }) } });
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.length).toBeLessThanOrEqual(limit);
    rows.push(...page.body.data);
    expect(page.body.hasMore).toBe(page.body.nextCursor !== null);
    if (!page.body.hasMore) return rows;
    cursor = page.body.nextCursor;
  }
  throw new Error('too many pages');
}

const idsOf = (rows: unknown[]) => rows.map((row) => (row as { id: string }).id);

/**
 * A queue of concurrency 2 where #2 fails on top of #1: three runs, #1's and #2's at the start (#2's created
 * after), #3's when #2's failed, five minutes in.
 */
async function threeRuns(sandbox: V2Fixture) {
  const { queueId } = await queueIn(sandbox);
  await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 2 } });
  await sandbox.control('pullRequests', { repo: WIDGETS, number: 2, testOutcome: 'fail', title: 'Risky' });
  const prs: string[] = [];
  for (const number of [1, 2, 3]) prs.push(await submit(sandbox, queueId, number));
  await sandbox.control('advance', { seconds: 900 });
  const runs = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId } });
  return { queueId, prs, runs: runs.body.data as { id: string; status: string; createdAt: string; testedPullRequests: { id: string }[] }[] };
}

describe('v2 verification-run lists', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('lists a queue’s runs newest first, as the run GET shows each (less impactedTargets), in pages that add up', async () => {
    const { queueId, prs, runs } = await threeRuns(sandbox);
    expect(runs.map((run) => [run.testedPullRequests.map((pr) => pr.id), run.status, run.createdAt])).toEqual([
      [[prs[2]], 'succeeded', '2026-01-01T00:05:00.000Z'],
      [[prs[1]], 'failed', '2026-01-01T00:00:00.000Z'],
      [[prs[0]], 'succeeded', '2026-01-01T00:00:00.000Z'],
    ]);
    for (const run of runs) {
      const one = await sandbox.call('mergeQueueVerificationRuns.get', { params: { id: run.id } });
      expect(one.body).toEqual(run);
      expect(run).not.toHaveProperty('impactedTargets');
    }
    expect(idsOf(await allPages(sandbox, 'mergeQueues.listVerificationRuns', { params: { id: queueId } }, 2))).toEqual(idsOf(runs));
    // A finished run's updatedAt is its end (a run takes five minutes here).
    expect(runs.map((run) => (run as { updatedAt?: string }).updatedAt)).toEqual([
      '2026-01-01T00:10:00.000Z',
      '2026-01-01T00:05:00.000Z',
      '2026-01-01T00:05:00.000Z',
    ]);
    const counted = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { includeTotal: true, limit: 1 } });
    expect(counted.body).toMatchObject({ total: 3, hasMore: true });
    expect(counted.body.data).toHaveLength(1);
  });

  it('shows a run’s impacted targets on its own GET only', async () => {
    const { repositoryId } = await queueIn(sandbox);
    const created = await sandbox.call('mergeQueues.create', { body: { repositoryId, targetBranch: 'graph', mode: 'graph' } });
    const queueId = created.body.id as string;
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 7, sha: 'sha7', headBranch: 'feat/7', baseBranch: 'graph' });
    await submit(sandbox, queueId, 7);
    await sandbox.call('impactedTargets.upload', { body: { repositoryId, targetBranch: 'graph', sha: 'sha7', number: 7, impactedTargets: ['//b', '//a'] } });
    await sandbox.control('advance', { seconds: 1 });
    const [listed] = (await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId } })).body.data;
    expect(listed).toMatchObject({ status: 'inProgress' });
    expect(listed).not.toHaveProperty('impactedTargets');
    const one = await sandbox.call('mergeQueueVerificationRuns.get', { params: { id: listed.id } });
    const { impactedTargets, ...rest } = one.body;
    expect(rest).toEqual(listed);
    expect(impactedTargets.all).toEqual({ impactsAllTargets: false, impactedTargets: ['//a', '//b'], totalImpactedTargets: 2 });
  });

  it('filters a queue’s runs by one status, and by createdAfter strictly after', async () => {
    const { queueId, runs } = await threeRuns(sandbox);
    const failed = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { status: 'failed' } });
    expect(idsOf(failed.body.data)).toEqual([runs[1]!.id]);
    const none = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { status: 'inProgress' } });
    expect(none.body.data).toEqual([]);
    const after = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { createdAfter: '2026-01-01T00:00:00Z' } });
    expect(idsOf(after.body.data)).toEqual([runs[0]!.id]);
    const offset = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { createdAfter: '2026-01-01T01:04:59+01:00' } });
    expect(idsOf(offset.body.data)).toEqual([runs[0]!.id]);
  });

  it('refuses a status list, a v1 status, a bad createdAfter with 400 VALIDATION_FAILED; an unknown queue with 404; a cursor replayed with other filters with 400 INVALID_CURSOR', async () => {
    const { queueId } = await threeRuns(sandbox);
    for (const query of [{ status: 'failed,succeeded' }, { status: 'in_progress' }, { createdAfter: 'yesterday' }] as Record<string, string>[]) {
      const bad = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query, invalid: true });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    }
    // sort and direction are described, not declared: only the one order there is.
    for (const query of [{ sort: 'updatedAt' }, { direction: 'asc' }] as Record<string, string>[]) {
      const other = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query });
      expect(other.status).toBe(400);
      expect(other.body.error.code).toBe('VALIDATION_FAILED');
    }
    const named = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { sort: 'createdAt', direction: 'desc' } });
    expect(named.body.data).toHaveLength(3);
    const unknown = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: 'NoSuchQ1' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('MERGE_QUEUE_NOT_FOUND');
    const first = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { limit: 1 } });
    const replayed = await sandbox.call('mergeQueues.listVerificationRuns', {
      params: { id: queueId },
      query: { limit: 1, cursor: first.body.nextCursor, status: 'succeeded' },
    });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error.code).toBe('INVALID_CURSOR');
    const foreign = await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { cursor: 'AQEKZm9vYmFy' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe('INVALID_CURSOR');
  });

  it('lists the runs that tested a PR (not those it was only merged into), filtered by status; refuses createdAfter with 400', async () => {
    const { prs, runs } = await threeRuns(sandbox);
    const first = await sandbox.call('pullRequests.listVerificationRuns', { params: { id: prs[0]! } });
    expect(idsOf(first.body.data)).toEqual([runs[2]!.id]);
    const second = await sandbox.call('pullRequests.listVerificationRuns', { params: { id: prs[1]!.toUpperCase() }, query: { includeTotal: true } });
    expect(second.body).toMatchObject({ total: 1, hasMore: false, nextCursor: null });
    expect(second.body.data[0]).toEqual(runs[1]);
    const succeeded = await sandbox.call('pullRequests.listVerificationRuns', { params: { id: prs[1]! }, query: { status: 'succeeded' } });
    expect(succeeded.body.data).toEqual([]);
    const createdAfter = await sandbox.call('pullRequests.listVerificationRuns', { params: { id: prs[1]! }, query: { createdAfter: '2026-01-01T00:00:00Z' } });
    expect(createdAfter.status).toBe(400);
    expect(createdAfter.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('createdAfter') });
    const bad = await sandbox.call('pullRequests.listVerificationRuns', { params: { id: prs[1]! }, query: { status: 'done' }, invalid: true });
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    const unknown = await sandbox.call('pullRequests.listVerificationRuns', { params: { id: UNKNOWN_ID } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('PR_NOT_FOUND');
    const notUuid = await sandbox.call('pullRequests.listVerificationRuns', { params: { id: 'pr-2' }, invalid: true });
    expect(notUuid.status).toBe(400);
  });
});

describe('v2 queue-entry history', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('lists a PR’s transitions oldest first, newest first with direction=newest, in pages that add up', async () => {
    const { prs, runs } = await threeRuns(sandbox);
    const history = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: prs[1]! }, query: { includeTotal: true } });
    expect(history.body.total).toBe(5);
    const transitions = history.body.data as { pullRequestId: string; state: string; reason: string | null; verificationRunId?: string }[];
    expect(transitions.map((t) => [t.state, t.reason, t.verificationRunId])).toEqual([
      ['notReady', 'API_REQUESTED', undefined],
      ['pending', 'MERGE_ITEM_NOW_READY', undefined],
      ['testing', null, runs[1]!.id],
      ['pendingFailure', null, runs[1]!.id],
      ['failed', 'TEST_RUN_REQUIRED_STATUS_FAILED', runs[1]!.id],
    ]);
    expect(new Set(transitions.map((t) => t.pullRequestId))).toEqual(new Set([prs[1]]));
    expect(history.body.data[4].failed.failureCausingChecks).toContainEqual(expect.objectContaining({ name: 'test', conclusion: 'FAILURE' }));
    expect(history.body.data[0]).not.toHaveProperty('queueEntryId');
    const newest = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: prs[1]! }, query: { direction: 'newest' } });
    expect(newest.body.data).toEqual([...history.body.data].reverse());
    for (const direction of ['oldest', 'newest']) {
      const paged = await allPages(sandbox, 'pullRequests.queueEntryHistory', { params: { id: prs[1]! }, query: { direction } }, 2);
      expect(paged).toEqual(direction === 'oldest' ? history.body.data : newest.body.data);
    }
  });

  it('answers a PR the sandbox knows but never queued with an empty page; 404 PR_NOT_FOUND for an unknown one; 400 for a bad direction or a cursor of the other direction', async () => {
    const { prs } = await threeRuns(sandbox);
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 40, title: 'Never queued' });
    const known = await sandbox.call('pullRequests.resolveByCoordinates', {
      query: {
        repositoryId: (await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } })).body.data[0].id,
        number: '40',
      },
    });
    const never = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: known.body.data[0].id }, query: { includeTotal: true } });
    expect(never.body).toEqual({ data: [], nextCursor: null, hasMore: false, total: 0 });
    const unknown = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: UNKNOWN_ID } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('PR_NOT_FOUND');
    const sideways = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: prs[1]! }, query: { direction: 'sideways' }, invalid: true });
    expect(sideways.body.error.code).toBe('VALIDATION_FAILED');
    const first = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: prs[1]! }, query: { limit: 2 } });
    const replayed = await sandbox.call('pullRequests.queueEntryHistory', {
      params: { id: prs[1]! },
      query: { limit: 2, direction: 'newest', cursor: first.body.nextCursor },
    });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error.code).toBe('INVALID_CURSOR');
    // Bound to the operation too: another PR's history, or the batch read, does not take it.
    const elsewhere = await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: prs[1]!, cursor: first.body.nextCursor } });
    expect(elsewhere.body.error.code).toBe('INVALID_CURSOR');
  });

  it('reads several PRs’ whole timelines at once: ids lower-cased and read once, unknown ids as empty groups, limit counting PRs', async () => {
    const { prs } = await threeRuns(sandbox);
    const single = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: prs[1]! }, query: { limit: 100 } });
    const asked = [prs[1]!.toUpperCase(), UNKNOWN_ID, prs[1]!, prs[2]!].join(',');
    const batch = await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: asked, includeTotal: true } });
    expect(batch.status).toBe(200);
    expect(batch.body.total).toBe(3);
    expect(batch.body.data.map((group: { pullRequestId: string }) => group.pullRequestId)).toEqual([prs[1], UNKNOWN_ID, prs[2]]);
    expect(batch.body.data[0].transitions).toEqual(single.body.data);
    expect(batch.body.data[1].transitions).toEqual([]);
    const newest = await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: asked, direction: 'newest' } });
    expect(newest.body.data[0].transitions).toEqual([...single.body.data].reverse());
    const paged = await allPages(sandbox, 'pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: asked } }, 2);
    expect(paged).toEqual(batch.body.data);
    const first = await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: asked, limit: 1 } });
    expect(first.body.data).toHaveLength(1);
    const replayed = await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: prs[2]!, limit: 1, cursor: first.body.nextCursor } });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error.code).toBe('INVALID_CURSOR');
  });

  it('refuses the batch read without ids, with a member that is no UUID, or with more than 50, with 400 VALIDATION_FAILED', async () => {
    const missing = await sandbox.call('pullRequests.queueEntryHistoryBatch', { invalid: true });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('pullRequestIds') });
    const ids = Array.from({ length: 51 }, (_, i) => `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`);
    for (const pullRequestIds of [`${UNKNOWN_ID},pr-2`, `${UNKNOWN_ID},`, ids.join(',')]) {
      const bad = await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds } });
      expect(bad.status, pullRequestIds).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    }
    const fifty = await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: ids.slice(0, 50).join(','), limit: 100 } });
    expect(fifty.body.data).toHaveLength(50);
  });
});

describe('v2 run lists and history under the pull-request rate limit (§17: 4)', () => {
  const sandbox = useV2Sandbox();

  it('counts a PR’s runs and history in the per-key pull-request bucket, a bare 429 over it; the batch history in the organization’s', async () => {
    const { queueId } = await queueIn(sandbox);
    const pr = await submit(sandbox, queueId, 1);
    sandbox.advanceRateClock(1000);
    for (let i = 0; i < 5; i++) {
      const operationId = i % 2 ? 'pullRequests.listVerificationRuns' : 'pullRequests.queueEntryHistory';
      expect((await sandbox.call(operationId, { params: { id: pr } })).status).toBe(200);
    }
    const over = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: pr } });
    expect(over.status).toBe(429);
    expect(over.text).toBe('');
    expect((await sandbox.call('pullRequests.listVerificationRuns', { params: { id: pr } })).status).toBe(429);
    expect((await sandbox.call('pullRequests.queueEntryHistoryBatch', { query: { pullRequestIds: pr } })).status).toBe(200);
    expect((await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId } })).status).toBe(200);
  });
});

const camelOf = (text: string) => text.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Each PR's v2 history (direction=newest) has the states, instants and reasons of its v1 timeline, and its v2 run
 * list the runs v1's testing results name for it, each with the status v1's testing details give it, each in the
 * queue's v2 run list too. Answers the PRs' v2 runs.
 */
async function sameThroughBothApis(
  sandbox: V2Fixture,
  numbers: number[],
): Promise<Record<number, { id: string; status: string; isBisection: boolean; testedPullRequests: unknown[] }[]>> {
  const queueId = (await sandbox.call('mergeQueues.list')).body.data[0].id as string;
  const repositoryId = (await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } })).body.data[0].id;
  const queueRuns = (await sandbox.call('mergeQueues.listVerificationRuns', { params: { id: queueId }, query: { limit: 100 } })).body.data;
  const v1Results = (await sandbox.v1Call('listMergeQueueTestingResults', { ...MAIN, since: '2025-12-31T00:00:00Z', take: 100 })).body as {
    testingResults: { prNumber: number; testRunId?: string }[];
  };
  const answer: Record<number, { id: string; status: string; isBisection: boolean; testedPullRequests: unknown[] }[]> = {};
  for (const number of numbers) {
    const v1 = (await sandbox.v1Call('getSubmittedPullRequest', { ...MAIN, pr: { number }, includeTimeline: true })).body as {
      timeline: { state: string; timestamp: string; reason?: string }[];
    };
    const pr = (await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: String(number) } })).body.data[0];
    const history = await sandbox.call('pullRequests.queueEntryHistory', { params: { id: pr.id }, query: { direction: 'newest', limit: 100 } });
    // v1's timeline is newest first: direction=newest reads it in the same order, in v2's words.
    expect(history.body.data.map((t: { state: string; changedAt: string }) => [t.state, t.changedAt])).toEqual(
      v1.timeline.map((step) => [camelOf(step.state), step.timestamp]),
    );
    v1.timeline.forEach((step, i) => {
      // v2's words for v1's reasons: upper case, and a merge after a passing run is the merge graph's.
      const reason = step.state === 'merged' && step.reason === 'test_run_passed' ? 'MERGE_GRAPH_MERGE' : step.reason?.toUpperCase();
      if (reason !== undefined) expect(history.body.data[i].reason).toBe(reason);
    });

    const runs = (await sandbox.call('pullRequests.listVerificationRuns', { params: { id: pr.id }, query: { limit: 100 } })).body.data;
    const v1RunIds = new Set(
      v1Results.testingResults.filter((row) => row.prNumber === number && row.testRunId).map((row) => row.testRunId!.replace(/-bisection$/, '')),
    );
    expect(new Set(idsOf(runs))).toEqual(v1RunIds);
    // Every run the history names is one of the PR's runs; each reads through v1's testing details the same.
    const named = history.body.data.flatMap((t: { verificationRunId?: string }) => (t.verificationRunId ? [t.verificationRunId] : []));
    for (const id of named) expect(idsOf(runs)).toContain(id);
    for (const run of runs as { id: string; status: string }[]) {
      const details = (await sandbox.v1Call('getMergeQueueTestingDetails', { ...MAIN, testRunId: run.id })).body as { status: string };
      expect(camelOf(details.status)).toBe(run.status);
      expect(queueRuns).toContainEqual(run);
    }
    answer[number] = runs;
  }
  return answer;
}

describe('v1 and v2 over one history', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('shows PRs of a batch failed through v1, one convicted in the bisection, with v1’s timeline transitions and the runs v1 names', async () => {
    expect((await sandbox.v1Call('createQueue', MAIN)).status).toBe(200);
    expect((await sandbox.v1Call('updateQueue', { ...MAIN, batch: true, batchingMinSize: 2, batchingMaxWaitTimeMinutes: 5 })).status).toBe(200);
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 2, testOutcome: 'fail' });
    for (const number of [1, 2]) expect((await sandbox.v1Call('submitPullRequest', { ...MAIN, pr: { number } })).status).toBe(200);
    await sandbox.control('advance', { seconds: 1800 });
    const runs = await sameThroughBothApis(sandbox, [1, 2]);
    // The batch of two failed, then #2 was tested alone in the bisection.
    expect(runs[2]!.map((run) => [run.isBisection, run.status, run.testedPullRequests.length])).toEqual([
      [true, 'failed', 1],
      [false, 'failed', 2],
    ]);
  });

  it('shows a PR whose tests were restarted through v1 with v1’s timeline transitions and both its runs', async () => {
    expect((await sandbox.v1Call('createQueue', MAIN)).status).toBe(200);
    expect((await sandbox.v1Call('submitPullRequest', { ...MAIN, pr: { number: 5 } })).status).toBe(200);
    await sandbox.control('advance', { seconds: 60 });
    expect((await sandbox.v1Call('restartTestsOnPullRequest', { ...MAIN, pr: { number: 5 } })).status).toBe(200);
    await sandbox.control('advance', { seconds: 600 });
    const runs = await sameThroughBothApis(sandbox, [5]);
    expect(runs[5]!.map((run) => run.status)).toEqual(['succeeded', 'cancelled']);
  });
});
