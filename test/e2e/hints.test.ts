// Every command mq tells a user to run, copied, acts on the queue the user named. The queue is named here by -R and
// -b as flags, while the environment names another repository (MQ_REPO, a decoy with a queue of its own): a hint
// that lost the flags would act on the decoy's queue, or on none. Each hint is taken from mq's output as printed,
// run as printed (what a person adds is only what the hint leaves to them: the targets), and the right queue checked.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort, control, isolatedDir, sandboxEnv } from '../support/cli.js';
import { mq, startMq, useSandbox } from '../support/in-process.js';
import { pastedWords } from '../support/paste.js';
import { Emulator } from '../terminal/emulator.js';
import { shellWords } from '../../src/text/shell-words.js';

const fixture = useSandbox();
const DECOY = 'acme/decoy';

let counter = 0;
/** A parallel queue on branch par of a repository of its own (named only by flags), and the decoy's queue on main. */
async function parQueue(...settings: string[]): Promise<{ env: Record<string, string>; repo: string; flags: string[] }> {
  const repo = `acme/hints-${++counter}`;
  const env = sandboxEnv(fixture.recorder.url, DECOY);
  const flags = ['-R', repo, '-b', 'par'];
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  expect((await mq(['queue', 'create', '--mode', 'parallel', ...settings, ...flags], { env })).code).toBe(0);
  return { env, repo, flags };
}

/** The command a line of `text` names after `lead`, to the end of the line, as words for mq (its leading `mq` dropped). */
function hinted(text: string, lead: string): string[] {
  const line = text.split('\n').find((each) => each.includes(lead));
  expect(line, `no "${lead}" in:\n${text}`).toBeDefined();
  const words = shellWords(line!.slice(line!.indexOf(lead) + lead.length).trim());
  expect(words[0]).toBe('mq');
  return words.slice(1);
}

const json = (text: string) => JSON.parse(text) as Record<string, any>;

describe('hints of mq status, with the queue named by flags', () => {
  it('a PR whose targets never came: the printed `mq targets set` uploads them to its queue, and it becomes ready there', async () => {
    const { env, repo, flags } = await parQueue();
    expect((await mq(['submit', '31', ...flags], { env })).code).toBe(0);
    const status = await mq(['-b', 'par', '-R', repo, 'status', '31'], { env });
    expect(status.code).toBe(0);
    const upload = hinted(status.stdout, 'upload them with ');
    expect(upload).toEqual(['targets', 'set', '31', '-R', repo, '-b', 'par']);
    // The hint leaves the targets to the user.
    expect((await mq([...upload, '//app'], { env })).code).toBe(0);
    const after = json((await mq(['status', '31', '--json', ...flags], { env })).stdout);
    expect(after.readiness).toMatchObject({ requiresImpactedTargets: true, hasImpactedTargets: true });
    // The decoy's queue never heard of #31.
    expect((await mq(['status', '31'], { env })).code).toBe(4);
  });

  it('a paused queue: the printed `mq queue resume` resumes that queue, not the one the environment names', async () => {
    const { env, flags } = await parQueue();
    expect((await mq(['submit', '32', ...flags], { env })).code).toBe(0);
    expect((await mq(['queue', 'pause', '--yes', ...flags], { env })).code).toBe(0);
    expect((await mq(['queue', 'pause', '--yes'], { env })).code).toBe(0);
    const status = await mq(['status', '32', ...flags], { env });
    const resume = hinted(status.stdout, 'nothing merges until it is resumed: ');
    expect(resume.slice(0, 2)).toEqual(['queue', 'resume']);
    expect((await mq(resume, { env })).code).toBe(0);
    expect(json((await mq(['queue', 'get', '--json', ...flags], { env })).stdout).state).toBe('running');
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout).state).toBe('paused');
  });

  it('a failed PR: `next` (text and --json) submits it again to its queue', async () => {
    const { env, repo, flags } = await parQueue();
    const [owner, name] = repo.split('/');
    await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner, name }, number: 33, testOutcome: 'fail', baseBranch: 'par' });
    expect((await mq(['submit', '33', ...flags], { env })).code).toBe(0);
    expect((await mq(['targets', 'set', '33', '--all', ...flags], { env })).code).toBe(0);
    await control(fixture.sandboxUrl, 'advance', { seconds: 3600 });
    const read = json((await mq(['status', '33', '--json', ...flags], { env })).stdout);
    expect(read.state).toBe('failed');
    const next = read.why.next as string[];
    expect(next).toEqual([`mq testing 33 -R ${repo} -b par`, `mq submit 33 -R ${repo} -b par`]);
    const text = (await mq(['status', '33', ...flags], { env })).stdout;
    expect(text).toContain(`next: ${next.join(', ')}`);
    // mq wait's summary, of the same PR, says the same.
    const waited = await mq(['wait', '33', ...flags], { env });
    expect(waited.code).toBe(1);
    expect(waited.stdout).toContain(`    - next: ${next.join(', ')}\n`);
    expect((await mq(shellWords(next[1]!).slice(1), { env })).code).toBe(0);
    expect(json((await mq(['status', '33', '--json', ...flags], { env })).stdout).isCurrentlySubmittedToQueue).toBe(true);
    expect((await mq(['status', '33'], { env })).code).toBe(4);
  });

  it('on a terminal of 40 to 70 columns, the command keeps rows of its own, going on after \\, and pastes as one', async () => {
    const { env, repo, flags } = await parQueue();
    expect((await mq(['submit', '34', ...flags], { env })).code).toBe(0);
    for (const columns of [40, 55, 70]) {
      const terminal = new Emulator(columns, 60);
      expect((await startMq(['status', '34', ...flags], { env, stdout: terminal.stdout() }).done).code).toBe(0);
      await terminal.settled();
      const rows = terminal.screen().split('\n');
      const first = rows.findIndex((row) => row.startsWith('mq targets set') || row.trimStart().startsWith('upload them with mq targets'));
      expect(first, `${columns} columns:\n${terminal.screen()}`).toBeGreaterThanOrEqual(0);
      const last = rows.findIndex((row, index) => index >= first && !row.endsWith(' \\'));
      const pasted = rows
        .slice(first, last + 1)
        .join('\n')
        .replace(/^\s*upload them with /, '');
      const words = execFileSync('sh', ['-c', `mq() { printf '%s\\n' "$@"; }\n${pasted}`], { encoding: 'utf8' });
      expect(words.split('\n').filter(Boolean), `${columns} columns:\n${terminal.screen()}`).toEqual(['targets', 'set', '34', '-R', repo, '-b', 'par']);
    }
  });
});

