// mq edit, mq history and mq runs, on both APIs where both can do them: v2 changes a queued PR in place, gives
// every state change with its actor and run, and lists test runs; v1 refuses edit and runs in one line naming
// v2, and gives history from the PR's timeline. Every request mq sends is checked against its API's description.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { startSandbox } from '../../src/sandbox/io/server.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

let repoCounter = 0;
/** A fresh repository per test, with its queue created, on the API asked for. */
async function freshQueue(api: TestApi): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, `acme/entries-${++repoCounter}`, {}, api);
  const created = await mq(['queue', 'create'], { env });
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  return env;
}

const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });
const json = (text: string) => JSON.parse(text) as Record<string, any>;

describe('mq edit', () => {
  it('on v2 changes a queued PR in place: priority, batching, direct', async () => {
    const env = await freshQueue('v2');
    expect((await mq(['submit', '40', '41'], { env })).code).toBe(0);
    await advance(1);
    const edited = await mq(['edit', '41', '--priority', 'high', '--no-batch'], { env });
    expect(edited).toEqual({ code: 0, stdout: '✓ #41 changed (pending)\n', stderr: '' });
    const status = json((await mq(['status', '41', '--json'], { env })).stdout);
    expect(status).toMatchObject({ prNumber: 41, priorityValue: 10, priorityName: 'high', noBatch: true, forceEnqueued: false });

    const direct = await mq(['edit', '41', '--direct', '--batch', '--json'], { env });
    expect(direct.code).toBe(0);
    expect(json(direct.stdout)).toEqual({ results: [{ pr: 41, ok: true, state: 'pending' }] });
    expect(json((await mq(['status', '41', '--json'], { env })).stdout)).toMatchObject({ noBatch: false, forceEnqueued: true });
  });

  it('on v2 changes a priority alone with the reprioritize operation, and anything more with the entry’s patch', async () => {
    const env = await freshQueue('v2');
    expect((await mq(['submit', '40', '41'], { env })).code).toBe(0);
    await advance(1);
    fixture.recorder.requests.splice(0);
    expect(await mq(['edit', '41', '--priority', 'urgent'], { env })).toEqual({ code: 0, stdout: '✓ #41 changed (pending)\n', stderr: '' });
    const writes = () =>
      fixture.recorder.requests
        .filter((request) => request.method !== 'GET')
        .map((request) => `${request.method} ${request.path.replace(/[0-9a-f-]{36}/, '{id}')}`);
    expect(writes()).toEqual(['POST /v2/pull-requests/{id}/reprioritize']);
    expect(json((await mq(['status', '41', '--json'], { env })).stdout)).toMatchObject({ priorityName: 'urgent' });
    fixture.recorder.requests.splice(0);
    expect((await mq(['edit', '41', '--priority', 'low', '--no-batch'], { env })).code).toBe(0);
    expect(writes()).toEqual(['PATCH /v2/pull-requests/{id}/queue-entry']);
  });

  it('on v2 reports a PR in no live state (the service’s 409) as not in the queue, as v1 does (exit 4), and reports each PR', async () => {
    const env = await freshQueue('v2');
    expect((await mq(['submit', '42'], { env })).code).toBe(0);
    await advance(1);
    await advance(3600);
    expect(json((await mq(['status', '42', '--json'], { env })).stdout).state).toBe('merged');
    const refused = await mq(['edit', '42', '--priority', 'low'], { env });
    expect(refused.code).toBe(4);
    // mq's words, as v1's 404 reads; the service's code is in the JSON, for a script to switch on.
    expect(refused.stdout).toBe('✗ #42 has already merged: it is no longer in the queue\n');
    const refusedJson = await mq(['edit', '42', '--priority', 'low', '--json'], { env });
    expect(json(refusedJson.stdout).results[0].error).toMatchObject({ code: 'not_found', status: 404, serviceCode: 'PR_NOT_IN_ACTIVE_STATE' });

    expect((await mq(['submit', '43'], { env })).code).toBe(0);
    const mixed = await mq(['edit', '42', '43', '--priority', 'urgent', '--json'], { env });
    expect(mixed.code).toBe(1);
    expect(json(mixed.stdout).results).toEqual([
      { pr: 42, ok: false, error: expect.objectContaining({ status: 404 }) },
      { pr: 43, ok: true, state: expect.any(String) },
    ]);
  });

  it.each(['v1', 'v2'] as const)('on %s needs something to change (exit 2, nothing sent)', async (api) => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/nothing', {}, api);
    const run = await mq(['edit', '42'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/edit needs something to change/);
    expect(fixture.recorder.requests).toEqual([]);
  });

  it('on v1 is refused in one line naming the v2 API (exit 2)', async () => {
    const env = await freshQueue('v1');
    expect((await mq(['submit', '42'], { env })).code).toBe(0);
    const run = await mq(['edit', '42', '--priority', 'high'], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/\(mq edit\) needs the v2 API.*cancel it and submit it again/);
    // Of several PRs too: one line, and no PR named as stopped at, under --json neither (helper-101).
    const several = await mq(['edit', '42', '43', '--no-batch'], { env });
    expect(several.code).toBe(2);
    expect(several.stderr.trimEnd().split('\n')).toHaveLength(1);
    const json = JSON.parse((await mq(['edit', '42', '43', '--no-batch', '--json'], { env })).stderr).error;
    expect(json).toMatchObject({ code: 'usage' });
    expect(json).not.toHaveProperty('stoppedAt');
    expect(json.message).not.toContain('\n');
  });
});

