// What a script relies on, across commands: one JSON document per --json run (NDJSON only for the waits),
// errors as JSON on stderr, --quiet and --verbose, and colour only where it was asked for.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { control, isolatedDir, MQ_BIN, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const ESC = '\u001b[';

let repoCounter = 0;
async function freshQueue(): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, `acme/s-${++repoCounter}`);
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  return env;
}

describe('scripting', () => {
  it('prints exactly one JSON document for every command under --json', async () => {
    const env = await freshQueue();
    await mq(['submit', '1', '2'], { env });
    await control(fixture.sandboxUrl, 'advance', { seconds: 1 });
    const commands = [
      ['submit', '3'],
      ['status', '1'],
      ['list'],
      ['testing', '1'],
      ['queue', 'get'],
      ['restart', '1'],
      ['cancel', '3'],
      ['metrics'],
      ['metrics', '--raw'],
      ['config', 'show'],
      ['queue', 'update', '--concurrency', '2'],
      ['queue', 'pause', '--yes'],
      ['queue', 'resume'],
      ['targets', 'set', '2', '//a', '--sha', 'abc'],
    ];
    for (const command of commands) {
      const run = await mq([...command, '--json'], { env });
      expect(run.code, command.join(' ')).toBe(0);
      expect(() => JSON.parse(run.stdout), command.join(' ')).not.toThrow();
      expect(run.stdout.trimEnd().startsWith('{'), command.join(' ')).toBe(true);
    }
  });

  it('prints errors as JSON on stderr under --json, nothing on stdout', async () => {
    const env = await freshQueue();
    for (const command of [
      ['status', '404'],
      ['wait', '404'],
      ['queue', 'get', '--branch', 'nowhere'],
      ['submit', 'x'],
      ['wait', '1', '--for', 'x'],
      ['nope'],
    ]) {
      const run = await mq([...command, '--json'], { env });
      expect(run.code, command.join(' ')).not.toBe(0);
      expect(run.stdout, command.join(' ')).toBe('');
      expect(JSON.parse(run.stderr), command.join(' ')).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });

  it('prints the sandbox URL as {"url"} under --json', async () => {
    const child = spawn(process.execPath, [MQ_BIN, 'sandbox', '--port', '0', '--json'], {
      cwd: isolatedDir(),
      env: { PATH: process.env.PATH ?? '', HOME: isolatedDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    child.kill('SIGTERM');
    expect(JSON.parse(first)).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/) });
  });

  it('colours a pipe only when FORCE_COLOR asks, and never with NO_COLOR or --no-color', async () => {
    const env = await freshQueue();
    await mq(['submit', '1'], { env });
    expect((await mq(['queue', 'get'], { env })).stdout).not.toContain(ESC);
    expect((await mq(['queue', 'get'], { env: { ...env, FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    expect((await mq(['queue', 'get'], { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await mq(['queue', 'get', '--no-color'], { env: { ...env, FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
    const waited = await mq(['wait', '1', '--for', 'pending'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(waited.stdout).toContain(ESC);
    expect(waited.stdout).not.toContain(`${ESC}?25l`);
  });

  it('keeps to the result under --quiet, and says more under --verbose', async () => {
    const env = await freshQueue();
    expect(await mq(['submit', '1', '-q'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const quiet = await mq(['wait', '1', '--for', 'pending', '-q'], { env });
    expect(quiet).toMatchObject({ code: 0, stdout: '✓ #1 testing (past pending)\n', stderr: '' });
    const verbose = await mq(['wait', '1', '--for', 'pending', '-v'], { env });
    expect(verbose.stderr).toContain('waiting for #1 to be pending');
  });
});
