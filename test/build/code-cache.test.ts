// The code cache bin/mq.js keeps per command: made once, read back as it is on the next start, and remade when
// its bytes no longer hold (a cache V8 trusted damaged would crash every run).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const MQ = resolve(import.meta.dirname, '../../bin/mq.js');

function run(home: string): { status: number | null; stdout: string; stderr: string } {
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
  const child = spawnSync(process.execPath, [MQ, 'config', 'path', '--json'], { cwd: home, env, encoding: 'utf8' });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("bin/mq.js's code cache", () => {
  it('is written on the first run, read back unchanged on the next, and remade when damaged', () => {
    const home = mkdtempSync(join(tmpdir(), 'mq-code-cache-'));
    const dir = join(home, '.cache/mq');
    const first = run(home);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    const [name, ...others] = readdirSync(dir);
    expect(others).toEqual([]);
    const cache = join(dir, name!);
    expect(name).toMatch(/-config\.v8$/);
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
});