describe('mq submit of a PR queued at another priority', () => {
  it('names mq edit on v2, cancel then submit on v1 (exit 5 on both)', async () => {
    const v2 = await freshQueue('v2');
    expect((await mq(['submit', '42'], { env: v2 })).code).toBe(0);
    const onV2 = await mq(['submit', '42', '--priority', 'high', '--no-batch'], { env: v2 });
    expect(onV2.code).toBe(5);
    expect(onV2.stdout).toMatch(/^✗ #42 is already queued .*; change it in place: mq edit 42 --priority high --no-batch\n$/);

    const v1 = await freshQueue('v1');
    expect((await mq(['submit', '42'], { env: v1 })).code).toBe(0);
    const onV1 = await mq(['submit', '42', '--priority', 'high'], { env: v1 });
    expect(onV1.code).toBe(5);
    expect(onV1.stdout).toContain('mq cancel 42 && mq submit 42 --priority high');
  });
});

describe('mq history', () => {
  /** A PR submitted, tested and merged; then its history as text and as JSON. */
  async function mergedHistory(api: TestApi) {
    const env = await freshQueue(api);
    expect((await mq(['submit', '42'], { env })).code).toBe(0);
    await advance(1);
    await advance(3600);
    const text = await mq(['history', '42'], { env });
    const asJson = await mq(['history', '42', '--json'], { env });
    expect(text.code).toBe(0);
    expect(asJson.code).toBe(0);
    return { text: text.stdout, json: json(asJson.stdout) };
  }

  it('gives the same states and times on both APIs, oldest first; v2 adds actors and runs', async () => {
    const v2 = await mergedHistory('v2');
    const v1 = await mergedHistory('v1');
    expect(v2.json.prNumber).toBe(42);
    const states = (history: Record<string, any>) => history.timeline.map((change: Record<string, unknown>) => change.state);
    expect(states(v2.json)).toEqual(states(v1.json));
    expect(states(v2.json).at(-1)).toBe('merged');
    expect(states(v2.json)).toContain('testing');
    for (const change of v1.json.timeline) expect(change.actor).toBeNull();
    expect(v2.json.timeline.some((change: Record<string, unknown>) => change.actor !== null)).toBe(true);
    expect(v2.json.timeline.some((change: Record<string, unknown>) => change.testRunId !== null)).toBe(true);
    for (const history of [v1, v2]) {
      const times = history.json.timeline.map((change: Record<string, string>) => change.timestamp);
      expect([...times].sort()).toEqual(times);
      expect(history.text).toMatch(/^TIME +STATE +REASON +ACTOR +RUN/);
      expect(history.text).toContain('merged');
    }
  });

  it('says a PR the service knows but never queued was never submitted, exit 4, on both APIs', async () => {
    for (const api of ['v1', 'v2'] as const) {
      const env = await freshQueue(api);
      const repo = `entries-${repoCounter}`;
      await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: repo }, number: 9 });
      const run = await mq(['history', '9'], { env });
      expect(run, api).toMatchObject({ code: 4, stdout: '' });
      expect(run.stderr, api).toMatch(
        new RegExp(`^mq: pull request #9 was never submitted to the queue for github\\.com/acme/${repo} branch main \\(404\\)\\n$`),
      );
    }
  });
});

