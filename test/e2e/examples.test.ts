// The scripts in examples/ run as a user would run them: bash, with an `mq` on PATH (a shim for the built one)
// and the environment pointing at a sandbox, whose manual clock the test moves while they wait.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultLoaders } from 'cosmiconfig';
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, shimDir, TOKEN, type Run } from '../support/cli.js';
// mq itself, to set a queue up and to read it, runs in-process: only the scripts need the built one (on PATH).
import { advanceAsSeen, mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const EXAMPLES = resolve(import.meta.dirname, '../../examples');

const SHIMS = shimDir();

let repoCounter = 0;
/** The environment of a script run against a fresh repository of the sandbox. */
function scriptEnv(extra: Record<string, string> = {}): { env: Record<string, string>; repo: string } {
  const repo = `acme/ex-${++repoCounter}`;
  const home = mkdtempSync(join(tmpdir(), 'mq-home-'));
  const env = { PATH: `${SHIMS}:${process.env.PATH ?? ''}`, HOME: home, ...sandboxEnv(fixture.recorder.url, repo), ...extra };
  return { env, repo };
}

/**
 * Runs a bash script to its end. While it runs, the sandbox's clock moves `advanceSeconds` each time mq has
 * read the queue of the script's repository since the last move (0: it stands still), so that PRs it waits for
 * finish testing, and every state they pass through is seen, however slow the machine.
 */
function runBash(args: string[], options: { env: Record<string, string>; cwd?: string; advanceSeconds?: number; afterWrites?: number }): Promise<Run> {
  const child = spawn('bash', args, { env: options.env, cwd: options.cwd ?? EXAMPLES, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const run = new Promise<Run>((done) => child.on('close', (code) => done({ code, stdout, stderr })));
  if (!options.advanceSeconds) return run;
  return advanceAsSeen(fixture, run, { seconds: options.advanceSeconds, repo: options.env.MQ_REPO!, afterWrites: options.afterWrites });
}

async function queueState(env: Record<string, string>): Promise<{ state: string; prs: Record<number, string> }> {
  const run = await mq(['queue', 'get', '--json'], { env });
  const queue = JSON.parse(run.stdout) as { state: string; enqueuedPullRequests: { prNumber: number; state: string }[] };
  return { state: queue.state, prs: Object.fromEntries(queue.enqueuedPullRequests.map((pr) => [pr.prNumber, pr.state])) };
}

async function prState(env: Record<string, string>, pr: number): Promise<string> {
  return (JSON.parse((await mq(['status', String(pr), '--json'], { env })).stdout) as { state: string }).state;
}

describe('examples/maintenance-window.sh', () => {
  const script = join(EXAMPLES, 'maintenance-window.sh');

  it('pauses, drains while the admitted PRs merge, runs the maintenance on a drained queue, resumes', async () => {
    const { env } = scriptEnv({ DRAIN_INTERVAL: '1s' });
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
    const during = join(mkdtempSync(join(tmpdir(), 'mq-window-')), 'queue.json');
    const maintenance = ['bash', '-c', 'mq queue get --json > "$0"', during];
    // The clock moves once the pause and the drain are both set, as the drain waits.
    const run = await runBash([script, 'database migration', '--', ...maintenance], { env, advanceSeconds: 400, afterWrites: 2 });
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    expect(run.stderr).toContain('==> mq queue pause --reason database migration --yes');
    expect(run.stderr).toContain('==> mq queue drain --yes --wait --timeout 30m --interval 1s');
    expect(run.stderr).toContain('==> maintenance: bash -c');
    expect(run.stderr).toContain('==> done: the queue is running again');
    expect(run.stderr).not.toContain('putting the queue back');
    const queueDuring = JSON.parse(readFileSync(during, 'utf8')) as { state: string; enqueuedPullRequests: unknown[] };
    expect(queueDuring.state).toBe('draining');
    expect(await prState(env, 1)).toBe('merged');
    expect(await prState(env, 2)).toBe('merged');
    expect((await queueState(env)).state).toBe('running');
  });

  it('resumes the queue and exits 7, with no maintenance, when the drain does not finish in time', async () => {
    const { env } = scriptEnv({ DRAIN_TIMEOUT: '2s', DRAIN_INTERVAL: '1s' });
    await mq(['queue', 'create'], { env });
    await mq(['submit', '3'], { env });
    const marker = join(mkdtempSync(join(tmpdir(), 'mq-window-')), 'ran');
    const run = await runBash([script, 'upgrade', '--', 'touch', marker], { env });
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('did not drain within 2s; no maintenance was done');
    expect(run.stderr).toContain('==> exit 7 (timed out): putting the queue back: mq queue resume');
    expect(existsSync(marker)).toBe(false);
    expect((await queueState(env)).state).toBe('running');
  });

  it('resumes the queue and exits 10 when the maintenance fails', async () => {
    const { env } = scriptEnv({ DRAIN_INTERVAL: '1s' });
    await mq(['queue', 'create'], { env });
    const run = await runBash([script, 'upgrade', '--', 'false'], { env });
    expect(run.code).toBe(10);
    expect(run.stderr).toContain('the maintenance command failed with exit 1');
    expect(run.stderr).toContain('putting the queue back: mq queue resume');
    expect((await queueState(env)).state).toBe('running');
  });

  it('leaves the queue drained when the maintenance fails with HOLD_ON_FAILURE=1 (exit 10)', async () => {
    const { env } = scriptEnv({ DRAIN_INTERVAL: '1s', HOLD_ON_FAILURE: '1' });
    await mq(['queue', 'create'], { env });
    const held = await runBash([script, 'upgrade', '--', 'false'], { env });
    expect(held.code).toBe(10);
    expect(held.stderr).toContain('the queue stays drained (HOLD_ON_FAILURE=1); when it is safe: mq queue resume');
    expect((await queueState(env)).state).toBe('draining');
  });

  it('on Ctrl-C during the drain: mq says what it left, the trap resumes the queue, exit 130', async () => {
    const { env } = scriptEnv({ DRAIN_INTERVAL: '1s' });
    await mq(['queue', 'create'], { env });
    await mq(['submit', '4'], { env });
    // Its own process group, as a shell gives a job: Ctrl-C reaches bash and mq alike.
    const child = spawn('bash', [script, 'upgrade', '--', 'true'], { env, cwd: EXAMPLES, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const polled = new Promise<void>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('1 admitted PR left: #4 testing')) resolve();
      }),
    );
    const code = new Promise<number | null>((done) => child.on('close', done));
    await Promise.race([polled, code]);
    process.kill(-child.pid!, 'SIGINT');
    expect({ code: await code, stderr }).toMatchObject({ code: 130 });
    expect(stderr).toContain(
      `mq: interrupted: the queue main of ${env.MQ_REPO} is still draining\nit was not resumed; to resume it: mq queue resume -R ${env.MQ_REPO} -b main`,
    );
    expect(stderr).toContain('==> exit 130 (interrupted): putting the queue back: mq queue resume');
    expect((await queueState(env)).state).toBe('running');
  });

  it('leaves a queue it found paused paused again at the end', async () => {
    const { env } = scriptEnv({ DRAIN_INTERVAL: '1s' });
    await mq(['queue', 'create'], { env });
    await mq(['queue', 'pause', '--yes'], { env });
    const run = await runBash([script, 'upgrade', '--', 'true'], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('the queue was already paused: it will be paused again, not resumed, when this window ends');
    expect(run.stderr).toContain('==> done: the queue is paused again, as it was found');
    expect((await queueState(env)).state).toBe('paused');
  });

  it("exits with mq's code, saying the queue is unchanged, when the first step fails", async () => {
    const noToken = scriptEnv();
    delete (noToken.env as Record<string, string | undefined>).MQ_TOKEN;
    const run = await runBash([script, 'upgrade', '--', 'true'], { env: noToken.env });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('mq queue pause failed with exit 3 (configuration or authentication');
    expect(run.stderr).toContain('the queue is unchanged');
    expect(run.stderr).not.toContain('putting the queue back');
    const noQueue = scriptEnv();
    expect((await runBash([script, 'upgrade', '--', 'true'], { env: noQueue.env })).code).toBe(4);
  });

  it('refuses to run without a reason and a command (exit 2)', async () => {
    const { env } = scriptEnv();
    expect((await runBash([script, 'upgrade'], { env })).code).toBe(2);
    expect((await runBash([script, 'upgrade', 'true'], { env })).code).toBe(2);
  });
});

interface Workflow {
  env: Record<string, string>;
  jobs: Record<
    string,
    { env?: Record<string, string>; 'timeout-minutes': number; steps: { name?: string; uses?: string; run?: string; env?: Record<string, string> }[] }
  >;
}

const hasGit = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;

/** A git checkout with two commits: the second changes the top-level directory `b`. */
function gitCheckout(): { dir: string; base: string; head: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mq-workflow-'));
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' }).stdout.trim();
  git('init', '-q');
  spawnSync('mkdir', ['-p', join(dir, 'a'), join(dir, 'b')]);
  writeFileSync(join(dir, 'a', 'x.txt'), 'x\n');
  git('add', '.');
  git('commit', '-qm', 'base');
  const base = git('rev-parse', 'HEAD');
  writeFileSync(join(dir, 'b', 'y.txt'), 'y\n');
  git('add', '.');
  git('commit', '-qm', 'head');
  return { dir, base, head: git('rev-parse', 'HEAD') };
}

describe('examples/github-actions-merge.yml', () => {
  const workflow = defaultLoaders['.yaml']('github-actions-merge.yml', readFileSync(join(EXAMPLES, 'github-actions-merge.yml'), 'utf8')) as Workflow;
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const step = (name: string) => steps.find((s) => s.name === name)!.run!;

  it('is shell that bash reads, in every step', () => {
    for (const { run } of steps.filter((s) => s.run !== undefined)) {
      expect(spawnSync('bash', ['-n', '-c', run!], { encoding: 'utf8' }).stderr).toBe('');
    }
  });

  it('submits and returns; only the job for what needs the merge waits, within its own time limit', () => {
    const runs = (job: string) => workflow.jobs[job]!.steps.map((s) => s.run ?? '').join('\n');
    expect(runs('merge')).toContain('mq submit');
    expect(runs('merge')).not.toMatch(/mq wait|--wait/);
    const minutes = Number(/mq wait "\$PR" --timeout (\d+)m/.exec(runs('after-merge'))![1]);
    expect(minutes).toBeLessThan(workflow.jobs['after-merge']!['timeout-minutes']);
  });

  it('installs mq as the README does (which scripts/check-package.sh runs), in every job that runs it', () => {
    const readme = readFileSync(join(EXAMPLES, '../README.md'), 'utf8');
    const block = /^## Install\n[\s\S]*?^```sh\n([\s\S]*?)^```/m.exec(readme)![1]!;
    const commands = block
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    const installs = steps.filter((s) => s.name === 'Install mq');
    expect(installs.length).toBe(2);
    for (const { run } of installs) expect(run!.trim().split('\n')).toEqual(commands);
  });

  /**
   * The job's environment as GitHub would fill it in, for a PR of a parallel queue in the sandbox whose head is
   * the checkout's HEAD (targets count only for the PR's head commit).
   */
  async function jobEnv(pr: number, checkout: { base: string; head: string }, testOutcome: 'pass' | 'fail' = 'pass') {
    const { env, repo } = scriptEnv();
    const [owner, name] = repo.split('/');
    await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner, name }, number: pr, sha: checkout.head, testOutcome });
    const values: Record<string, string> = {
      MQ_TOKEN: TOKEN,
      MQ_REPO: repo,
      MQ_BRANCH: 'main',
      PR: String(pr),
      BASE_SHA: checkout.base,
      HEAD_SHA: checkout.head,
    };
    const declared = { ...workflow.env, ...workflow.jobs.merge!.env };
    expect(Object.keys(declared).sort()).toEqual(['MQ_SOURCE', ...Object.keys(values)].sort());
    const full = { ...env, ...values };
    expect((await mq(['queue', 'create', '--mode', 'parallel'], { env: full })).code).toBe(0);
    return { env: full, repo };
  }

  it.skipIf(!hasGit)('submits, uploads the targets the PR changes, and the job after it waits until it merges', async () => {
    const checkout = gitCheckout();
    const { env } = await jobEnv(7, checkout);
    expect((await runBash(['-e', '-c', step('Submit to the queue')], { env, cwd: checkout.dir })).code).toBe(0);
    const upload = await runBash(['-e', '-c', step('Upload impacted targets')], { env, cwd: checkout.dir });
    expect(upload.code).toBe(0);
    const sent = fixture.recorder.requests.filter((r) => r.path === '/setImpactedTargets').at(-1)!;
    expect(JSON.parse(sent.body)).toMatchObject({ pr: { number: 7, sha: checkout.head }, impactedTargets: ['b'] });
    // The PR's test run takes 300 sandbox seconds: over before mq wait first looks, so it answers at once.
    await control(fixture.sandboxUrl, 'advance', { seconds: 400 });
    const wait = await runBash(['-e', '-c', step('Wait until it merges')], { env, cwd: checkout.dir });
    expect(wait).toMatchObject({ code: 0 });
    expect(wait.stdout).toContain('#7 merged');
  });

  it.skipIf(!hasGit)('fails the job, saying why, when the PR fails in the queue', async () => {
    const checkout = gitCheckout();
    const { env } = await jobEnv(8, checkout, 'fail');
    for (const name of ['Submit to the queue', 'Upload impacted targets']) {
      expect((await runBash(['-e', '-c', step(name)], { env, cwd: checkout.dir })).code).toBe(0);
    }
    await control(fixture.sandboxUrl, 'advance', { seconds: 400 });
    const wait = await runBash(['-e', '-c', step('Wait until it merges')], { env, cwd: checkout.dir });
    expect(wait.code).toBe(1);
    expect(wait.stdout).toContain('::error::#8 left the queue without merging');
  });
});
