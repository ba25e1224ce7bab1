// The organization's queues (v2): `mq queues` lists them with their live PRs counted; `--all-queues` pauses,
// drains and resumes every one, each reported; `mq queue switch-mode` converts a queue, on both APIs, and
// --wait returns once it no longer reads switching_modes. On v1, what needs the list of queues is refused (2).
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, startMq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const json = (text: string) => JSON.parse(text) as Record<string, any>;
const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });

async function queueOf(repo: string, api: TestApi, ...settings: string[]): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, repo, {}, api);
  expect((await mq(['queue', 'create', ...settings], { env })).code).toBe(0);
  return env;
}

describe('mq queues', () => {
  it('lists every queue of the organization with its state, mode and live PRs, as a table and as JSON', async () => {
    const widgets = await queueOf('acme/widgets', 'v2');
    await queueOf('acme/gadgets', 'v2', '--mode', 'parallel');
    expect((await mq(['submit', '1', '2'], { env: widgets })).code).toBe(0);
    expect((await mq(['queue', 'pause', '--yes'], { env: widgets })).code).toBe(0);

    const listed = await mq(['queues', '--json'], { env: widgets });
    expect(listed.code).toBe(0);
    const queues = (json(listed.stdout).queues as Record<string, unknown>[]).map(({ queueId, ...rest }) => {
      expect(typeof queueId).toBe('string');
      return rest;
    });
    expect(queues.sort((a, b) => String((a.repo as { name: string }).name).localeCompare((b.repo as { name: string }).name))).toEqual([
      { repo: { host: 'github.com', owner: 'acme', name: 'gadgets' }, branch: 'main', state: 'running', mode: 'parallel', pullRequests: 0 },
      { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, branch: 'main', state: 'paused', mode: 'single', pullRequests: 2 },
    ]);

    const table = await mq(['queues'], { env: widgets });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^REPOSITORY +BRANCH +STATE +MODE +PRS$/m);
    expect(table.stdout).toMatch(/^acme\/widgets +main +paused +single +2$/m);
    expect(table.stdout).toMatch(/^acme\/gadgets +main +running +parallel +0$/m);

    // The organization's list needs no repository.
    const { MQ_REPO: _, ...anywhere } = widgets;
    const outside = await mq(['queues', '--json'], { env: anywhere });
    expect(outside.code).toBe(0);
    expect(json(outside.stdout).queues).toHaveLength(2);
  });

  it('is refused on v1 in one line naming the v2 API, with nothing sent', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/widgets');
    const from = fixture.recorder.requests.length;
    const run = await mq(['queues'], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/v2/);
    expect(fixture.recorder.requests.slice(from)).toEqual([]);
  });
});

describe('queue pause, drain and resume --all-queues', () => {
  it('changes every queue, each on its own line, and leaves one already so alone', async () => {
    const env = await queueOf('acme/widgets', 'v2');
    const gadgets = await queueOf('acme/gadgets', 'v2');
    expect((await mq(['queue', 'pause', '--yes'], { env: gadgets })).code).toBe(0);

    const paused = await mq(['queue', 'pause', '--all-queues', '--yes', '--reason', 'freeze'], { env });
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain('✓ Queue main of acme/widgets paused\n');
    expect(paused.stdout).toContain('- Queue main of acme/gadgets is already paused');
    // The service stores no reason: the printed result says so, once.
    expect(paused.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(paused.stdout).toMatch(/\nReason: freeze \(printed only: the service stores no reason\)\n$/);

    const drained = await mq(['queue', 'drain', '--all-queues', '--yes', '--json'], { env });
    expect(drained.code).toBe(0);
    const results = json(drained.stdout).results as Record<string, unknown>[];
    expect(json(drained.stdout).action).toBe('drain');
    expect(results).toHaveLength(2);
    for (const result of results) expect(result).toMatchObject({ ok: true, changed: true, state: 'draining', queue: { branch: 'main' } });

    const resumed = await mq(['queue', 'resume', '--all-queues', '--yes'], { env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('✓ Queue main of acme/widgets resumed');
    const after = json((await mq(['queues', '--json'], { env })).stdout).queues as { state: string }[];
    expect(after.map((queue) => queue.state)).toEqual(['running', 'running']);
  });

  it('asks for --yes without a terminal, and refuses drain --wait with --all-queues', async () => {
    const env = await queueOf('acme/widgets', 'v2');
    const unconfirmed = await mq(['queue', 'pause', '--all-queues'], { env });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/--yes/);
    const waiting = await mq(['queue', 'drain', '--all-queues', '--yes', '--wait'], { env });
    expect(waiting.code).toBe(2);
  });

  it('is refused on v1, naming the v2 API', async () => {
    const env = await queueOf('acme/widgets', 'v1');
    for (const action of ['pause', 'drain', 'resume']) {
      const run = await mq(['queue', action, '--all-queues', '--yes'], { env });
      expect({ action, code: run.code }).toEqual({ action, code: 2 });
      expect(run.stderr).toMatch(/v2/);
      // Without --yes, the refusal comes first: asking for --yes would lead nowhere.
      const unasked = await mq(['queue', action, '--all-queues'], { env });
      expect(unasked.stderr).toBe('mq: listing every queue (mq queues, --all-queues) needs the v2 API (a v2 API key); v1 has no such list\n');
    }
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout).state).toBe('running');
  });
});

