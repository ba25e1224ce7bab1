// A maintenance window without doubts, end to end: the built mq against a sandbox. A step repeated on a queue
// already in that state sends nothing and says so; results name the repository; Ctrl-C during drain --wait
// says the queue is left draining and how to resume it; the sandbox tells a newcomer what to export.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxEnv, startMq, TOKEN, type RecordedRequest } from '../support/cli.js';
import { mq, startMq as startHere, useSandbox } from '../support/in-process.js';
import { pastedWords } from '../support/paste.js';
import { Emulator } from '../terminal/emulator.js';

const fixture = useSandbox();

let repoCounter = 0;
async function freshQueue(): Promise<{ env: Record<string, string>; repo: string }> {
  const repo = `acme/m-${++repoCounter}`;
  const env = sandboxEnv(fixture.recorder.url, repo);
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  return { env, repo };
}

/** The operations mq sent for `repo` since `from` (an index into the recorder's requests). */
function sentFor(repo: string, from: number): string[] {
  const [owner, name] = repo.split('/');
  const mine = (request: RecordedRequest) => {
    const body = JSON.parse(request.body || '{}') as { repo?: { owner?: string; name?: string } };
    return body.repo?.owner === owner && body.repo?.name === name;
  };
  return fixture.recorder.requests
    .slice(from)
    .filter(mine)
    .map((request) => request.path.slice(1));
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('pause, resume and drain of a queue already so', () => {
  it('says "already", exits 0, and sends nothing beyond the read', async () => {
    const { env, repo } = await freshQueue();
    const cases: Array<[string[], string]> = [
      [['queue', 'resume'], `Queue main of ${repo} is already running`],
      [['queue', 'pause', '--yes'], `Queue main of ${repo} paused`],
      [['queue', 'pause', '--yes', '--reason', 'again'], `Queue main of ${repo} is already paused`],
      [['queue', 'drain', '--yes'], `Queue main of ${repo} is draining`],
      [['queue', 'drain', '--yes'], `Queue main of ${repo} is already draining`],
      [['queue', 'resume'], `Queue main of ${repo} resumed`],
    ];
    for (const [args, text] of cases) {
      const from = fixture.recorder.requests.length;
      const run = await mq(args, { env });
      expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ args, code: 0, stdout: `${text}\n`, stderr: '' });
      const changes = text.includes('already') ? [] : ['updateQueue'];
      expect(sentFor(repo, from), args.join(' ')).toEqual(['getQueue', ...changes]);
    }
  });

  it('keeps the --json shape, with the repository and "changed"', async () => {
    const { env, repo } = await freshQueue();
    const [owner, name] = repo.split('/');
    const first = await mq(['queue', 'pause', '--yes', '--json'], { env });
    expect(JSON.parse(first.stdout)).toMatchObject({
      action: 'pause',
      branch: 'main',
      repo: { host: 'github.com', owner, name },
      state: 'paused',
      changed: true,
    });
    const from = fixture.recorder.requests.length;
    const again = await mq(['queue', 'pause', '--yes', '--json'], { env });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'pause', branch: 'main', state: 'paused', changed: false, queue: { state: 'paused' } });
    expect(sentFor(repo, from)).toEqual(['getQueue']);
  });

  it('still needs --yes without a terminal, already so or not: refused before anything is sent', async () => {
    const { env, repo } = await freshQueue();
    await mq(['queue', 'pause', '--yes'], { env });
    const from = fixture.recorder.requests.length;
    const run = await mq(['queue', 'pause'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--yes');
    expect(sentFor(repo, from)).toEqual([]);
  });

  it('names a host other than github.com', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'ghe.example.com/acme/m-host');
    await mq(['queue', 'create'], { env });
    expect((await mq(['queue', 'pause', '--yes'], { env })).stdout).toBe('Queue main of ghe.example.com/acme/m-host paused\n');
  });
});