describe('mq runs', () => {
  it('on v2 lists the queue’s runs and a PR’s, filtered by status and --since', async () => {
    const env = await freshQueue('v2');
    expect((await mq(['submit', '42'], { env })).code).toBe(0);
    await advance(1);
    await advance(3600);
    const all = await mq(['runs', '--json'], { env });
    expect(all.code).toBe(0);
    const runs = json(all.stdout);
    expect(runs.prNumber).toBeNull();
    expect(runs.testRuns).toHaveLength(1);
    expect(runs.testRuns[0]).toMatchObject({ status: 'succeeded', isBisection: false, testedPullRequests: [{ prNumber: 42 }] });
    const id = runs.testRuns[0].testRunId as string;

    const ofPr = json((await mq(['runs', '42', '--json'], { env })).stdout);
    expect(ofPr).toMatchObject({ prNumber: 42, testRuns: [{ testRunId: id }] });
    const text = await mq(['runs'], { env });
    expect(text.stdout).toMatch(/^ID +STATUS +CREATED +PRS TESTED\n/);
    expect(text.stdout).toContain(`${id}`);
    expect(text.stdout).toContain('#42');
    expect(text.stderr).toBe('');

    expect(json((await mq(['runs', '--status', 'failed', '--json'], { env })).stdout).testRuns).toEqual([]);
    expect(json((await mq(['runs', '--since', '30m', '--json'], { env })).stdout).testRuns).toEqual([]);
    expect(json((await mq(['runs', '42', '--since', '30m', '--json'], { env })).stdout).testRuns).toEqual([]);
    expect(json((await mq(['runs', '42', '--since', '2h', '--json'], { env })).stdout).testRuns).toHaveLength(1);
    expect((await mq(['runs', '--status', 'failed'], { env })).stdout).toBe('No test runs found.\n');

    expect((await mq(['submit', '43'], { env })).code).toBe(0);
    await advance(1);
    const limited = await mq(['runs', '--limit', '1'], { env });
    expect(limited.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(limited.stderr).toBe('More runs are available: raise --limit, or narrow with --status or --since.\n');
  });

  it('on v1 is refused in one line naming the v2 API (exit 2), pointing at mq testing', async () => {
    const env = await freshQueue('v1');
    const queue = await mq(['runs'], { env });
    expect(queue.code).toBe(2);
    expect(queue.stderr).toMatch(/\(mq runs\) needs the v2 API/);
    const ofPr = await mq(['runs', '42'], { env });
    expect(ofPr.code).toBe(2);
    expect(ofPr.stderr).toContain('mq testing 42');
  });
});

describe('mq edit with a key that lacks the permission', () => {
  it('stops at the 403 (exit 3) with what the service says, naming the permission', async () => {
    const sandbox = await startSandbox({
      clock: 'manual',
      rateLimits: false,
      keys: [
        { key: 'trunk_v2_admin', permissions: ['settings', 'submit', 'priority', 'direct', 'skip-batching'] },
        { key: 'trunk_v2_submit_only', permissions: ['submit'] },
      ],
    });
    try {
      const env = { ...sandboxEnv(sandbox.url, 'acme/limited', {}, 'v2'), MQ_TOKEN: 'trunk_v2_submit_only' };
      // Creating a queue takes the settings permission: a key with every one creates it.
      expect((await mq(['queue', 'create'], { env: { ...env, MQ_TOKEN: 'trunk_v2_admin' } })).code).toBe(0);
      expect((await mq(['submit', '42'], { env })).code).toBe(0);
      const run = await mq(['edit', '42', '--priority', 'high'], { env });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/priority/i);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the run that last tested a PR', () => {
  it('is named alike on both APIs for a PR waiting after its batch failed and was split (no batch of v2’s order holds it)', async () => {
    const repo = `acme/entries-${++repoCounter}`;
    const on = (api: TestApi) => sandboxEnv(fixture.recorder.url, repo, {}, api);
    expect((await mq(['queue', 'create', '--batch', '--batching-min-size', '3', '--concurrency', '1'], { env: on('v1') })).code).toBe(0);
    const [owner, name] = repo.split('/');
    // #1–#3 test as a batch, which #3 fails; the bisection tests #1 and #2 apart while #3 waits, its failed run
    // no longer a batch of the order.
    await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner, name }, number: 3, testOutcome: 'fail' });
    expect((await mq(['submit', '1', '2', '3', '4', '5'], { env: on('v1') })).code).toBe(0);
    await advance(400);
    const [v1, v2] = [
      json((await mq(['status', '3', '--json'], { env: on('v1') })).stdout),
      json((await mq(['status', '3', '--json'], { env: on('v2') })).stdout),
    ];
    expect(v1.state).toBe('pending_failure');
    expect(v2.state).toBe('pending_failure');
    expect(typeof v1.verifiedByTestRun).toBe('string');
    expect(v2.verifiedByTestRun).toBe(v1.verifiedByTestRun);
  });

  it('is a bisection’s run by v1’s name, <id>-bisection, on both APIs, and mq testing --run finds it by that or its id alone (helper-99)', async () => {
    const repo = `acme/entries-${++repoCounter}`;
    const on = (api: TestApi) => sandboxEnv(fixture.recorder.url, repo, {}, api);
    expect((await mq(['queue', 'create', '--batch', '--batching-min-size', '2', '--concurrency', '1'], { env: on('v1') })).code).toBe(0);
    const [owner, name] = repo.split('/');
    // #1 and #2 test as a batch, which #2 fails; the bisection tests #1 alone.
    await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner, name }, number: 2, testOutcome: 'fail' });
    expect((await mq(['submit', '1', '2'], { env: on('v1') })).code).toBe(0);
    await advance(400);
    const testing = async (api: TestApi, args: string[]) => {
      const run = await mq(['testing', ...args, '--json'], { env: on(api) });
      expect(run.stderr).toBe('');
      return json(run.stdout);
    };
    const v1 = await testing('v1', ['1']);
    expect(v1).toMatchObject({ testRunId: expect.stringMatching(/^[0-9a-f-]{36}-bisection$/), status: 'in_progress', queueType: 'bisection' });
    expect(json((await mq(['status', '1', '--json'], { env: on('v2') })).stdout).verifiedByTestRun).toBe(v1.testRunId);
    for (const api of ['v1', 'v2'] as const) {
      expect(await testing(api, ['1'])).toEqual(v1);
      for (const id of [v1.testRunId, v1.testRunId.replace(/-bisection$/, '')]) expect(await testing(api, ['--run', id])).toEqual(v1);
    }
  });
});

