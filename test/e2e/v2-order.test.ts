// mq queue order, mq queue graph and status's "waiting on", end to end against the sandbox: on v2 the queue's
// dispatch order and dependency graph; on v1 the order of getQueue, and the graph refused (exit 2) naming v2.
// Every request mq sends is checked against its API's published description (useSandbox).
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
let repoCounter = 0;
const json = (text: string) => JSON.parse(text) as Record<string, any>;

/**
 * A parallel queue that tests one batch at a time, with batching on (directlyAhead is empty without it): #1 and
 * #2 share //a, #3 has //b alone, #4 touches both, so #1 tests, #2 waits on #1, and #4 on #2 and #3.
 */
async function parallelQueue(api: TestApi, options: { concurrency?: number } = {}) {
  const name = `order-${++repoCounter}`;
  const env = sandboxEnv(fixture.recorder.url, `acme/${name}`, {}, api);
  const repo = { host: 'github.com', owner: 'acme', name };
  expect((await mq(['queue', 'create', '--mode', 'parallel', '--concurrency', String(options.concurrency ?? 1)], { env })).code).toBe(0);
  const updated = await mq(['queue', 'update', '--batch', '--batching-min-size', '1'], { env });
  expect(updated.stderr).toBe('');
  for (const [number, title] of [
    [1, 'add a'],
    [2, 'change a'],
    [3, 'add b'],
    [4, 'join a and b'],
  ] as const)
    await control(fixture.sandboxUrl, 'pullRequests', { repo, number, title });
  expect((await mq(['submit', '1', '2', '3', '4'], { env })).code).toBe(0);
  const targets: Record<number, string[]> = { 1: ['//a'], 2: ['//a'], 3: ['//b'], 4: ['//a', '//b'] };
  for (const [pr, list] of Object.entries(targets)) expect((await mq(['targets', 'set', pr, ...list], { env })).code).toBe(0);
  await control(fixture.sandboxUrl, 'advance', { seconds: 1 });
  return env;
}

const v1Env = (env: Record<string, string>) => ({ ...env, MQ_TOKEN: sandboxEnv('', '', {}, 'v1').MQ_TOKEN });
const requestsTo = (suffix: string) => fixture.recorder.requests.filter((request) => request.path.split('?')[0]!.endsWith(suffix)).length;

