// submit → testing → merged, a failure, cancel and restart, status, list and testing: the built mq against a
// sandbox process over real HTTP, every request body checked against the published API description.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

let repoCounter = 0;
/** A fresh repository per test, with its queue created, so tests share a sandbox but not a queue. */
async function freshQueue(...settings: string[]): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, `acme/pr-${++repoCounter}`);
  const created = await mq(['queue', 'create', ...settings], { env });
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  return env;
}

const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });
const json = (text: string) => JSON.parse(text) as Record<string, any>;

describe('submit, status and the path to merged', () => {
  it('walks a PR from not_ready through testing to merged', async () => {
    const env = await freshQueue();
    const submitted = await mq(['submit', '42'], { env });
    expect(submitted).toMatchObject({ code: 0, stderr: '' });
    expect(submitted.stdout).toContain('#42');

    const first = json((await mq(['status', '42', '--json'], { env })).stdout);
    expect(first).toMatchObject({ prNumber: 42, isCurrentlySubmittedToQueue: true });
    expect(['not_ready', 'pending', 'testing']).toContain(first.state);

    await advance(1);
    const testing = json((await mq(['status', '42', '--json'], { env })).stdout);
    expect(testing.state).toBe('testing');

    await advance(3600);
    const merged = await mq(['status', '42'], { env });
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('merged');
    expect(merged.stdout).not.toContain('\u001b[');
    const done = json((await mq(['status', '42', '--json'], { env })).stdout);
    expect(done).toMatchObject({ state: 'merged', isCurrentlySubmittedToQueue: false });
  });

  it('reports a failing PR as failed', async () => {
    const env = await freshQueue();
    await control(fixture.sandboxUrl, 'pullRequests', {
      repo: { host: 'github.com', owner: 'acme', name: `pr-${repoCounter}` },
      number: 7,
      testOutcome: 'fail',
    });
    expect((await mq(['submit', '7'], { env })).code).toBe(0);
    await advance(1);
    await advance(3600);
    await advance(3600);
    const status = json((await mq(['status', '7', '--json'], { env })).stdout);
    expect(status.state).toBe('failed');
  });

  it('sends priority and noBatch, and reports several PRs one by one', async () => {
    const env = await freshQueue();
    const run = await mq(['submit', '1', '2', '--priority', 'urgent', '--no-batch', '--json'], { env });
    expect(run.code).toBe(0);
    expect(json(run.stdout)).toEqual({
      results: [
        { pr: 1, ok: true },
        { pr: 2, ok: true },
      ],
    });
    const body = JSON.parse(fixture.recorder.requests.find((r) => r.path === '/submitPullRequest')!.body);
    expect(body).toMatchObject({ pr: { number: 1 }, priority: 'urgent', noBatch: true, targetBranch: 'main' });
    const status = json((await mq(['status', '1', '--json'], { env })).stdout);
    expect(status).toMatchObject({ priorityValue: 0, skipTheLine: true });
  });

  it('exits 1 when some PRs of a multi-PR command fail, and still reports the rest', async () => {
    const env = await freshQueue();
    expect((await mq(['submit', '5'], { env })).code).toBe(0);
    const run = await mq(['cancel', '5', '6', '--json'], { env });
    expect(run.code).toBe(1);
    const { results } = json(run.stdout);
    expect(results[0]).toEqual({ pr: 5, ok: true });
    expect(results[1]).toMatchObject({ pr: 6, ok: false, error: { status: 404 } });
    // Alone, a PR no longer in the queue is "not found" (exit 4), in words.
    const text = await mq(['cancel', '5'], { env });
    expect(text.code).toBe(4);
    expect(text.stdout).toBe('✗ #5 was already cancelled: it is no longer in the queue\n');
  });

  it('restarts a PR under test and cancels one', async () => {
    const env = await freshQueue();
    await mq(['submit', '11'], { env });
    await advance(1);
    const restarted = await mq(['restart', '11'], { env });
    expect(restarted.code).toBe(0);
    expect(restarted.stdout).toContain('#11');
    const cancelled = await mq(['cancel', '11', '--json'], { env });
    expect(json(cancelled.stdout)).toEqual({ results: [{ pr: 11, ok: true }] });
    expect(json((await mq(['status', '11', '--json'], { env })).stdout).state).toBe('cancelled');
  });

  it('rejects a bad PR number with exit 2 and sends nothing', async () => {
    const env = await freshQueue();
    fixture.recorder.requests.length = 0;
    for (const bad of ['0', '-3', 'abc', '2147483648', '1.5']) {
      const run = await mq(['submit', bad], { env });
      expect(run.code, bad).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(fixture.recorder.requests).toHaveLength(0);
    expect((await mq(['submit', '1', '--priority', 'asap'], { env })).code).toBe(2);
    expect((await mq(['submit', '1', '--priority', '256'], { env })).code).toBe(2);
    expect(fixture.recorder.requests).toHaveLength(0);
  });
});

describe('why a PR is not moving', () => {
  it('shows its position and what it waits for, and that a paused queue holds it', async () => {
    const env = await freshQueue();
    await mq(['submit', '61', '62'], { env });
    await advance(1);
    const waiting = await mq(['status', '62'], { env });
    expect(waiting.code).toBe(0);
    expect(waiting.stdout).toMatch(/position +2 of 2 \(queue running\)/);
    expect(waiting.stdout).toContain('every testing slot is busy (concurrency 1, testing: #61)');
    await mq(['queue', 'pause', '--yes'], { env });
    expect((await mq(['status', '62'], { env })).stdout).toContain('the queue is paused');
  });
});

describe('list and testing', () => {
  it('lists PRs with a state filter and a limit, across pages', async () => {
    const env = await freshQueue('--concurrency', '3');
    const prs = Array.from({ length: 5 }, (_, i) => String(100 + i));
    expect((await mq(['submit', ...prs], { env })).code).toBe(0);
    const all = json((await mq(['list', '--json'], { env })).stdout);
    expect(all.pullRequests.map((pr: { prNumber: number }) => pr.prNumber).sort()).toEqual([100, 101, 102, 103, 104]);
    const two = json((await mq(['list', '--limit', '2', '--json'], { env })).stdout);
    expect(two.pullRequests).toHaveLength(2);
    // The table alone on stdout (a pipe counts PRs), the hint that more exist on stderr.
    const limited = await mq(['list', '--limit', '2'], { env });
    expect(limited.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(limited.stderr).toBe('More pull requests: raise --limit, or narrow with --state, --since or --until.\n');
    expect((await mq(['list', '--limit', '2', '--quiet'], { env })).stderr).toBe('');
    expect((await mq(['list', '--limit', '5'], { env })).stderr).toBe('');
    await advance(1);
    await advance(3600);
    await advance(3600);
    const merged = json((await mq(['list', '--state', 'merged', '--since', '2026-01-01T00:00:00Z', '--json'], { env })).stdout);
    expect(merged.pullRequests.length).toBeGreaterThan(0);
    for (const pr of merged.pullRequests) expect(pr.state).toBe('merged');
    const table = await mq(['list'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('100');
    expect((await mq(['list', '--state', 'nope'], { env })).code).toBe(2);
  });

  it('shows the test run of a PR under test, by PR and by run id', async () => {
    const env = await freshQueue();
    await mq(['submit', '21'], { env });
    await advance(1);
    fixture.recorder.requests.length = 0;
    const byPr = await mq(['testing', '21', '--json'], { env });
    expect(byPr.code).toBe(0);
    // The run is the one the PR's record names; only its id is sent, as the service asks.
    const record = json((await mq(['status', '21', '--json'], { env })).stdout);
    const asked = fixture.recorder.requests.filter((r) => r.path === '/getMergeQueueTestingDetails').map((r) => JSON.parse(r.body));
    expect(asked).toEqual([
      { repo: { host: 'github.com', owner: 'acme', name: `pr-${repoCounter}` }, targetBranch: 'main', testRunId: record.verifiedByTestRun },
    ]);
    const details = json(byPr.stdout);
    expect(details.testedPullRequests.map((pr: { prNumber: number }) => pr.prNumber)).toContain(21);
    expect(details.testBranch).toBeTruthy();
    // The sandbox adds the run's id to the published shape, so a user can name the run later.
    expect(typeof details.testRunId).toBe('string');
    const byRun = await mq(['testing', '--run', details.testRunId, '--json'], { env });
    expect(byRun.code).toBe(0);
    expect(json(byRun.stdout).testBranch).toBe(details.testBranch);
    const text = await mq(['testing', '21'], { env });
    expect(text.stdout).toContain(details.testBranch);
    expect((await mq(['testing'], { env })).code).toBe(2);

    // Once merged, the PR's record still names the run that tested it.
    await advance(3600);
    const after = await mq(['testing', '21', '--json'], { env });
    expect(after.code).toBe(0);
    expect(json(after.stdout)).toMatchObject({ testRunId: details.testRunId, status: 'succeeded' });
  });

  it('says a PR not tested yet has no run, and how to name one: exit 4', async () => {
    const env = await freshQueue();
    await mq(['submit', '22', '23'], { env });
    await advance(1);
    // Concurrency 1: #22 is testing, #23 waits behind it and has never been tested.
    const untested = await mq(['testing', '23'], { env });
    expect(untested).toEqual({
      code: 4,
      stdout: '',
      stderr:
        'mq: the service names no test run for #23: try again once it is testing (it is pending); ' +
        'for a run you know, give its id: mq testing --run <testRunId>\n',
    });
    const asJson = await mq(['testing', '23', '--json'], { env });
    expect(asJson.code).toBe(4);
    expect(json(asJson.stderr)).toEqual({ error: { code: 'not_found', message: expect.stringContaining('mq testing --run <testRunId>') } });
    // The queue named by a flag goes along (the id left for the person to fill in).
    const named = await mq(['testing', '23', '-R', env.MQ_REPO!], { env: { ...env, MQ_REPO: 'acme/decoy' } });
    expect(named.stderr).toContain(`give its id: mq testing --run <testRunId> -R ${env.MQ_REPO}\n`);
    expect(fixture.recorder.requests.some((r) => r.path === '/getMergeQueueTestingDetails' && JSON.parse(r.body).testRunId === undefined)).toBe(false);
    // A PR the queue never saw is the service's own 404.
    const unknown = await mq(['testing', '24'], { env });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('(404)');
  });

  it('lists the PRs concluded until a time, with --until', async () => {
    const env = await freshQueue();
    await mq(['submit', '31'], { env });
    await advance(1);
    await advance(3600);
    const first = json((await mq(['status', '31', '--json'], { env })).stdout);
    expect(first.state).toBe('merged');
    await mq(['submit', '32'], { env });
    await advance(1);
    await advance(3600);
    const numbers = async (...flags: string[]) =>
      json((await mq(['list', ...flags, '--json'], { env })).stdout).pullRequests.map((pr: { prNumber: number }) => pr.prNumber);
    expect((await numbers()).sort()).toEqual([31, 32]);
    // Inclusive: a PR concluded at the very instant given is in.
    expect(await numbers('--until', first.stateChangedAt)).toEqual([31]);
    expect(await numbers('--since', first.stateChangedAt, '--until', first.stateChangedAt)).toEqual([31]);
    expect(await numbers('--until', '2025-12-31T00:00:00Z')).toEqual([]);
    // A duration is that long ago by the local clock, which is past the sandbox's manual one: both are in.
    expect((await numbers('--until', '1m')).sort()).toEqual([31, 32]);
    const sent = fixture.recorder.requests.filter((r) => r.path === '/listPullRequests').map((r) => JSON.parse(r.body));
    expect(sent.at(-1)).toMatchObject({ until: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const table = await mq(['list', '--until', first.stateChangedAt], { env });
    expect(table.stdout).toContain('#31');
    expect(table.stdout).not.toContain('#32');
    expect((await mq(['list', '--until', 'soon'], { env })).code).toBe(2);
    expect((await mq(['list', '--since', '1h', '--until', '2h'], { env })).code).toBe(2);
  });
});

describe('a PR already in the queue, or no longer in it', () => {
  it('submit twice: the second is done, already queued, with its state and position', async () => {
    const env = await freshQueue();
    expect((await mq(['submit', '40', '41'], { env })).code).toBe(0);
    await advance(1);
    const again = await mq(['submit', '41'], { env });
    expect(again).toEqual({ code: 0, stdout: '✓ #41 already queued (pending, position 2)\n', stderr: '' });
    const asJson = await mq(['submit', '40', '41', '--json'], { env });
    expect(asJson.code).toBe(0);
    expect(json(asJson.stdout)).toEqual({
      results: [
        { pr: 40, ok: true, alreadyQueued: true, state: 'testing', position: 1 },
        { pr: 41, ok: true, alreadyQueued: true, state: 'pending', position: 2 },
      ],
    });
    // Asking for what the entry already has is no different.
    expect((await mq(['submit', '41', '--priority', 'medium'], { env })).code).toBe(0);
    // Nothing changed in the queue.
    const queue = json((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(queue.enqueuedPullRequests.map((pr: { prNumber: number; state: string }) => [pr.prNumber, pr.state])).toEqual([
      [40, 'testing'],
      [41, 'pending'],
    ]);
  });

  it('submit --priority high of a PR queued at medium: exit 5, saying how to change it', async () => {
    const env = await freshQueue();
    await mq(['submit', '42'], { env });
    const refused = await mq(['submit', '42', '--priority', 'high'], { env });
    expect(refused.code).toBe(5);
    expect(refused.stdout).toBe(
      '✗ #42 is already queued (testing, position 1) at priority medium (100), not high (10); a queued PR cannot be changed: ' +
        'cancel and submit again (it loses its place): mq cancel 42 && mq submit 42 --priority high\n',
    );
    const asJson = await mq(['submit', '42', '--priority', 'high', '--json'], { env });
    expect(asJson.code).toBe(5);
    expect(json(asJson.stdout)).toEqual({
      results: [
        {
          pr: 42,
          ok: false,
          alreadyQueued: true,
          state: 'testing',
          position: 1,
          error: { code: 'conflict', status: 409, message: expect.stringContaining('mq cancel 42 && mq submit 42 --priority high') },
        },
      ],
    });
    expect((await mq(['submit', '42', '--no-batch'], { env })).code).toBe(5);
    expect(json((await mq(['status', '42', '--json'], { env })).stdout)).toMatchObject({ priorityValue: 100, noBatch: false });
    // Doing what it says works.
    expect((await mq(['cancel', '42'], { env })).code).toBe(0);
    expect((await mq(['submit', '42', '--priority', 'high'], { env })).code).toBe(0);
    expect(json((await mq(['status', '42', '--json'], { env })).stdout)).toMatchObject({ priorityName: 'high', priorityValue: 10 });
  });

  it('cancel or restart of a merged PR: exit 4, it is not in the queue', async () => {
    const env = await freshQueue();
    await mq(['submit', '43'], { env });
    await advance(1);
    await advance(3600);
    const cancelled = await mq(['cancel', '43'], { env });
    expect(cancelled).toEqual({ code: 4, stdout: '✗ #43 has already merged: it is no longer in the queue\n', stderr: '' });
    const restarted = await mq(['restart', '43', '--json'], { env });
    expect(restarted.code).toBe(4);
    expect(json(restarted.stdout)).toEqual({
      results: [{ pr: 43, ok: false, error: { code: 'not_found', status: 404, message: '#43 has already merged: it is no longer in the queue' } }],
    });
    // Never submitted: the PR's record says so, in the same words on both APIs (two-apis.test.ts).
    const never = await mq(['cancel', '44', '45'], { env });
    expect(never.code).toBe(4);
    expect(never.stdout).toBe('✗ #44 is not in the queue: it was never submitted to it\n✗ #45 is not in the queue: it was never submitted to it\n');
    // Mixed with one that was cancelled: done, but negative.
    await mq(['submit', '46'], { env });
    expect((await mq(['cancel', '46', '43'], { env })).code).toBe(1);
  });
});
