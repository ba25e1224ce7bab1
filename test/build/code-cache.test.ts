// The code cache bin/mq.js keeps per command: made once, read back as it is on the next start, and remade when
// its bytes no longer hold (a cache V8 trusted damaged would crash every run). One per file of the bundle read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxEnv, startSandboxProcess } from '../support/cli.js';

const MQ = resolve(import.meta.dirname, '../../bin/mq.js');

function run(home: string, args = ['config', 'path', '--json'], extra: Record<string, string> = {}) {
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...extra };
  const child = spawnSync(process.execPath, [MQ, ...args], { cwd: home, env, encoding: 'utf8' });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("bin/mq.js's code cache", () => {
  it('is written on the first run, read back unchanged on the next, and remade when damaged', () => {
    const home = mkdtempSync(join(tmpdir(), 'mq-code-cache-'));
    const dir = join(home, '.cache/mq');
    const first = run(home);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    const names = readdirSync(dir);
    expect(names.map((name) => name.replace(/^[0-9a-f]+-v[\d.]+-\w+-/, ''))).toEqual(['config.rest.v8', 'config.v8']);
    const cache = join(dir, names[1]!);
    const written = statSync(cache).ino;

    // Accepted: a cache refused (checksum, V8) is written anew, as a new file renamed over the old one.
    expect(run(home)).toEqual(first);
    expect(statSync(cache).ino).toBe(written);

    const bytes = readFileSync(cache);
    bytes[bytes.length >> 1]! ^= 0xff;
    writeFileSync(cache, bytes);
    expect(run(home)).toEqual(first);
    expect(statSync(cache).ino).not.toBe(written);
    const remade = statSync(cache).ino;
    expect(run(home)).toEqual(first);
    expect(statSync(cache).ino).toBe(remade);
  });

  it('is one file for `mq status` of a PR (dist/mq.cjs holds all it runs, scripts/build.mjs), two for a command beyond it', async () => {
    const sandbox = await startSandboxProcess();
    try {
      const home = mkdtempSync(join(tmpdir(), 'mq-code-cache-'));
      const env = sandboxEnv(sandbox.url, 'acme/cache');
      expect(run(home, ['queue', 'create'], env).status).toBe(0);
      expect(run(home, ['submit', '1'], env).status).toBe(0);
      const caches = () => readdirSync(join(home, '.cache/mq')).map((name) => name.replace(/^[0-9a-f]+-v[\d.]+-\w+-/, ''));
      expect(caches()).toEqual(['queue.rest.v8', 'queue.v8', 'submit.rest.v8', 'submit.v8']);
      expect(run(home, ['status', '1', '--json'], env)).toMatchObject({ status: 0, stderr: '' });
      expect(run(home, ['status', '1'], env)).toMatchObject({ status: 0, stderr: '' });
      expect(caches()).toEqual(['queue.rest.v8', 'queue.v8', 'status.v8', 'submit.rest.v8', 'submit.v8']);
    } finally {
      await sandbox.stop();
    }
  });
});