describe('mq queue order', () => {
  it('on v2: the batch testing, then the PRs waiting with their predicted batch and what each waits on', async () => {
    const env = await parallelQueue('v2');
    const run = await mq(['queue', 'order'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'state running · mode parallel · batching on',
        '',
        'Batches with a run (1):',
        'BATCH  STATE    PR  TITLE',
        '1      testing  #1  add a',
        '',
        'Next to test (3):',
        '#  PR  TITLE         BATCH  WAITS ON',
        // One numbering of batches: those predicted follow the one with a run.
        '1  #2  change a          2  #1',
        '2  #3  add b             3  -',
        '3  #4  join a and b      4  #2, #3',
        '',
      ].join('\n'),
    );
    const order = json((await mq(['queue', 'order', '--json'], { env })).stdout);
    expect(order).toMatchObject({ mode: 'parallel', queueState: 'running', batchingEnabled: true, hasCycle: false, awaitingAdmissionTotal: 0 });
    expect(order.batches).toEqual([
      { testRunId: expect.any(String), state: 'testing', isBisection: false, pullRequests: [expect.objectContaining({ prNumber: 1, prTitle: 'add a' })] },
    ]);
    expect(
      order.pending.map((item: any) => [item.pullRequest.prNumber, item.state, item.schedulability, item.directlyAhead.map((pr: any) => pr.prNumber)]),
    ).toEqual([
      [2, 'pending', 'schedulable', [1]],
      [3, 'pending', 'schedulable', []],
      [4, 'pending', 'schedulable', [2, 3]],
    ]);
  });

  it('on v2: the PRs held behind a failure, with the PR that holds them', async () => {
    // A single queue testing two at a time: #1 tests long, #2 fails on top of it and waits in pending_failure
    // for #1's outcome, and the PRs behind #2 are held.
    const name = `held-${++repoCounter}`;
    const env = sandboxEnv(fixture.recorder.url, `acme/${name}`, {}, 'v2');
    const repo = { host: 'github.com', owner: 'acme', name };
    expect((await mq(['queue', 'create', '--concurrency', '2'], { env })).code).toBe(0);
    await control(fixture.sandboxUrl, 'pullRequests', { repo, number: 1, testDurationSeconds: 900 });
    await control(fixture.sandboxUrl, 'pullRequests', { repo, number: 2, testOutcome: 'fail' });
    expect((await mq(['submit', '1', '2', '3', '4'], { env })).code).toBe(0);
    await control(fixture.sandboxUrl, 'advance', { seconds: 400 });
    const order = json((await mq(['queue', 'order', '--json'], { env })).stdout);
    expect(order.batches.map((batch: any) => [batch.state, batch.pullRequests.map((pr: any) => pr.prNumber)])).toContainEqual(['pending_failure', [2]]);
    const held = order.pending.filter((item: any) => item.schedulability === 'held_behind_failure');
    expect(held.length).toBeGreaterThan(0);
    for (const item of held) {
      expect(item.predictedBatch).toBeNull();
      expect(item.heldBy.map((pr: any) => pr.prNumber)).toEqual([2]);
    }
    const text = (await mq(['queue', 'order'], { env })).stdout;
    expect(text).toContain(`Held behind a failure (${held.length}):`);
    expect(text).toMatch(/^#4 +PR #4 +#2$/m);
  });

  it('on v1: the order of getQueue, with no predicted batch and nothing waited on (null under --json)', async () => {
    const env = v1Env(await parallelQueue('v2'));
    const run = await mq(['queue', 'order'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'state running · mode parallel · batching on',
        '',
        'In the queue, in order (4):',
        '#  PR  TITLE         STATE',
        '1  #1  add a         testing',
        '2  #2  change a      pending',
        '3  #3  add b         pending',
        '4  #4  join a and b  pending',
        '',
        'The service tells the queue order only: no predicted batches, nor what each PR waits on.',
        '',
      ].join('\n'),
    );
    const order = json((await mq(['queue', 'order', '--json'], { env })).stdout);
    expect(order).toMatchObject({ mode: 'parallel', batches: [], isolationResolved: null, hasCycle: null });
    expect(order.pending[3]).toEqual({
      pullRequest: expect.objectContaining({ prNumber: 4, prTitle: 'join a and b' }),
      state: 'pending',
      schedulability: null,
      predictedBatch: null,
      directlyAhead: null,
      heldBy: null,
    });
  });
});

describe('mq queue graph', () => {
  it('on v2: draws the lanes, and prints Graphviz and Mermaid text', async () => {
    const env = await parallelQueue('v2');
    const text = await mq(['queue', 'graph'], { env });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toBe(['* #1 add a (testing)', '* #2 change a (pending)', '| * #3 add b (pending)', '|/', '* #4 join a and b (pending)', ''].join('\n'));
    const dot = await mq(['queue', 'graph', '--format', 'dot'], { env });
    expect(dot.stdout).toContain('digraph merge_queue {');
    expect(dot.stdout).toContain('  "4" [label="#4 join a and b (pending)"];');
    expect(dot.stdout).toContain('  "3" -> "4";');
    const mermaid = await mq(['queue', 'graph', '--format', 'mermaid'], { env });
    expect(mermaid.stdout.split('\n')).toEqual(expect.arrayContaining(['flowchart TD', '  pr1["#1 add a (testing)"]', '  pr1 --> pr2', '  pr3 --> pr4']));
    const graph = json((await mq(['queue', 'graph', '--json', '--impacted-targets'], { env })).stdout);
    expect(graph.edges).toEqual(
      expect.arrayContaining([expect.objectContaining({ fromPrNumber: 2, toPrNumber: 4 }), expect.objectContaining({ fromPrNumber: 3, toPrNumber: 4 })]),
    );
    expect(graph.nodes.find((node: any) => node.prNumber === 4)).toMatchObject({ prTitle: 'join a and b', state: 'pending', impactedTargets: ['//a', '//b'] });
  });

  it('on v1: refused in one line naming the v2 API, exit 2, nothing sent', async () => {
    const env = v1Env(await parallelQueue('v2'));
    const before = fixture.recorder.requests.length;
    const run = await mq(['queue', 'graph'], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('v2 API');
    expect(fixture.recorder.requests.length).toBe(before);
  });

  it('refuses an unknown --format', async () => {
    const run = await mq(['queue', 'graph', '--format', 'svg'], { env: sandboxEnv(fixture.recorder.url, 'acme/none', {}, 'v2') });
    expect(run.code).toBe(2);
  });
});

describe('mq status: what a pending PR waits on', () => {
  it('on v2: "waiting on" from the order, which each status reads once: the queue\'s line and what a PR waits on come from it', async () => {
    const env = await parallelQueue('v2');
    const before = requestsTo('/order');
    const run = await mq(['status', '4'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^waiting on +#2, #3$/m);
    expect(requestsTo('/order')).toBe(before + 1);
    const pr = json((await mq(['status', '4', '--json'], { env })).stdout);
    expect(pr.waitingOn.map((ahead: any) => ahead.prNumber)).toEqual([2, 3]);
    const testing = await mq(['status', '1'], { env });
    expect(testing.stdout).not.toContain('waiting on');
    expect(requestsTo('/order')).toBe(before + 3);
  });

  it('on v1: nothing changes, no order read', async () => {
    const env = v1Env(await parallelQueue('v2'));
    const before = fixture.recorder.requests.length;
    const run = await mq(['status', '4'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('waiting on');
    expect(json((await mq(['status', '4', '--json'], { env })).stdout)).not.toHaveProperty('waitingOn');
    expect(fixture.recorder.requests.slice(before).filter((request) => request.path.startsWith('/v2/'))).toEqual([]);
  });

  it('a wait never reads the order', async () => {
    const env = await parallelQueue('v2');
    const run = await mq(['wait', '4', '--for', 'pending', '--json'], { env });
    expect(run.code).toBe(0);
    expect(requestsTo('/order')).toBe(0);
  });
});
