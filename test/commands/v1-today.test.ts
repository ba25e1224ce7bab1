// mq status and mq stats with what v1 serves today, against an in-process sandbox: the service's estimate beside
// mq's own ETA, the timeline under -v, and each attempt at testing over the window in the stats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createV1Service } from '../../src/api/v1/v1-service.js';
import { stats } from '../../src/commands/stats/stats.js';
import { status } from '../../src/commands/status/status.js';
import type { MergeQueueService } from '../../src/model/service.js';
import type { Stats } from '../../src/model/stats.js';
import { makePaint } from '../../src/render/colors.js';
import { toJson } from '../../src/render/json.js';
import { renderPullRequest } from '../../src/render/views/pull-request.js';
import { renderStats } from '../../src/render/views/stats.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { QUEUE, testContext } from '../support/context.js';

let sandbox: RunningSandbox;
let service: MergeQueueService;

async function post(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': 't' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual' });
  service = createV1Service({ apiUrl: sandbox.url, token: 't', timeoutMs: 5_000, userAgent: 'mq-test' });
  await post('createQueue', QUEUE);
  // #1 passes and merges, #2 is restarted once and merges, #3 is testing, #4 waits behind it.
  for (const pr of [1, 2]) await post('submitPullRequest', { ...QUEUE, pr: { number: pr } });
  await post('_sandbox/advance', { seconds: 301 });
  await post('_sandbox/advance', { seconds: 100 });
  await post('restartTestsOnPullRequest', { ...QUEUE, pr: { number: 2 } });
  await post('_sandbox/advance', { seconds: 301 });
  for (const pr of [3, 4]) await post('submitPullRequest', { ...QUEUE, pr: { number: pr } });
  await post('_sandbox/advance', { seconds: 1 });
});
afterAll(async () => {
  await service?.close();
  await sandbox?.close();
});

const plain = (now: number) => ({ paint: makePaint(false), now });

describe('mq status', () => {
  it('shows one ETA, the service’s where it has one, saying so', async () => {
    const { ctx } = testContext({ service });
    const result = await status({ pr: 4 }, ctx);
    if (result.kind !== 'pullRequest') throw new Error(result.kind);
    expect(result.pullRequest.estimatedTimeToMerge).toMatchObject({ status: 'available', kind: 'merge', pullRequestsAhead: 1 });
    expect(result.pullRequest).not.toHaveProperty('timeline');
    const text = renderPullRequest(result.pullRequest, result.queue, plain(service.serviceNow()!), result.why, result.eta);
    expect(text).toMatch(/\nETA {10}~\d\d:\d\d, in 10m; testing ~\d\d:\d\d–\d\d:\d\d; 1 PR ahead \(the service's estimate\)\n/);
    expect(text.match(/ETA/g)).toHaveLength(1);
    expect(text).not.toContain('Timeline');
    // --json: the record as before with the service's estimate; mq makes no `eta` of its own beside it.
    expect(toJson(result)).toMatchObject({ prNumber: 4, estimatedTimeToMerge: expect.any(Object) });
    expect(toJson(result)).not.toHaveProperty('eta');
  });

  it('with -v, the timeline too, newest first', async () => {
    const { ctx } = testContext({ service });
    const result = await status({ pr: 2 }, { ...ctx, verbose: true });
    if (result.kind !== 'pullRequest') throw new Error(result.kind);
    const states = result.pullRequest.timeline?.map((entry) => entry.state);
    expect(states).toEqual(['merged', 'tests_passed', 'testing', 'pending', 'testing', 'pending', 'not_ready']);
    const text = renderPullRequest(result.pullRequest, result.queue, plain(service.serviceNow()!), result.why, result.eta);
    expect(text).toContain('\nTimeline (the service, newest first):\n  2026-01-01T00:');
    // Reasons as mq history and --json give them: lower snake case (docs/commands.md#reasons).
    expect(text).toMatch(/ {2}not_ready {2}api_requested\n/);
    expect(text).toMatch(/ {2}merged {2}merge_graph_merge\n/);
    // A merged PR has no estimate to show.
    expect(text).not.toContain('ETA');
  });
});

describe('mq stats', () => {
  it('reads each attempt at testing over the window: outcomes and durations per attempt', async () => {
    const { ctx, said } = testContext({ service });
    const result = await stats({ since: { at: Date.parse('2025-12-31T00:00:00.000Z') }, until: { at: Date.parse('2026-01-02T00:00:00.000Z') } }, ctx);
    if (result.kind !== 'stats') throw new Error(result.kind);
    const runs = (result.stats as Stats).testingRuns!;
    expect(said.filter((line) => line.startsWith('warn:'))).toEqual([]);
    expect(runs).toMatchObject({
      source: 'testing results',
      attempts: 3,
      pullRequests: 2,
      retestedPullRequests: 1,
      outcomes: { passed: 2, failed: 0, interrupted: 1, cancelled: 0, other: 0 },
      durationSeconds: { count: 3, p50: 300, max: 300 },
      error: null,
    });
    // #2 was restarted 101 s into its first run (its run started when #1 merged, at 300 s).
    expect(runs.durationSeconds.mean).toBeCloseTo((300 + 300 + 101) / 3);
    const text = renderStats(result.stats, plain(0));
    expect(text).toContain('3 attempts on 2 PRs, 1 tested more than once');
    expect(toJson(result)).toMatchObject({ testingRuns: { attempts: 3 } });
  });

  it('a window past the 45 days the service keeps is read for its last 45', async () => {
    const { ctx } = testContext({ service });
    const result = await stats({ since: { at: Date.parse('2025-01-01T00:00:00.000Z') }, until: { at: Date.parse('2026-01-02T00:00:00.000Z') } }, ctx);
    if (result.kind !== 'stats') throw new Error(result.kind);
    expect(result.stats.testingRuns?.window).toEqual({ since: '2025-11-18T00:00:00.000Z', until: '2026-01-02T00:00:00.000Z' });
    expect(result.stats.testingRuns?.attempts).toBe(3);
  });

  it('a service without the testing results costs that section only, with a warning', async () => {
    const { ctx, said } = testContext({
      service: {
        listPullRequests: async () => ({ pullRequests: [] }),
        getMergeQueueMetrics: async () => ({ text: '', samples: [] }),
        listTestingResults: async () => {
          throw new Error('the service answered 404: not found');
        },
      },
    });
    const result = await stats({ since: { at: Date.parse('2025-12-31T00:00:00.000Z') }, until: { at: Date.parse('2026-01-02T00:00:00.000Z') } }, ctx);
    if (result.kind !== 'stats') throw new Error(result.kind);
    expect(result.stats.testingRuns).toMatchObject({ attempts: 0, error: 'the service answered 404: not found' });
    expect(said).toContain("warn: the service's testing results could not be read (the service answered 404: not found): no per-attempt durations shown");
    expect(renderStats(result.stats, plain(0))).toContain('could not be read: the service answered 404: not found');
  });
});
