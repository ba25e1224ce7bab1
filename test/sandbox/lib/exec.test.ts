// mq sandbox exec, spawned as a user runs it: the command's status passed through, no process of it left behind
// (its own and one it started in the background, looked up in the process table after each), and the service's
// own clients reaching the sandbox through the variables they read.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { startSandbox } from '../../../src/sandbox/lib.js';
import { describe, expect, it } from 'vitest';
import { isolatedDir, MQ_BIN, mq, mqEnvironment, shimDir } from '../../support/cli.js';
import { gone } from '../../support/processes.js';
import { startMq } from '../../support/in-process.js';

/** A shell command that notes its own pid and a background sleep's in `pids`, then does `then`. */
const leaving = (pids: string, then: string) => `sleep 1000 & echo $$ $! > ${pids}; ${then}`;
const pidsIn = (file: string) => readFileSync(file, 'utf8').trim().split(' ').map(Number);

describe('mq sandbox exec', () => {
  it.each([
    ['exit 0', 0],
    ['exit 1', 1],
    ['exit 7', 7],
    ['kill -INT $$', 130],
  ])('passes `%s` through as %i and leaves no process', async (command, status) => {
    const dir = isolatedDir();
    const pids = join(dir, 'pids');
    const run = await mq(['sandbox', 'exec', '--', 'sh', '-c', leaving(pids, command)], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(status);
    for (const pid of pidsIn(pids)) expect(await gone(pid)).toBe(true);
  });

  it('gives the command the mq that started the sandbox, first on its PATH, where none is installed', async () => {
    const dir = isolatedDir();
    const script = 'command -v mq > where; mq queue create --repo acme/tools && mq queue get --repo acme/tools --json';
    // Node's folder alone on PATH (the shell finds sh by its own default): no mq anywhere on it.
    const run = await mq(['sandbox', 'exec', '--', '/bin/sh', '-c', script], { cwd: dir, env: { PATH: dirname(process.execPath) } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.slice(run.stdout.indexOf('{')))).toMatchObject({ state: 'running' });
    const where = readFileSync(join(dir, 'where'), 'utf8').trim();
    expect(where).toMatch(/mq-exec-[^/]+\/mq$/);
    // Removed once the command has ended.
    expect(existsSync(where)).toBe(false);
  });

  it('says in words why a command cannot start, exit 3 (helper-98, helper-102: it was spawn … ENOENT)', async () => {
    const dir = isolatedDir();
    writeFileSync(join(dir, 'not-executable.sh'), 'echo ran\n', { mode: 0o644 });
    for (const [command, why] of [
      ['/nonexistent-cmd', 'no such file or directory'],
      ['nonexistent-cmd-of-mq', 'not found on PATH'],
      ...(process.getuid?.() === 0 ? [] : [['./not-executable.sh', 'permission denied']]),
    ] as const) {
      const run = await mq(['sandbox', 'exec', '--', command], { cwd: dir });
      expect(run, command).toMatchObject({ code: 3, stdout: '', stderr: `mq: cannot run ${command}: ${why}\n` });
    }
  });

  it('refuses an --export-on-exit it cannot write before the command runs, in one line, exit 3', async () => {
    const dir = isolatedDir();
    for (const [file, why] of [
      ['missing/state.json', 'its folder: no such file or directory'],
      ['.', 'it is a folder'],
    ] as const) {
      const run = await mq(['sandbox', 'exec', '--export-on-exit', file, '--', 'sh', '-c', 'echo ran; exit 7'], { cwd: dir });
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 3, stdout: '' });
      expect(run.stderr).toBe(`mq: cannot write --export-on-exit ${join(dir, file).replace(/\/\.$/, '')}: ${why}\n`);
    }
  });

  it('says a sandbox it cannot start as mq sandbox does, in the same line and exit code (helper-124: exit 1, "internal error")', async () => {
    const dir = isolatedDir();
    writeFileSync(join(dir, 'bad.yaml'), 'queues: [oops\n');
    writeFileSync(join(dir, 'not-state.json'), '{"x": 1}\n');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    // A state file another sandbox holds: this process's, alive.
    const holder = await startSandbox({ state: join(dir, 'held.json') });
    try {
      for (const [flags, code] of [
        [['--port', String((busy.address() as AddressInfo).port)], 2],
        [['--token', 'a b'], 2],
        [['--state', 'missing/state.json'], 3],
        [['--state', 'not-state.json'], 3],
        [['--state', 'held.json'], 3],
        [['--seed', 'bad.yaml'], 3],
        [['--seed', 'missing.yaml'], 3],
      ] as const) {
        // A sandbox that did start would serve on: killed, it fails the test. One after the other: started together
        // on one state file, one would find it held by the other and say that instead.
        const served = await mq(['sandbox', ...flags], { cwd: dir, killAfterMs: 60_000 });
        const executed = await mq(['sandbox', ...flags, 'exec', '--', 'sh', '-c', 'echo ran'], { cwd: dir, killAfterMs: 60_000 });
        expect(served, flags.join(' ')).toMatchObject({ code, stdout: '', stderr: expect.stringMatching(/^mq: [^\n]+\n$/) });
        expect(executed, flags.join(' ')).toEqual(served);
      }
    } finally {
      await holder.close();
      busy.close();
    }
  });

  it('cannot make the folder for its own mq: says so in one line, exit 3, and closes the sandbox (helper-127: it hung, "internal error")', async () => {
    const dir = isolatedDir();
    const missing = join(dir, 'no-such-tmp');
    // Killed, a sandbox left open fails the test: it would serve on.
    const run = await mq(['sandbox', '--state', 'state.json', 'exec', '--', 'sh', '-c', 'touch ran'], {
      cwd: dir,
      env: { TMPDIR: missing },
      killAfterMs: 60_000,
    });
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr: `mq: cannot make a folder for the command's mq in ${missing}: no such file or directory (set TMPDIR to a writable folder)\n`,
    });
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    expect(existsSync(join(dir, 'state.json.lock'))).toBe(false);
  });

  it('stopped before the command starts, does not run it, exits 130 and releases the sandbox (helper-124: the command ran to its end)', async () => {
    const dir = isolatedDir();
    // In this process: stopped before exec has even started its sandbox, as a signal during its start would.
    const exec = startMq(['sandbox', '--state', 'state.json', 'exec', '--', 'sh', '-c', 'touch ran'], { cwd: dir });
    exec.interrupt();
    expect(await exec.done).toEqual({ code: 130, stdout: '', stderr: 'mq: interrupted before sh ran: the sandbox stopped\n' });
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    // Closed: its state file is no longer held.
    expect(existsSync(join(dir, 'state.json'))).toBe(true);
    expect(existsSync(join(dir, 'state.json.lock'))).toBe(false);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'a %s while mq is still loading, before its own handlers are set, ends it as one a moment later does: 130, nothing run or left (helper-131: Node died of it)',
    async (signal) => {
      const dir = isolatedDir();
      // The built mq, its program read through a FIFO: the test holds the load where the signal is to come.
      const pkg = join(dir, 'pkg');
      const dist = join(dirname(MQ_BIN), '../dist');
      mkdirSync(join(pkg, 'bin'), { recursive: true });
      mkdirSync(join(pkg, 'dist'));
      for (const file of ['mq.js', 'package.json']) copyFileSync(join(dirname(MQ_BIN), file), join(pkg, 'bin', file));
      for (const file of readdirSync(dist)) if (file !== 'mq.cjs') symlinkSync(join(dist, file), join(pkg, 'dist', file));
      execFileSync('mkfifo', [join(pkg, 'dist', 'mq.cjs')]);
      const tmp = join(dir, 'tmp');
      mkdirSync(tmp);
      const { env } = mqEnvironment({ cwd: dir, env: { TMPDIR: tmp } });
      const child = spawn(process.execPath, [join(pkg, 'bin', 'mq.js'), 'sandbox', '--state', 'state.json', 'exec', '--', 'sh', '-c', 'touch ran'], {
        cwd: dir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk;
      });
      const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, killedBy) => resolve(code ?? killedBy)));
      // Opened for writing once the shim opens it to read the program: past the shim's first lines, before the program's.
      const program = await open(join(pkg, 'dist', 'mq.cjs'), 'w');
      child.kill(signal);
      // A reader the signal ended takes no more of it (EPIPE): its end is what the test checks.
      await program.writeFile(readFileSync(join(dist, 'mq.cjs'))).catch(() => undefined);
      await program.close();
      expect({ code: await exited, stderr }).toEqual({ code: 130, stderr: 'mq: interrupted before sh ran: the sandbox stopped\n' });
      expect(existsSync(join(dir, 'ran'))).toBe(false);
      expect(existsSync(join(dir, 'state.json.lock'))).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
    },
  );

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('passes %s on mid-command, exits %i and leaves no process', async (signal, status) => {
    const dir = isolatedDir();
    const pids = join(dir, 'pids');
    const { env } = mqEnvironment({ cwd: dir });
    const child = spawn(process.execPath, [MQ_BIN, 'sandbox', 'exec', '--', 'sh', '-c', leaving(pids, 'echo started; wait')], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    child.kill(signal);
    expect(await exited).toBe(status);
    for (const pid of pidsIn(pids)) expect(await gone(pid)).toBe(true);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('on a second %s ends at once (130) and still leaves no process and no folder behind', async (signal) => {
    const dir = isolatedDir();
    const pids = join(dir, 'pids');
    const { env } = mqEnvironment({ cwd: dir });
    // A command that outlasts the first signal (a CI cancels with SIGINT, then SIGTERM), as does what it started.
    const script = `trap 'echo got' TERM INT; (trap '' TERM INT; exec sleep 1000) & echo $$ $! > ${pids}; command -v mq > where; echo started; while :; do wait; done`;
    const child = spawn(process.execPath, [MQ_BIN, 'sandbox', 'exec', '--', 'sh', '-c', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const lines = createInterface({ input: child.stdout! });
    const next = () => new Promise((resolve) => lines.once('line', resolve));
    expect(await next()).toBe('started');
    child.kill(signal);
    // Passed on: the command has it, and goes on.
    expect(await next()).toBe('got');
    child.kill(signal);
    expect(await exited).toBe(130);
    for (const pid of pidsIn(pids)) expect(await gone(pid)).toBe(true);
    expect(existsSync(dirname(readFileSync(join(dir, 'where'), 'utf8').trim()))).toBe(false);
  });

  it('gives the command no real credential: every variable mq reads a token from is the sandbox’s', async () => {
    const dir = isolatedDir();
    const run = await mq(['sandbox', 'exec', '--', 'sh', '-c', 'echo "$MQ_TOKEN $TRUNK_API_TOKEN"'], {
      cwd: dir,
      env: { MQ_TOKEN: 'tok_real_secret_1', TRUNK_API_TOKEN: 'tok_real_secret_2' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('sandbox sandbox\n');
  });

  it.each([
    [{ MQ_API: 'v2' }, 'v2'],
    [{ MQ_TOKEN: 'trunk_v2_real_secret' }, 'v2'],
    [{ MQ_API: 'v1' }, 'v1'],
    [{}, 'v1'],
  ])('points mq at the API the caller’s speaks (%o: %s), with its credential (helper-124: MQ_API=v2 was given a v1 token)', async (callers, api) => {
    const dir = isolatedDir();
    const script = 'echo "$MQ_API"; mq queue create --repo acme/tools >/dev/null && mq queue get --repo acme/tools --json';
    const run = await mq(['sandbox', 'exec', '--', 'sh', '-c', script], { cwd: dir, env: callers });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const [said, ...json] = run.stdout.split('\n');
    expect(said).toBe(api);
    expect(JSON.parse(json.join('\n'))).toMatchObject({ state: 'running' });
  });

  it('reaches the sandbox from a script reading only API_URL and API_TOKEN, as the upload scripts do', async () => {
    const dir = isolatedDir();
    const seed = join(dir, 'seed.yaml');
    writeFileSync(seed, 'queues:\n  - repo: acme/widgets\n    branch: main\npullRequests:\n  - repo: acme/widgets\n    number: 121\n    sha: abc123\n');
    const body =
      '{"repo":{"host":"github.com","owner":"acme","name":"widgets"},"pr":{"number":"121","sha":"abc123"},"targetBranch":"main","impactedTargets":["//a:b"]}';
    const upload = `curl -s -o /dev/null -w '%{http_code}' -X POST -H "Content-Type: application/json" -H "x-api-token:$API_TOKEN" -d '${body}' "$API_URL"`;
    const run = await mq(['sandbox', 'exec', '--seed', seed, '--', 'env', '-u', 'MQ_API_URL', '-u', 'MQ_TOKEN', 'sh', '-c', upload], { cwd: dir });
    expect(run.stdout).toBe('200');
    expect(run.code).toBe(0);
  });

  it('reaches the sandbox from a script reading only TRUNK_BASE_URL and TRUNK_API_KEY, as the Terraform provider does, and exports the state', async () => {
    const dir = isolatedDir();
    const create = `curl -s -o /dev/null -w '%{http_code}' -X POST -H "Content-Type: application/json" -H "X-Api-Token: $TRUNK_API_KEY" -d '{"repo":{"host":"github.com","owner":"acme","name":"infra"},"targetBranch":"main"}' "$TRUNK_BASE_URL/createQueue"`;
    const run = await mq(
      ['sandbox', 'exec', '--token', 'only-this', '--export-on-exit', 'final.json', '--', 'env', '-u', 'MQ_API_URL', '-u', 'MQ_TOKEN', 'sh', '-c', create],
      { cwd: dir },
    );
    expect(run.stdout).toBe('200');
    // The exported state seeds the next sandbox: the queue is there.
    const again = await mq(['sandbox', 'exec', '--seed', 'final.json', '--', 'mq', 'queue', 'get', '--repo', 'acme/infra', '--branch', 'main', '--json'], {
      cwd: dir,
      env: { PATH: `${shimDir()}:${process.env.PATH}` },
    });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ state: 'running' });
  });
});
