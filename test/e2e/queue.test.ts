// The queue commands end to end: create, get, update (every setting flag), the maintenance window with its
// confirmation gate, and delete with its refusal of a non-empty queue.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

let repoCounter = 0;
const newRepo = () => sandboxEnv(fixture.recorder.url, `acme/q-${++repoCounter}`);
const json = (text: string) => JSON.parse(text) as Record<string, any>;
const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });

describe('queue create, get and update', () => {
  it('creates a queue with settings and shows them', async () => {
    const env = newRepo();
    const created = await mq(['queue', 'create', '--mode', 'parallel', '--concurrency', '4', '--batch', '--batching-min-size', '3'], { env });
    expect(created).toMatchObject({ code: 0, stderr: '' });
    // createQueue takes mode and concurrency; the rest follows in updateQueue.
    const sent = fixture.recorder.requests.filter((r) => r.method === 'POST').map((r) => [r.path, JSON.parse(r.body)]);
    expect(sent[0]).toEqual([
      '/createQueue',
      { repo: { host: 'github.com', owner: 'acme', name: `q-${repoCounter}` }, targetBranch: 'main', mode: 'parallel', concurrency: 4 },
    ]);
    expect(sent[1]?.[0]).toBe('/updateQueue');
    expect(sent[1]?.[1]).toMatchObject({ batch: true, batchingMinSize: 3 });

    const queue = json((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(queue).toMatchObject({
      state: 'running',
      branch: 'main',
      mode: 'parallel',
      concurrency: 4,
      batch: true,
      batchingMinSize: 3,
      enqueuedPullRequests: [],
    });

    const table = await mq(['queue', 'get'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('parallel');
    expect(table.stdout).not.toContain('\u001b[');
  });

  it.each(['v1', 'v2'] as const)('queue update says first which settings it changed, from what to what (%s)', async (api) => {
    const env = sandboxEnv(fixture.recorder.url, `acme/q-${++repoCounter}`, {}, api);
    await mq(['queue', 'create'], { env });
    const run = await mq(['queue', 'update', '--concurrency', '4', '--batch', '--merge-method', 'squash'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [head, ...rest] = run.stdout.split('\n');
    expect(head).toBe(`Queue main of acme/q-${repoCounter} updated: 2 settings changed`);
    // mergeMethod was squash already: not listed as changed.
    expect(rest.slice(0, 3)).toEqual(['concurrency  1 → 4', 'batch        off → on', '']);
    expect(run.stdout).toMatch(/^Settings now:\nstate +running$/m);
    expect(run.stdout).toMatch(/^concurrency +4$/m);
    const doc = json((await mq(['queue', 'update', '--concurrency', '2', '--json'], { env })).stdout);
    expect(doc.settingsChanged).toEqual([{ setting: 'concurrency', from: 4, to: 2 }]);
    expect(doc.queue).toMatchObject({ concurrency: 2 });
    const same = await mq(['queue', 'update', '--concurrency', '2'], { env });
    // Nothing changed: said in a line, without the 23 settings after it.
    expect(same.stdout).toBe(`Queue main of acme/q-${repoCounter} unchanged: each setting already had the value given\n`);
  });

  it('sets every queue setting through its kebab-case flag', async () => {
    const env = newRepo();
    await mq(['queue', 'create'], { env });
    const flags = [
      '--mode',
      'single',
      '--concurrency',
      '2',
      '--testing-timeout-minutes',
      '45',
      '--pending-failure-depth',
      '2',
      '--can-optimistically-merge',
      '--batch',
      '--batching-min-size',
      '4',
      '--batching-max-wait-time-minutes',
      '7',
      '--bisection-concurrency',
      '3',
      '--direct-merge-mode',
      'always',
      '--optimization-mode',
      'bisection_skip_redundant_tests',
      '--merge-method',
      'rebase',
      '--required-status',
      'ci/build',
      '--required-status',
      'ci/test',
      '--no-comments-enabled',
      '--no-commands-enabled',
      '--no-create-prs-for-testing-branches',
      '--no-status-check-enabled',
    ];
    const updated = await mq(['queue', 'update', ...flags, '--json'], { env });
    expect(updated.code).toBe(0);
    // updateQueue answers with the whole queue; the confirmation carries its state and settings, not its PRs.
    expect(json(updated.stdout)).toMatchObject({ action: 'update', queue: { concurrency: 2 } });
    expect(json(updated.stdout).queue).not.toHaveProperty('enqueuedPullRequests');
    const queue = json((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(queue).toMatchObject({
      mode: 'single',
      concurrency: 2,
      testingTimeoutMinutes: 45,
      pendingFailureDepth: 2,
      canOptimisticallyMerge: true,
      batch: true,
      batchingMinSize: 4,
      batchingMaxWaitTimeMinutes: 7,
      bisectionConcurrency: 3,
      directMergeMode: 'always',
      optimizationMode: 'bisection_skip_redundant_tests',
      mergeMethod: 'rebase',
      requiredStatuses: ['ci/build', 'ci/test'],
      commentsEnabled: false,
      commandsEnabled: false,
      createPrsForTestingBranches: false,
      statusCheckEnabled: false,
    });
    const further = ['--extension-enabled', '--enqueueing-label', 'ship it', '--label-commands-enabled', '--state-labels-enabled'];
    expect((await mq(['queue', 'update', ...further], { env })).code).toBe(0);
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout)).toMatchObject({
      extensionEnabled: true,
      enqueueingLabel: 'ship it',
      labelCommandsEnabled: true,
      stateLabelsEnabled: true,
    });
    const off = ['--no-extension-enabled', '--enqueueing-label', '', '--no-label-commands-enabled', '--no-state-labels-enabled'];
    expect((await mq(['queue', 'update', ...off], { env })).code).toBe(0);
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout)).toMatchObject({
      extensionEnabled: false,
      enqueueingLabel: '',
      labelCommandsEnabled: false,
      stateLabelsEnabled: false,
    });

    // No override left: the branch protection's required statuses apply, which the service says as null.
    const cleared = await mq(['queue', 'update', '--delete-required-statuses'], { env });
    expect(cleared.code).toBe(0);
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout).requiredStatuses).toBeNull();
    expect((await mq(['queue', 'get'], { env })).stdout).toMatch(/^requiredStatuses +\(branch protection\)$/m);
  });

  it('creates a queue with the further settings and pendingFailureDepth 0, and shows them', async () => {
    const env = newRepo();
    fixture.recorder.requests.length = 0;
    const flags = ['--pending-failure-depth', '0', '--extension-enabled', '--enqueueing-label', 'merge-me', '--state-labels-enabled'];
    const created = await mq(['queue', 'create', ...flags], { env });
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    const update = JSON.parse(fixture.recorder.requests.find((r) => r.path === '/updateQueue')!.body);
    expect(update).toEqual({
      repo: { host: 'github.com', owner: 'acme', name: `q-${repoCounter}` },
      targetBranch: 'main',
      pendingFailureDepth: 0,
      extensionEnabled: true,
      enqueueingLabel: 'merge-me',
      stateLabelsEnabled: true,
    });

    const table = (await mq(['queue', 'get'], { env })).stdout;
    for (const row of [
      /^pendingFailureDepth +0$/m,
      /^extensionEnabled +on$/m,
      /^enqueueingLabel +merge-me$/m,
      /^labelCommandsEnabled +off$/m,
      /^stateLabelsEnabled +on$/m,
    ]) {
      expect(table).toMatch(row);
    }
    const queue = json((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(queue).toMatchObject({
      pendingFailureDepth: 0,
      extensionEnabled: true,
      enqueueingLabel: 'merge-me',
      labelCommandsEnabled: false,
      stateLabelsEnabled: true,
    });
  });

  it("gives a new queue the service's defaults", async () => {
    const env = newRepo();
    expect((await mq(['queue', 'create', '--concurrency', '3'], { env })).code).toBe(0);
    const queue = json((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(queue).toMatchObject({
      mode: 'single',
      concurrency: 3,
      bisectionConcurrency: 3,
      testingTimeoutMinutes: 300,
      pendingFailureDepth: 0,
      batch: false,
      batchingMinSize: 4,
      batchingMaxWaitTimeMinutes: 5,
      mergeMethod: 'squash',
      directMergeMode: 'off',
      requiredStatuses: null,
    });
  });

  it('refuses bad settings before sending anything', async () => {
    const env = newRepo();
    fixture.recorder.requests.length = 0;
    expect((await mq(['queue', 'update', '--concurrency', '0'], { env })).code).toBe(2);
    expect((await mq(['queue', 'update', '--mode', 'sideways'], { env })).code).toBe(2);
    expect((await mq(['queue', 'update'], { env })).code).toBe(2);
    expect(fixture.recorder.requests).toHaveLength(0);
  });

  it('answers 409 for a duplicate queue (exit 5) and 404 for a missing one (exit 4)', async () => {
    const env = newRepo();
    await mq(['queue', 'create'], { env });
    const again = await mq(['queue', 'create'], { env });
    expect(again.code).toBe(5);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    const missing = await mq(['queue', 'get', '--branch', 'nowhere'], { env });
    expect(missing.code).toBe(4);
    const asJson = await mq(['queue', 'get', '--branch', 'nowhere', '--json'], { env });
    expect(asJson.stdout).toBe('');
    expect(json(asJson.stderr)).toMatchObject({ error: { code: 'not_found', status: 404 } });
  });
});

describe('the maintenance window', () => {
  it('refuses pause and drain without a terminal unless --yes, and sends nothing', async () => {
    const env = newRepo();
    await mq(['queue', 'create'], { env });
    fixture.recorder.requests.length = 0;
    for (const command of [
      ['queue', 'pause'],
      ['queue', 'drain'],
      ['queue', 'delete'],
    ]) {
      const run = await mq(command, { env });
      expect(run.code, command.join(' ')).toBe(2);
      expect(run.stderr).toContain('--yes');
    }
    expect(fixture.recorder.requests).toHaveLength(0);
  });

  it('pauses with a reason, drains and resumes', async () => {
    const env = newRepo();
    await mq(['queue', 'create'], { env });
    await mq(['submit', '1', '2'], { env });
    const paused = await mq(['queue', 'pause', '--reason', 'deploy freeze', '--yes'], { env });
    expect(paused.code).toBe(0);
    expect(paused.stdout).toBe(`Queue main of acme/q-${repoCounter} paused\nReason: deploy freeze (printed only: the service stores no reason)\n`);
    expect((await mq(['queue', 'pause', '--help'], { env })).stdout).toMatch(
      /--reason <text> +why, for the confirmation and the printed\s+result \(CI logs\)\s+only: the service stores no\s+reason/,
    );
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout).state).toBe('paused');
    // Paused: nothing starts testing, nothing merges.
    await advance(7200);
    const held = json((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(held.enqueuedPullRequests.map((pr: { state: string }) => pr.state)).not.toContain('testing');
    expect(held.enqueuedPullRequests).toHaveLength(2);

    const draining = await mq(['queue', 'drain', '--yes', '--json'], { env });
    expect(json(draining.stdout)).toMatchObject({ action: 'drain', state: 'draining' });
    const resumed = await mq(['queue', 'resume'], { env });
    expect(resumed.code).toBe(0);
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout).state).toBe('running');
  });
});

describe('queue delete', () => {
  it('refuses a queue with PRs, listing them, and deletes with --cancel-all', async () => {
    const env = newRepo();
    await mq(['queue', 'create'], { env });
    await mq(['submit', '31', '32'], { env });
    const refused = await mq(['queue', 'delete', '--yes'], { env });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/^mq: the queue main of acme\/q-\d+ is not empty: #31, #32 /);
    expect(refused.stderr).toContain('#32');
    expect(fixture.recorder.requests.some((r) => r.path === '/deleteQueue')).toBe(false);

    const deleted = await mq(['queue', 'delete', '--yes', '--cancel-all'], { env });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(/Queue main of acme\/q-\d+ deleted\n$/);
    const cancels = fixture.recorder.requests.filter((r) => r.path === '/cancelPullRequest').map((r) => JSON.parse(r.body).pr.number);
    expect(cancels).toEqual([31, 32]);
    expect(fixture.recorder.requests.at(-1)?.path).toBe('/deleteQueue');
    expect((await mq(['queue', 'get'], { env })).code).toBe(4);
  });

  it('deletes an empty queue', async () => {
    const env = newRepo();
    await mq(['queue', 'create'], { env });
    const deleted = await mq(['queue', 'delete', '--yes', '--json'], { env });
    expect(deleted.code).toBe(0);
    expect(json(deleted.stdout)).toMatchObject({ action: 'delete' });
  });
});