describe('mq testing', () => {
  it('shows a run’s impacted targets alike on both APIs (a parallel queue)', async () => {
    const repo = `acme/entries-${++repoCounter}`;
    const on = (api: TestApi) => sandboxEnv(fixture.recorder.url, repo, {}, api);
    expect((await mq(['queue', 'create', '--mode', 'parallel', '--concurrency', '3'], { env: on('v1') })).code).toBe(0);
    expect((await mq(['submit', '1', '2'], { env: on('v1') })).code).toBe(0);
    expect((await mq(['targets', 'set', '1', '//a'], { env: on('v1') })).code).toBe(0);
    expect((await mq(['targets', 'set', '2', '//a', '//b'], { env: on('v1') })).code).toBe(0);
    await advance(10);
    const [v1, v2] = [await mq(['testing', '2'], { env: on('v1') }), await mq(['testing', '2'], { env: on('v2') })];
    expect(v1.code).toBe(0);
    expect(v1.stdout).toMatch(/impacted targets +\/\/a, \/\/b/);
    // v1 names the PRs merged into a parallel queue's run's base; v2 names them in either mode and mq shows them
    // on neither (docs/differences.md): the text but for that row.
    expect(v1.stdout).toContain('depends on             #1');
    expect(v2).toEqual({ ...v1, stdout: v1.stdout.replace(/^depends on .*\n/m, '') });
    const facts = async (api: TestApi) => {
      const { impactedTargets, impactedTargetsForTestedPrs } = json((await mq(['testing', '2', '--json'], { env: on(api) })).stdout);
      return { impactedTargets, impactedTargetsForTestedPrs };
    };
    expect(await facts('v2')).toEqual(await facts('v1'));
  });
});