describe.each(['v1', 'v2'] as const)('queue switch-mode on %s', (api) => {
  it('switches an empty queue at once, and leaves a queue already in that mode alone', async () => {
    const env = await queueOf('acme/widgets', api);
    const switched = await mq(['queue', 'switch-mode', 'parallel', '--json'], { env });
    expect(switched.code).toBe(0);
    expect(json(switched.stdout)).toMatchObject({ action: 'switch-mode', mode: 'parallel', changed: true });
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout)).toMatchObject({ mode: 'parallel', state: 'running' });

    const again = await mq(['queue', 'switch-mode', 'graph'], { env });
    expect(again).toMatchObject({ code: 0, stdout: 'Queue main of acme/widgets already runs in parallel mode\n' });
    const back = await mq(['queue', 'switch-mode', 'queue', '--wait'], { env });
    expect(back.code).toBe(0);
    expect(back.stdout).toMatch(/^Queue main of acme\/widgets switched to single mode, running$/m);
  });

  it('--wait returns once the runs in flight are done', async () => {
    const env = await queueOf('acme/widgets', api);
    expect((await mq(['submit', '1'], { env })).code).toBe(0);
    const waiting = startMq(['queue', 'switch-mode', 'parallel', '--wait', '--interval', '1s', '-v', '--json'], { env });
    await waiting.until(/still reads switching_modes/, 'stderr');
    await advance(3600);
    const done = await waiting.finish();
    expect(done.code).toBe(0);
    expect(json(done.stdout)).toMatchObject({ mode: 'parallel', changed: true, state: 'running', timedOut: false });
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout)).toMatchObject({ mode: 'parallel', state: 'running' });
  });

  it('--wait gives up at --timeout with exit 7, the queue still switching', async () => {
    const env = await queueOf('acme/widgets', api);
    expect((await mq(['submit', '1'], { env })).code).toBe(0);
    const timedOut = await mq(['queue', 'switch-mode', 'parallel', '--wait', '--timeout', '1m', '--interval', '5s'], { env });
    expect(timedOut.code).toBe(7);
    expect(timedOut.stdout).toBe('Queue main of acme/widgets is still switching to parallel mode after 1m\n');
  });

  it('without --wait says in words that it is switching, not the state switching_modes', async () => {
    const env = await queueOf('acme/widgets', api);
    expect((await mq(['submit', '1'], { env })).code).toBe(0);
    const run = await mq(['queue', 'switch-mode', 'parallel'], { env });
    expect(run).toMatchObject({ code: 0, stdout: 'Queue main of acme/widgets is switching to parallel mode: the runs in flight finish first\n' });
  });
});

describe('queue switch-mode on v2 while a switch is under way', () => {
  it('is the service refusal (409 MODE_CHANGE_IN_PROGRESS), exit 5 with its message', async () => {
    const env = await queueOf('acme/widgets', 'v2');
    expect((await mq(['submit', '1'], { env })).code).toBe(0);
    expect((await mq(['queue', 'switch-mode', 'parallel'], { env })).code).toBe(0);
    const refused = await mq(['queue', 'switch-mode', 'single'], { env });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/switching modes/);
  });
});
