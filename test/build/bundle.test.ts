// The shape of the build that start-up relies on (scripts/build.mjs): dist/mq.cjs, a CommonJS module holding the
// chunks of the build as functions of a table that V8 compiles only when a command requires them, and those
// `mq status` never runs in a table of their own, dist/mq-rest.cjs, required on first use; and bin/mq.js, which
// turns on Node's compile cache where Node has one, and keeps V8's code cache of dist/mq.cjs beside it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxEnv, startSandboxProcess } from '../support/cli.js';

const MQ = resolve(import.meta.dirname, '../../bin/mq.js');
const FILE = resolve(import.meta.dirname, '../../dist/mq.cjs');
const REST_FILE = resolve(import.meta.dirname, '../../dist/mq-rest.cjs');
const text = readFileSync(FILE, 'utf8');
const restText = readFileSync(REST_FILE, 'utf8');
const chunksOf = (code: string) => [...code.matchAll(/^"(\.\/[\w-]+\.js)": function \(module, exports, require\) \{$/gm)].map((match) => match[1]);
const hot = chunksOf(text);
const chunks = [...hot, ...chunksOf(restText)];
const HAS_COMPILE_CACHE = typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function run(args: string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'mq-bundle-'));
  const child = spawnSync(process.execPath, [MQ, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env },
    encoding: 'utf8',
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('dist/mq.cjs', () => {
  it('keeps the chunks mq status never runs in mq-rest.cjs, a module whose exports are their table, each chunk in one file', () => {
    const table = createRequire(import.meta.url)(REST_FILE) as Record<string, unknown>;
    expect(Object.keys(table)).toEqual(chunksOf(restText));
    expect(new Set(chunks).size).toBe(chunks.length);
    expect(hot).toContain('./mq.js');
    expect(text.length).toBeLessThan(restText.length);
  });

  it('holds its chunks, every one it requires, and no import() (it would start the ES module loader)', () => {
    expect(chunks.length).toBeGreaterThan(20);
    const required = new Set([...(text + restText).matchAll(/require\("(\.\/chunk-[\w-]+\.js)"\)/g)].map((match) => match[1]));
    expect([...required].filter((name) => !chunks.includes(name))).toEqual([]);
    expect(text + restText).not.toMatch(/\bimport\(/);
  });

  it('serves `mq status` of a PR from dist/mq.cjs alone on either API, and a command beyond it from mq-rest.cjs too', async () => {
    const sandbox = await startSandboxProcess();
    try {
      const env = { ...sandboxEnv(sandbox.url, 'acme/bundle'), NODE_DEBUG: 'module' };
      // bin/mq.js compiles dist/mq.cjs itself: Node's module log names the files it requires, mq-rest.cjs among them.
      const rest = (args: string[], api: 'v1' | 'v2' = 'v1') => {
        const child = run(args, { ...env, MQ_TOKEN: sandboxEnv(sandbox.url, 'acme/bundle', {}, api).MQ_TOKEN! });
        expect(child.status, args.join(' ')).toBe(0);
        // Nor node:crypto, which only webhooks need (~15 ms of CPU of a start), nor node:child_process, which only
        // git, a token command or a browser needs (commander's is taken where it spawns: scripts/build.mjs).
        if (args[0] === 'status') {
          expect(child.stderr, args.join(' ')).not.toContain('load built-in module node:crypto');
          expect(child.stderr, args.join(' ')).not.toContain('load built-in module node:child_process');
        }
        return child.stderr.includes('/dist/mq-rest.cjs');
      };
      expect(rest(['queue', 'create'])).toBe(true);
      expect(rest(['submit', '1'])).toBe(true);
      expect(rest(['status', '1', '--json'])).toBe(false);
      expect(rest(['status', '1'])).toBe(false);
      expect(rest(['status', '1', '--json'], 'v2')).toBe(false);
    } finally {
      await sandbox.stop();
    }
  });
});

describe('bin/mq.js', () => {
  it("answers a lone --version from the package's manifest", () => {
    const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    expect(run(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it.skipIf(!HAS_COMPILE_CACHE)("turns on Node's compile cache (in the temporary directory), which keeps the bundle's files", () => {
    const temporary = mkdtempSync(join(tmpdir(), 'mq-compile-cache-'));
    expect(run(['config', 'path', '--json'], { TMPDIR: temporary })).toMatchObject({ status: 0, stderr: '' });
    const [version = ''] = readdirSync(join(temporary, 'node-compile-cache'));
    expect(readdirSync(join(temporary, 'node-compile-cache', version)).length).toBeGreaterThan(1);
  });

  it.skipIf(!HAS_COMPILE_CACHE)("keeps V8's code cache of dist/mq.cjs, named by its build and command, made once; one V8 refuses is made anew", () => {
    const build = /^\/\/ mq build (\w+)\n/.exec(text)?.[1];
    expect(build).toMatch(/^[0-9a-f]{16}$/);
    const temporary = mkdtempSync(join(tmpdir(), 'mq-code-cache-'));
    const cacheFile = () => {
      const [version = ''] = readdirSync(join(temporary, 'node-compile-cache'));
      return join(temporary, 'node-compile-cache', version, `mq-${build}-config`);
    };
    const config = () => expect(run(['config', 'path', '--json'], { TMPDIR: temporary })).toMatchObject({ status: 0, stderr: '' });
    config();
    const made = readFileSync(cacheFile());
    expect(made.length).toBeGreaterThan(10_000);
    config();
    expect(readFileSync(cacheFile()).equals(made)).toBe(true);
    writeFileSync(cacheFile(), 'not a code cache');
    config();
    expect(readFileSync(cacheFile()).length).toBeGreaterThan(10_000);
  });
});