describe('the line, with an urgent PR and priorities', () => {
  it('is the same on both APIs: queue get’s order, a wait’s positions, and the run an urgent PR interrupted', async () => {
    const repo = `acme/entries-${++repoCounter}`;
    const on = (api: TestApi) => sandboxEnv(fixture.recorder.url, repo, {}, api);
    const [owner, name] = repo.split('/');
    const describePr = (facts: Record<string, unknown>) => control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner, name }, ...facts });
    expect((await mq(['queue', 'create', '--concurrency', '2'], { env: on('v1') })).code).toBe(0);
    await describePr({ number: 3, mergeable: false });
    await describePr({ number: 4, state: 'draft' });
    expect((await mq(['submit', '1', '2', '3', '4', '5', '6'], { env: on('v1') })).code).toBe(0);
    await advance(10);
    // #1 and #2 testing; #8 urgent interrupts #2 (back to pending), #9 low goes behind the mediums.
    expect((await mq(['submit', '8', '--priority', 'urgent'], { env: on('v1') })).code).toBe(0);
    expect((await mq(['submit', '9', '--priority', 'low'], { env: on('v1') })).code).toBe(0);
    await advance(10);

    const order = async (api: TestApi) =>
      (json((await mq(['queue', 'get', '--json'], { env: on(api) })).stdout).enqueuedPullRequests as { prNumber: number; state: string }[]).map(
        (pr) => `${pr.prNumber} ${pr.state}`,
      );
    const v1Order = await order('v1');
    expect(v1Order[0]).toBe('8 testing');
    expect(v1Order.slice(-2)).toEqual(['3 not_ready', '4 not_ready']);
    expect(await order('v2')).toEqual(v1Order);

    // The positions of a wait's rounds, read from the PR list alone on v2.
    const positions = async (api: TestApi) => {
      const run = await mq(['wait', '1', '2', '5', '9', '--timeout', '1s', '--json'], { env: on(api) });
      expect(run.code, api).toBe(7);
      const seen = run.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { pr?: number; position?: number });
      return seen.flatMap((event) => (event.pr === undefined ? [] : [[event.pr, event.position]]));
    };
    const v1Positions = await positions('v1');
    expect(v1Positions).toEqual([
      [1, 2],
      [2, 3],
      [5, 4],
      [9, 6],
    ]);
    expect(await positions('v2')).toEqual(v1Positions);

    // #2, sent back to pending: the run it was in, on both.
    const [v1, v2] = [await mq(['testing', '2'], { env: on('v1') }), await mq(['testing', '2'], { env: on('v2') })];
    expect(v1.code).toBe(0);
    expect(v1.stdout).toMatch(/^status +cancelled/);
    expect(v2).toEqual({ ...v1, stdout: v1.stdout.replace(/^depends on .*\n/m, '') });
  });
});