describe('hints of mq status, with the service and the queue chosen by --config and --api', () => {
  it('--config PATH goes along as written: run from the same folder, the printed `mq targets set` reaches the queue the file names', async () => {
    const { env, repo } = await parQueue();
    // The branch is the file's alone (the environment names none); the file is named relative to the folder mq runs in.
    const folder = isolatedDir();
    mkdirSync(join(folder, 'ci'));
    writeFileSync(join(folder, 'ci', 'mq.yaml'), 'targetBranch: par\n');
    const here = { env, cwd: folder };
    expect((await mq(['submit', '38', '-R', repo, '-b', 'par'], { env })).code).toBe(0);
    const status = await mq(['--config', 'ci/mq.yaml', 'status', '38', '-R', repo], here);
    expect(status.code, status.stderr).toBe(0);
    const upload = hinted(status.stdout, 'upload them with ');
    expect(upload).toEqual(['targets', 'set', '38', '--config', 'ci/mq.yaml', '-R', repo]);
    expect((await mq([...upload, '//app'], here)).code).toBe(0);
    const after = json((await mq(['status', '38', '--json', '-R', repo, '-b', 'par'], { env })).stdout);
    expect(after.readiness).toMatchObject({ hasImpactedTargets: true });
  });

  it('--api goes along: the printed `mq targets set` speaks the API the flag chose, not the one the environment names', async () => {
    const { env, repo, flags } = await parQueue();
    // A v1 token with MQ_API=v2: only --api v1 reaches the service (v2 refuses a v1 token).
    const speaksV2 = { env: { ...env, MQ_API: 'v2' } };
    expect((await mq(['submit', '39', ...flags], { env })).code).toBe(0);
    const status = await mq(['--api', 'v1', 'status', '39', ...flags], speaksV2);
    expect(status.code, status.stderr).toBe(0);
    const upload = hinted(status.stdout, 'upload them with ');
    expect(upload).toEqual(['targets', 'set', '39', '--api', 'v1', '-R', repo, '-b', 'par']);
    expect((await mq([...upload, '//app'], speaksV2)).code).toBe(0);
    expect(json((await mq(['status', '39', '--json', ...flags], { env })).stdout).readiness).toMatchObject({ hasImpactedTargets: true });
  });
});

