// What a wait costs the service, counted by the recorder between mq (run in this process) and a fresh sandbox: a
// round reads the queue once, whatever the number of PRs waited for, and a PR is read on its own only when it
// leaves the queue. A fleet of CI jobs waiting at once must not get an organization throttled.
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, TestApi } from '../support/cli.js';
import { sandboxEnv } from '../support/cli.js';
import { advanceAsSeen, mq, useSandbox } from '../support/in-process.js';
import { operationOf } from '../support/v2.js';

const fixture = useSandbox();

async function queueOn(api: TestApi, prs: number, ...settings: string[]) {
  const env = sandboxEnv(fixture.recorder.url, 'acme/widgets', {}, api);
  expect((await mq(['queue', 'create', ...settings], { env })).code).toBe(0);
  const numbers = Array.from({ length: prs }, (_, i) => String(i + 1));
  expect((await mq(['submit', ...numbers], { env })).code).toBe(0);
  return { env, numbers };
}

/** The requests of each round, as operation names: a round begins with the queue's read. */
function rounds(requests: readonly RecordedRequest[]): string[][] {
  const all: string[][] = [];
  for (const request of requests) {
    const name = request.path.replace(/^\//, '').replace(/\?.*$/, '');
    if (name === 'getQueue' || all.length === 0) all.push([]);
    all.at(-1)!.push(name);
  }
  return all;
}

describe('the cost of a wait', () => {
  it.each([1, 20, 200])('waiting for %i PRs in a paused queue costs one getQueue a round, no PR read on its own', async (prs) => {
    const { env, numbers } = await queueOn('v1', prs);
    expect((await mq(['queue', 'pause', '--yes'], { env })).code).toBe(0);
    fixture.recorder.requests.length = 0;
    const waited = await mq(['wait', ...numbers, '--interval', '1s', '--timeout', '10s'], { env });
    expect(waited.code).toBe(7);
    const [first, ...later] = rounds(fixture.recorder.requests);
    // The first round also reads what the ETA needs: the metrics, and the history when they hold too few runs.
    expect(first).toEqual(['getQueue', 'getMergeQueueMetrics', 'listPullRequests']);
    expect(later.length).toBeGreaterThanOrEqual(3);
    for (const round of later) expect(round).toEqual(['getQueue']);
  });

  it('reads each of 200 merging PRs at most 3 times in all', async () => {
    const { env, numbers } = await queueOn('v1', 200, '--concurrency', '4', '--batch', '--batching-min-size', '50');
    fixture.recorder.requests.length = 0;
    const prs = numbers.map(Number);
    const waited = await advanceAsSeen(fixture, mq(['wait', ...numbers, '--interval', '1s', '--timeout', '2h', '--json'], { env }), {
      seconds: 600,
      repo: 'acme/widgets',
      prs,
    });
    expect(waited.code).toBe(0);
    expect(fixture.recorder.requests.length / 200).toBeLessThanOrEqual(3);
  });

  // v2 lists a queue's PRs a hundred to a page: read whole each round, a queue of 10,000 cost a hundred requests a
  // round where v1 reads one answer. A queue longer than four pages is placed by its order instead, the PRs waited
  // for read together (fifty to a request): a round costs the same however long the queue.
  it('on v2, a wait on a 600-PR queue (still over 400 when the wait ends) reads no page past the first a round, for 1 or 60 PRs, held or merging', async () => {
    const { env } = await queueOn('v2', 600, '--concurrency', '4', '--batch', '--batching-min-size', '20');
    const operationsSince = (from: number) => fixture.recorder.requests.slice(from).map((request) => operationOf(request.method, request.path)!);
    const live = (operations: ReturnType<typeof operationsSince>) =>
      operations.filter((op) => op.operationId === 'mergeQueues.listPullRequests' && op.query.state?.includes('notReady'));
    expect((await mq(['queue', 'pause', '--yes'], { env })).code).toBe(0);
    for (const prs of [1, 60]) {
      const from = fixture.recorder.requests.length;
      // The PRs waited for from the oldest, which the first page (the newest hundred) does not hold.
      const waited = Array.from({ length: prs }, (_, i) => String(i + 1));
      const run = await mq(['wait', ...waited, '--interval', '1s', '--timeout', '10s'], { env });
      expect(run.code, run.stderr).toBe(7);
      const operations = operationsSince(from);
      expect(live(operations).filter((op) => op.query.cursor)).toEqual([]);
      const rounds = operations.filter((op) => op.operationId === 'mergeQueues.order').length;
      expect(rounds).toBeGreaterThanOrEqual(3);
      expect(live(operations)).toHaveLength(rounds);
      // A round: the first page, the PRs waited for (a request per fifty), the order, the PRs in flight, the queue's
      // settings once its PRs are listed; the first round also the metrics and the history behind the ETA.
      const batch = Math.ceil(prs / 50);
      expect(operations.filter((op) => op.operationId === 'pullRequests.resolveByCoordinates')).toHaveLength(rounds * batch);
      expect(operations.length).toBeLessThanOrEqual(rounds * (4 + batch) + 2);
      // Every PR waited for placed as v1 places it: by its number here, the first four testing, the others pending.
      const lines = run.stdout.split('\n').filter((line) => /^#\d+ /.test(line));
      expect(lines.slice(0, prs)).toEqual(waited.map((n) => expect.stringMatching(new RegExp(`^#${n} (testing|pending) \\(position ${n}\\)`))));
    }
    expect((await mq(['queue', 'resume'], { env })).code).toBe(0);
    const from = fixture.recorder.requests.length;
    const numbers = Array.from({ length: 60 }, (_, i) => i + 1);
    const merging = mq(['wait', ...numbers.map(String), '--interval', '1s', '--timeout', '2h', '--json'], { env });
    const waited = await advanceAsSeen(fixture, merging, { seconds: 60, repo: 'acme/widgets', prs: numbers });
    expect(waited.code, waited.stderr).toBe(0);
    const summary = JSON.parse(waited.stdout.trim().split('\n').at(-1)!).summary;
    expect(summary.results.map((result: { pr: number; state: string }) => [result.pr, result.state])).toEqual(numbers.map((pr) => [pr, 'merged']));
    const operations = operationsSince(from);
    expect(live(operations).filter((op) => op.query.cursor)).toEqual([]);
    expect(live(operations).length).toBeGreaterThanOrEqual(3);
    // A round at most: the first page, the PRs still waited for (two requests of fifty), the order, the PRs in
    // flight and the settings; the first round also the metrics and the history.
    expect(operations.length).toBeLessThanOrEqual(live(operations).length * 6 + 2);
  });

  // Up to four pages a round cost no more of mq's pace (20 requests a second per key) than the other way's PR read
  // costs of the PR reads' 5 a second (src/api/v2/lines.ts).
  it('on v2, a wait on a 250-PR queue reads its three pages a round, and no PR on its own', async () => {
    const { env } = await queueOn('v2', 250);
    expect((await mq(['queue', 'pause', '--yes'], { env })).code).toBe(0);
    const from = fixture.recorder.requests.length;
    expect((await mq(['wait', '1', '--interval', '1s', '--timeout', '10s'], { env })).code).toBe(7);
    const operations = fixture.recorder.requests.slice(from).map((request) => operationOf(request.method, request.path)!);
    const live = operations.filter((op) => op.operationId === 'mergeQueues.listPullRequests' && op.query.state?.includes('notReady'));
    const rounds = live.filter((op) => !op.query.cursor).length;
    expect(rounds).toBeGreaterThanOrEqual(3);
    expect(live).toHaveLength(rounds * 3);
    expect(operations.filter((op) => op.operationId.startsWith('pullRequests.'))).toEqual([]);
  });

  it('a drain waited for reads the PRs it waits on in one answer a round on both APIs (v2: the order, not a 250-PR list page by page)', async () => {
    for (const api of ['v1', 'v2'] as const) {
      const { env } = await queueOn(api, 250, '--concurrency', '2');
      fixture.recorder.requests.length = 0;
      const run = await mq(['queue', 'drain', '--yes', '--wait', '--interval', '1s', '--timeout', '10s'], { env });
      expect(run.code, run.stderr).toBe(7);
      expect(run.stdout).toContain('250 admitted PRs left: 2 testing (#1, #2), 248 pending');
      const names = fixture.recorder.requests.map((request) => operationOf(request.method, request.path)?.operationId ?? request.path);
      const write = names.indexOf(api === 'v1' ? '/updateQueue' : 'mergeQueues.drain');
      expect(write, names.join(', ')).toBeGreaterThanOrEqual(0);
      const rounds = names.slice(write + 1);
      // After the drain (v1's answers with the queue; v2's queue is read for its settings), one read a round.
      const round = api === 'v1' ? '/getQueue' : 'mergeQueues.order';
      const reads = rounds.filter((name) => name !== 'mergeQueues.get');
      expect(reads.length, api).toBeGreaterThanOrEqual(3);
      expect(new Set(reads), `${api}: ${names.join(', ')}`).toEqual(new Set([round]));
      expect((await mq(['queue', 'delete', '--cancel-all', '--yes'], { env })).code).toBe(0);
    }
  });
});
