// The v1 API as the service serves it today, beyond the published description: the operations and fields
// openapi-v1-additions.json adds (test/support/openapi/v1-current.json, a snapshot of the published description
// with the additions applied). Where the additions decide, the sandbox agrees with them (accept ⇔ 200, and its
// answers pass the response schemas); where they leave a shape open, the sandbox's choice (README, "differences")
// is asserted as such.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryId } from '../../src/sandbox/engine/ids.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { validateCurrentRequest, validateCurrentResponse } from '../support/openapi/validate.js';

const TOKEN = 'parity';
const repo = { host: 'github.com', owner: 'acme', name: 'today' };
const MAIN = { repo, targetBranch: 'main' };
const START = Date.parse('2026-01-01T00:00:00Z');

let sandbox: RunningSandbox;

async function post(path: string, body: unknown): Promise<{ status: number; text: string; json: any }> {
  const response = await fetch(`${sandbox.url}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

async function ok(path: string, body: unknown): Promise<any> {
  const answer = await post(path, body);
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
}

const advance = (seconds: number) => ok('_sandbox/advance', { seconds });

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual' });
  await ok('createQueue', MAIN);
  await ok('createQueue', { repo, targetBranch: 'settings' });
  // #1 merges, #2 fails, #3 is testing, #4 waits behind it.
  await ok('_sandbox/pullRequests', { repo, number: 2, testOutcome: 'fail' });
  await ok('submitPullRequest', { ...MAIN, pr: { number: 1 } });
  await ok('submitPullRequest', { ...MAIN, pr: { number: 2 } });
  await advance(301);
  await advance(301);
  await ok('submitPullRequest', { ...MAIN, pr: { number: 3 } });
  await ok('submitPullRequest', { ...MAIN, pr: { number: 4 } });
  await advance(1);
});
afterAll(() => sandbox?.close());

/** `today`: the additions decide (accept ⇔ 200); `choice`: they leave it open and the sandbox chose (README). */
interface Case {
  op: string;
  name: string;
  body: Record<string, unknown>;
  status: number;
  source: 'today' | 'choice';
}

const PRS = (n: number) => Array.from({ length: n }, (_, i) => ({ number: i + 1 }));
const SINCE = '2025-12-31T00:00:00Z';

const CASES: Case[] = [
  { op: 'getSubmittedPullRequest', name: 'includeTimeline true', body: { ...MAIN, pr: { number: 1 }, includeTimeline: true }, status: 200, source: 'today' },
  { op: 'getSubmittedPullRequest', name: 'includeTimeline "yes"', body: { ...MAIN, pr: { number: 1 }, includeTimeline: 'yes' }, status: 400, source: 'today' },
  {
    op: 'getSubmittedPullRequest',
    name: 'includeEstimatedTimeToMerge true',
    body: { ...MAIN, pr: { number: 4 }, includeEstimatedTimeToMerge: true },
    status: 200,
    source: 'today',
  },
  {
    op: 'getSubmittedPullRequest',
    name: 'includeEstimatedTimeToMerge 1',
    body: { ...MAIN, pr: { number: 4 }, includeEstimatedTimeToMerge: 1 },
    status: 400,
    source: 'today',
  },
  { op: 'getSubmittedPullRequests', name: 'one PR', body: { ...MAIN, prs: [{ number: 1 }] }, status: 200, source: 'today' },
  { op: 'getSubmittedPullRequests', name: 'no PRs', body: { ...MAIN, prs: [] }, status: 200, source: 'today' },
  { op: 'getSubmittedPullRequests', name: 'with includeTimeline', body: { ...MAIN, prs: PRS(2), includeTimeline: true }, status: 200, source: 'today' },
  { op: 'getSubmittedPullRequests', name: 'without prs', body: { ...MAIN }, status: 400, source: 'today' },
  { op: 'getSubmittedPullRequests', name: 'without repo', body: { targetBranch: 'main', prs: PRS(1) }, status: 400, source: 'today' },
  { op: 'getSubmittedPullRequests', name: 'prs [1]', body: { ...MAIN, prs: [1] }, status: 400, source: 'today' },
  { op: 'getSubmittedPullRequests', name: 'a number 1.5', body: { ...MAIN, prs: [{ number: 1.5 }] }, status: 400, source: 'today' },
  { op: 'getSubmittedPullRequests', name: '50 PRs', body: { ...MAIN, prs: PRS(50) }, status: 200, source: 'choice' },
  { op: 'getSubmittedPullRequests', name: '51 PRs', body: { ...MAIN, prs: PRS(51) }, status: 400, source: 'choice' },
  { op: 'listMergeQueueTestingResults', name: 'since only', body: { ...MAIN, since: SINCE }, status: 200, source: 'today' },
  {
    op: 'listMergeQueueTestingResults',
    name: 'every field',
    body: { ...MAIN, since: SINCE, until: '2026-01-02T00:00:00Z', offset: 0, take: 100 },
    status: 200,
    source: 'today',
  },
  { op: 'listMergeQueueTestingResults', name: 'without since', body: { ...MAIN }, status: 400, source: 'today' },
  { op: 'listMergeQueueTestingResults', name: 'since not a date-time', body: { ...MAIN, since: '2026-01-01' }, status: 400, source: 'today' },
  { op: 'listMergeQueueTestingResults', name: 'take 0', body: { ...MAIN, since: SINCE, take: 0 }, status: 400, source: 'today' },
  { op: 'listMergeQueueTestingResults', name: 'take 101', body: { ...MAIN, since: SINCE, take: 101 }, status: 400, source: 'today' },
  { op: 'listMergeQueueTestingResults', name: 'offset -1', body: { ...MAIN, since: SINCE, offset: -1 }, status: 400, source: 'today' },
  {
    op: 'listMergeQueueTestingResults',
    name: 'a window of 45 days',
    body: { ...MAIN, since: '2025-11-17T00:00:00Z', until: '2026-01-01T00:00:00Z' },
    status: 200,
    source: 'choice',
  },
  {
    op: 'listMergeQueueTestingResults',
    name: 'a window of 45 days and a second',
    body: { ...MAIN, since: '2025-11-16T23:59:59Z', until: '2026-01-01T00:00:00Z' },
    status: 400,
    source: 'choice',
  },
  { op: 'listPullRequests', name: 'until', body: { ...MAIN, until: '2026-01-02T00:00:00Z' }, status: 200, source: 'today' },
  { op: 'listPullRequests', name: 'until not a date-time', body: { ...MAIN, until: 'tomorrow' }, status: 400, source: 'today' },
  { op: 'updateQueue', name: 'testingTimeoutMinutes 0', body: { repo, targetBranch: 'settings', testingTimeoutMinutes: 0 }, status: 200, source: 'today' },
  { op: 'updateQueue', name: 'pendingFailureDepth 0', body: { repo, targetBranch: 'settings', pendingFailureDepth: 0 }, status: 200, source: 'today' },
  { op: 'updateQueue', name: 'testingTimeoutMinutes -1', body: { repo, targetBranch: 'settings', testingTimeoutMinutes: -1 }, status: 400, source: 'today' },
  { op: 'updateQueue', name: 'extensionEnabled true', body: { repo, targetBranch: 'settings', extensionEnabled: true }, status: 200, source: 'today' },
  {
    op: 'setImpactedTargets',
    name: 'repoId instead of repo',
    body: { repoId: repositoryId(repo), targetBranch: 'main', pr: { number: 9, sha: 's' }, impactedTargets: [] },
    status: 200,
    source: 'today',
  },
  {
    op: 'setImpactedTargets',
    name: 'repo and repoId both',
    body: { ...MAIN, repoId: repositoryId(repo), pr: { number: 9, sha: 's' }, impactedTargets: [] },
    status: 400,
    source: 'today',
  },
  {
    op: 'setImpactedTargets',
    name: 'neither repo nor repoId',
    body: { targetBranch: 'main', pr: { number: 9, sha: 's' }, impactedTargets: [] },
    status: 400,
    source: 'today',
  },
  {
    op: 'setImpactedTargets',
    name: 'repoId not a uuid',
    body: { repoId: 'acme/today', targetBranch: 'main', pr: { number: 9, sha: 's' }, impactedTargets: [] },
    status: 400,
    source: 'today',
  },
];

describe('the boundaries of v1 as served today', () => {
  it.each(CASES.map((c) => [`${c.op}: ${c.name} → ${c.status} (${c.source})`, c] as const))('%s', async (_title, c) => {
    const published = validateCurrentRequest(c.op, c.body);
    if (c.source === 'today') expect(published.length === 0, published.join('; ')).toBe(c.status === 200);
    // A choice is made only where the additions accept both ways.
    else expect(published, 'the additions accept it; the sandbox chose').toEqual([]);
    const answer = await post(c.op, c.body);
    expect(answer.status, answer.text).toBe(c.status);
    if (answer.status === 200) expect(validateCurrentResponse(c.op, answer.json)).toEqual([]);
  });

  it('a repoId no queue has is 404, as an unknown queue is', async () => {
    const body = { repoId: repositoryId({ ...repo, name: 'elsewhere' }), targetBranch: 'main', pr: { number: 9, sha: 's' }, impactedTargets: [] };
    expect((await post('setImpactedTargets', body)).status).toBe(404);
  });
});

describe('the answers', () => {
  it('getQueue has the new required fields, and passes the schema of today', async () => {
    const queue = await ok('getQueue', MAIN);
    expect(queue).toMatchObject({ extensionEnabled: false, mergeMethodOverrideEnabled: false, batchingRules: [] });
    expect(validateCurrentResponse('getQueue', queue)).toEqual([]);
  });

  it('updateQueue ignores an empty requiredStatuses; deleteRequiredStatuses drops the list', async () => {
    await ok('updateQueue', { ...MAIN, requiredStatuses: ['ci/build'] });
    expect((await ok('updateQueue', { ...MAIN, requiredStatuses: [] })).requiredStatuses).toEqual(['ci/build']);
    expect((await ok('getQueue', MAIN)).requiredStatuses).toEqual(['ci/build']);
    expect((await ok('updateQueue', { ...MAIN, deleteRequiredStatuses: true })).requiredStatuses).toBeNull();
  });

  it('the batch read answers { pullRequests, notFound: [{ number }] } in the order asked', async () => {
    const answer = await ok('getSubmittedPullRequests', { ...MAIN, prs: [{ number: 3 }, { number: 77 }, { number: '1' }, { number: 3 }] });
    expect(answer.pullRequests.map((pr: { prNumber: number }) => pr.prNumber)).toEqual([3, 1]);
    expect(answer.notFound).toEqual([{ number: 77 }]);
    const single = await ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 3 } });
    expect(answer.pullRequests[0]).toEqual(single);
    expect(validateCurrentResponse('getSubmittedPullRequests', answer)).toEqual([]);
  });

  it('the timeline is newest first, from submission to now', async () => {
    const merged = await ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 }, includeTimeline: true });
    expect(merged.timeline.map((entry: { state: string }) => entry.state)).toEqual(['merged', 'tests_passed', 'testing', 'pending', 'not_ready']);
    expect(merged.timeline[0]).toMatchObject({ timestamp: merged.stateChangedAt });
    expect(merged.timeline.at(-1)).toMatchObject({ state: 'not_ready', timestamp: new Date(START).toISOString(), reason: 'api_requested' });
    const failed = await ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 2 }, includeTimeline: true });
    expect(failed.timeline[0].state).toBe('failed');
    // Without the flag, the record as before.
    expect(await ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 } })).not.toHaveProperty('timeline');
    expect(validateCurrentResponse('getSubmittedPullRequest', merged)).toEqual([]);
  });

  it('a PR submitted again keeps its earlier stays in its timeline, below the new steps (as v2’s history)', async () => {
    const own = await startSandbox({ clock: 'manual' });
    const call = async (path: string, body: unknown): Promise<any> =>
      (
        await fetch(`${own.url}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-token': TOKEN }, body: JSON.stringify(body) })
      ).json();
    try {
      await call('createQueue', MAIN);
      await call('submitPullRequest', { ...MAIN, pr: { number: 1 } });
      await call('_sandbox/advance', { seconds: 301 });
      await call('submitPullRequest', { ...MAIN, pr: { number: 1 } });
      const again = await call('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 }, includeTimeline: true });
      const states = again.timeline.map((entry: { state: string }) => entry.state);
      expect(states).toEqual(['testing', 'pending', 'not_ready', 'merged', 'tests_passed', 'testing', 'pending', 'not_ready']);
      expect(validateCurrentResponse('getSubmittedPullRequest', again)).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('a timeline read in one queue holds the PR’s steps in that queue only, not its stays in another queue of the repository', async () => {
    const own = await startSandbox({ clock: 'manual' });
    const call = async (path: string, body: unknown): Promise<any> =>
      (
        await fetch(`${own.url}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-token': TOKEN }, body: JSON.stringify(body) })
      ).json();
    const OTHER = { repo, targetBranch: 'other' };
    const states = async (queue: typeof MAIN, number: number) =>
      (await call('getSubmittedPullRequest', { ...queue, pr: { number }, includeTimeline: true })).timeline.map((entry: { state: string }) => entry.state);
    try {
      await call('createQueue', MAIN);
      await call('createQueue', OTHER);
      // #1 merges in main, then is submitted to other; #2 moves from main (testing) to other.
      await call('submitPullRequest', { ...MAIN, pr: { number: 1 } });
      await call('_sandbox/advance', { seconds: 301 });
      await call('submitPullRequest', { ...OTHER, pr: { number: 1 } });
      await call('submitPullRequest', { ...MAIN, pr: { number: 2 } });
      await call('submitPullRequest', { ...OTHER, pr: { number: 2 } });
      expect(await states(OTHER, 1)).toEqual(['not_ready']);
      expect(await states(MAIN, 1)).toEqual(['merged', 'tests_passed', 'testing', 'pending', 'not_ready']);
      expect(await states(OTHER, 2)).toEqual(['not_ready']);
      expect(await states(MAIN, 2)).toEqual(['cancelled', 'testing', 'pending', 'not_ready']);
      // The batch read gives the same.
      const batch = await call('getSubmittedPullRequests', { ...OTHER, prs: [{ number: 1 }], includeTimeline: true });
      expect(batch.pullRequests[0].timeline.map((entry: { state: string }) => entry.state)).toEqual(['not_ready']);
    } finally {
      await own.close();
    }
  });

  it('the estimate: when the PR should merge, when its testing starts and ends, how many PRs are ahead', async () => {
    const now = Date.parse((await advance(0)).now);
    const testing = await ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 3 }, includeEstimatedTimeToMerge: true });
    const waiting = await ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 4 }, includeEstimatedTimeToMerge: true });
    expect(testing.state).toBe('testing');
    expect(testing.estimatedTimeToMerge).toMatchObject({ status: 'available', kind: 'merge', pullRequestsAhead: 0, computedAt: new Date(now).toISOString() });
    expect(waiting.estimatedTimeToMerge).toMatchObject({ status: 'available', kind: 'merge', pullRequestsAhead: 1 });
    // One slot: #4 starts when #3 ends, 300 s later.
    expect(waiting.estimatedTimeToMerge.testingStartsAt).toBe(testing.estimatedTimeToMerge.testingEndsAt);
    expect(Date.parse(waiting.estimatedTimeToMerge.estimatedAt) - Date.parse(testing.estimatedTimeToMerge.estimatedAt)).toBe(300_000);
    const merged = await ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 }, includeEstimatedTimeToMerge: true });
    expect(merged.estimatedTimeToMerge).toMatchObject({ status: 'unavailable', reason: 'not_in_queue' });
  });

  it('the estimate is made afresh at each read: on a real clock, time alone moves it', async () => {
    // A fast real clock, so that the clock moves between two reads and nothing else does.
    const live = await startSandbox({ clock: 'real', speed: 1000 });
    try {
      const read = async () => {
        const response = await fetch(`${live.url}/getSubmittedPullRequest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
          body: JSON.stringify({ ...MAIN, pr: { number: 1 }, includeEstimatedTimeToMerge: true }),
        });
        return ((await response.json()) as { estimatedTimeToMerge: { computedAt: string } }).estimatedTimeToMerge.computedAt;
      };
      await fetch(`${live.url}/createQueue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
        body: JSON.stringify(MAIN),
      });
      await fetch(`${live.url}/submitPullRequest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
        body: JSON.stringify({ ...MAIN, pr: { number: 1 } }),
      });
      const first = await read();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(Date.parse(await read())).toBeGreaterThan(Date.parse(first));
    } finally {
      await live.close();
    }
  });

  it('the testing results: a row per PR per run, newest first, with its duration and outcome', async () => {
    const answer = await ok('listMergeQueueTestingResults', { ...MAIN, since: SINCE });
    expect(answer.totalItems).toBe(2);
    expect(answer.testingResults).toEqual([
      expect.objectContaining({ prNumber: 2, outcome: 'failed', cycleConclusion: 'failed', testingDurationMs: 300_000 }),
      expect.objectContaining({ prNumber: 1, outcome: 'passed', cycleConclusion: 'merged', testingDurationMs: 300_000 }),
    ]);
    const pr1 = await ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 } });
    expect(answer.testingResults[1].testRunId).toBe(pr1.verifiedByTestRun);
    const page = await ok('listMergeQueueTestingResults', { ...MAIN, since: SINCE, offset: 1, take: 1 });
    expect(page).toEqual({ testingResults: [answer.testingResults[1]], totalItems: 2 });
    expect(validateCurrentResponse('listMergeQueueTestingResults', answer)).toEqual([]);
  });

  it('testingTimeoutMinutes 0 lets a run take as long as it takes', async () => {
    const queue = { repo, targetBranch: 'slow' };
    await ok('createQueue', queue);
    await ok('updateQueue', { ...queue, testingTimeoutMinutes: 0 });
    await ok('_sandbox/pullRequests', { repo, number: 30, testDurationSeconds: 400 * 60, baseBranch: 'slow' });
    await ok('submitPullRequest', { ...queue, pr: { number: 30 } });
    await advance(1);
    await advance(400 * 60);
    expect((await ok('getSubmittedPullRequest', { ...queue, pr: { number: 30 } })).state).toBe('merged');
  });

  it('the metrics take repo and repoHost together', async () => {
    const metrics = await fetch(`${sandbox.url}/getMergeQueueMetrics?repo=acme/today&repoHost=github.com`, { headers: { 'x-api-token': TOKEN } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('repo="acme/today"');
    const half = await fetch(`${sandbox.url}/getMergeQueueMetrics?repo=acme/today`, { headers: { 'x-api-token': TOKEN } });
    expect(half.status).toBe(400);
  });
});