describe('Ctrl-C during queue drain --wait', () => {
  it('says the queue is still draining and the command that resumes it, exit 130; that command resumes it', async () => {
    const { env, repo } = await freshQueue();
    await mq(['submit', '1'], { env });
    // The clock stands still: PR 1 stays testing, so the wait goes on until interrupted.
    const drain = startMq(['queue', 'drain', '--yes', '--wait', '--interval', '1s', '-b', 'main'], { env });
    await drain.until(/1 admitted PR left: #1 testing/);
    drain.child.kill('SIGINT');
    const run = await drain.done;
    expect(run.code).toBe(130);
    expect(lines(run.stderr)).toEqual([
      `mq: interrupted: the queue main of ${repo} is still draining`,
      `it was not resumed; to resume it: mq queue resume -R ${repo} -b main`,
    ]);
    expect(run.stderr).not.toContain(TOKEN);
    expect(JSON.parse((await mq(['queue', 'get', '--json'], { env })).stdout).state).toBe('draining');

    // The command as printed, from a directory and an environment that name no repository.
    const resume = lines(run.stderr)[1]!.replace('it was not resumed; to resume it: mq ', '').split(' ');
    const { MQ_REPO: _repo, ...elsewhere } = env;
    const resumed = await mq(resume, { env: elsewhere });
    expect(resumed.stdout).toBe(`Queue main of ${repo} resumed\n`);
    expect(JSON.parse((await mq(['queue', 'get', '--json'], { env })).stdout).state).toBe('running');
  });

  it('on a terminal of 40 to 70 columns, the command that resumes it is on rows of its own, going on after \\, and pastes as one', async () => {
    for (const columns of [40, 55, 70]) {
      const repo = `acme/drain-window-of-the-billing-db-${++repoCounter}`;
      const env = sandboxEnv(fixture.recorder.url, repo);
      await mq(['queue', 'create'], { env });
      await mq(['submit', '1'], { env });
      const terminal = new Emulator(columns, 24);
      const drain = startHere(['queue', 'drain', '--yes', '--wait', '--interval', '1s'], { env, stderr: terminal.stdout() });
      await drain.until(/1 admitted PR left: #1 testing/);
      drain.interrupt();
      expect((await drain.done).code).toBe(130);
      await terminal.settled();
      expect(terminal.wrappedRows()).toEqual([]);
      const rows = terminal.screen().split('\n');
      expect(rows).toContain('it was not resumed; to resume it:');
      // Pasted into a shell, the rows are one command: its words, as mq wrote them, reach `mq`.
      expect(pastedWords(rows, 'mq queue resume'), `${columns} columns:\n${terminal.screen()}`).toEqual(['queue', 'resume', '-R', repo, '-b', 'main']);
    }
  });

  it('says it under --json too, as the error document', async () => {
    const { env, repo } = await freshQueue();
    await mq(['submit', '2'], { env });
    const drain = startMq(['queue', 'drain', '--yes', '--wait', '--interval', '1s', '--json'], { env });
    await drain.until(/"admitted":\[\{"pr":2/);
    drain.child.kill('SIGINT');
    const run = await drain.done;
    expect(run.code).toBe(130);
    expect(JSON.parse(run.stderr)).toEqual({
      error: {
        code: 'interrupted',
        message: `interrupted: the queue main of ${repo} is still draining\nit was not resumed; to resume it: mq queue resume -R ${repo} -b main`,
      },
    });
  });
});

describe('mq sandbox as a first stop', () => {
  /** The sandbox's first words: the URL alone on stdout, the rest on stderr up to "stop with Ctrl-C". */
  async function firstWords(args: string[]): Promise<{ stdout: string; stderr: string[] }> {
    const sandbox = startMq(['sandbox', '--port', '0', ...args]);
    try {
      await sandbox.until(/stop with Ctrl-C/, 'stderr');
      return { stdout: sandbox.stdout(), stderr: lines(sandbox.stderr()) };
    } finally {
      sandbox.child.kill('SIGTERM');
      await sandbox.done;
    }
  }

  it('prints its URL alone on stdout, and on stderr the line to export and the hint of --speed 60', async () => {
    const { stdout, stderr } = await firstWords([]);
    expect(stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\n$/);
    const url = stdout.trim();
    expect(stderr).toEqual([
      `sandbox listening on ${url} (real clock, state in memory)`,
      `export MQ_API_URL=${url} MQ_TOKEN=sandbox MQ_REPO=acme/widgets MQ_ORG=acme`,
      'try: mq queue create && mq submit 1 && mq queue get; mq flaky list --failing',
      `v2 is at ${url.replace(/\/v1$/, '/v2')} with Authorization: Bearer trunk_v2_<anything>`,
      'Tests take minutes of sandbox time: run with --speed 60 to move them 60× faster',
      'stop with Ctrl-C',
    ]);
  });

  it('never echoes --token, and gives no hint of --speed when it is given or the clock is manual', async () => {
    const token = 'sandbox-s3cret-token';
    const sped = await firstWords(['--token', token, '--speed', '60', '--key', 'trunk_v2_s3cret=all']);
    expect(sped.stderr.join('\n')).not.toContain(token);
    expect(sped.stderr.join('\n')).not.toContain('trunk_v2_s3cret');
    expect(sped.stderr[1]).toBe(`export MQ_API_URL=${sped.stdout.trim()} MQ_TOKEN='<your --token>' MQ_REPO=acme/widgets MQ_ORG=acme`);
    expect(sped.stderr.join('\n')).not.toContain('--speed');
    const manual = await firstWords(['--clock', 'manual']);
    expect(manual.stderr[0]).toContain('(manual clock, state in memory)');
    expect(manual.stderr.join('\n')).not.toContain('--speed');
  });

  it('names a graph soft cap, given or held by its state file, and none once lifted', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'mq-cap-banner-')), 'state.json');
    const given = await firstWords(['--clock', 'manual', '--state', state, '--graph-soft-cap', '7']);
    expect(given.stderr[0]).toContain(`(manual clock, state in ${state}, graph soft cap 7)`);
    const kept = await firstWords(['--clock', 'manual', '--state', state]);
    expect(kept.stderr[0]).toContain(`(manual clock, state in ${state}, graph soft cap 7)`);
    const lifted = await firstWords(['--clock', 'manual', '--state', state, '--graph-soft-cap', 'none']);
    expect(lifted.stderr[0]).toContain(`(manual clock, state in ${state})`);
  });
});