describe('hints of errors and refusals, with the queue named by flags', () => {
  it('no queue for the branch: the printed `mq queue create` creates that one', async () => {
    const { env, repo } = await parQueue();
    const run = await mq(['queue', 'get', '-R', repo, '-b', 'nope'], { env });
    expect(run.code).toBe(4);
    const said = /^hint: create it with (mq .*), or name another branch with -b$/m.exec(run.stderr);
    expect(said, run.stderr).not.toBeNull();
    const create = shellWords(said![1]!).slice(1);
    expect(create).toEqual(['queue', 'create', '-R', repo, '-b', 'nope']);
    expect((await mq(create, { env })).code).toBe(0);
    expect((await mq(['queue', 'get', '-R', repo, '-b', 'nope'], { env })).code).toBe(0);
  });

  it("v1's refusal of a v2-only command: what it names instead (mq queue order, mq testing N) reaches that queue", async () => {
    const { env, repo, flags } = await parQueue();
    expect((await mq(['submit', '40', ...flags], { env })).code).toBe(0);
    expect((await mq(['targets', 'set', '40', '--all', ...flags], { env })).code).toBe(0);
    await control(fixture.sandboxUrl, 'advance', { seconds: 60 });
    const graph = await mq(['queue', 'graph', ...flags], { env });
    expect(graph.code).toBe(2);
    const said = /^mq: the dependency graph \(mq queue graph\) needs the v2 API \(a v2 API key\); on v1, (mq .*) shows what tests next$/m.exec(graph.stderr);
    expect(said, graph.stderr).not.toBeNull();
    const order = shellWords(said![1]!).slice(1);
    expect(order).toEqual(['queue', 'order', '-R', repo, '-b', 'par']);
    const ordered = await mq([...order, '--json'], { env });
    expect(json(ordered.stdout).pending.map((entry: { pullRequest: { prNumber: number } }) => entry.pullRequest.prNumber)).toEqual([40]);

    const runs = await mq(['runs', '40', ...flags], { env });
    expect(runs.code).toBe(2);
    const testing = shellWords(/; (mq .*) shows the run that last tested it$/m.exec(runs.stderr)![1]!).slice(1);
    expect(testing).toEqual(['testing', '40', '-R', repo, '-b', 'par']);
    expect((await mq(testing, { env })).code).toBe(0);
    // Without a PR, the run's id is left to the person, the flags after it.
    expect((await mq(['runs', ...flags], { env })).stderr).toContain(`; mq testing --run <id> -R ${repo} -b par shows a run you know\n`);
  });

  it('a PR queued at another priority: the printed cancel && submit requeue it in its queue', async () => {
    const { env, flags } = await parQueue();
    expect((await mq(['submit', '35', ...flags], { env })).code).toBe(0);
    const run = await mq(['submit', '35', '--priority', 'high', ...flags], { env });
    expect(run.code).toBe(5);
    const [cancel, submit] = run.stdout
      .slice(run.stdout.indexOf('(it loses its place): ') + '(it loses its place): '.length)
      .trim()
      .split(' && ')
      .map((command) => shellWords(command).slice(1));
    expect((await mq(cancel!, { env })).code).toBe(0);
    expect((await mq(submit!, { env })).code).toBe(0);
    expect(json((await mq(['status', '35', '--json', ...flags], { env })).stdout)).toMatchObject({ priorityValue: 10, isCurrentlySubmittedToQueue: true });
  });

  it('of several PRs, on a terminal of 40 and 80 columns: each cancel && submit keeps rows of its own and pastes as one command line', async () => {
    const { env, repo, flags } = await parQueue();
    expect((await mq(['submit', '36', '37', ...flags], { env })).code).toBe(0);
    for (const columns of [40, 80]) {
      const terminal = new Emulator(columns, 60);
      const run = startMq(['submit', '36', '37', '--priority', 'high', ...flags], { env, stdout: terminal.stdout() });
      expect((await run.finish()).code).toBe(5);
      await terminal.settled();
      expect(terminal.wrappedRows()).toEqual([]);
      const rows = terminal.screen().split('\n');
      for (const pr of ['36', '37']) {
        const requeue = ['cancel', pr, '-R', repo, '-b', 'par', 'submit', pr, '--priority', 'high', '-R', repo, '-b', 'par'];
        expect(pastedWords(rows, `mq cancel ${pr} `), `${columns} columns:\n${terminal.screen()}`).toEqual(requeue);
      }
    }
  });
});

describe('queue drain --all-queues, the service named by a flag (helper-132)', () => {
  // The window's flags name no one queue, and --all-queues takes no --wait: each drained queue's line names the wait
  // on it. That command was `mq queue drain --wait`, which copied waited on the queue of the environment's repository,
  // asked of the environment's service.
  it("each queue's wait, on 40 and 80 columns, pastes as one command that waits on that queue of that service", async () => {
    const repo = 'acme/hints-drain-window';
    const service = ['--api-url', fixture.recorder.url];
    // The environment's service refuses connections, and its repository is a decoy.
    const env = sandboxEnv(`http://127.0.0.1:${await closedPort()}`, DECOY, {}, 'v2');
    expect((await mq(['queue', 'create', '-R', repo, '-b', 'par', ...service], { env })).code).toBe(0);
    expect((await mq(['queue', 'create', '-R', DECOY, ...service], { env })).code).toBe(0);
    for (const columns of [40, 80]) {
      const terminal = new Emulator(columns, 40);
      const run = startMq(['queue', 'drain', '--all-queues', '--yes', ...service], { env, stdout: terminal.stdout() });
      expect((await run.finish()).code).toBe(0);
      await terminal.settled();
      expect(terminal.wrappedRows()).toEqual([]);
      const screen = terminal.screen();
      const rows = screen.split('\n');
      const wait = pastedWords(rows.slice(rows.findIndex((row) => row.includes(`of ${repo}`))), 'mq queue drain');
      expect(wait, `${columns} columns:\n${screen}`).toEqual(['queue', 'drain', '--wait', '--api-url', expect.any(String), '-R', repo, '-b', 'par']);
      // No terminal to ask on here: a drain then takes --yes, as in any script (a person at a terminal pastes it as is).
      const waited = await mq([...wait, '--yes'], { env });
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout).toContain(`par of ${repo}`);
    }
  });
});
