// The shape of the build that start-up relies on (scripts/build.mjs): dist/mq.cjs, a table of the build's chunks
// as functions that V8 compiles only when a command requires them, with each API's service in a part of its own
// (dist/mq-v1.cjs, dist/mq-v2.cjs) and the chunks `mq status` never runs in dist/mq-rest.cjs, each required on
// first use; and bin/mq.js, which turns on Node's compile cache where Node has one, and keeps V8's code cache of
// dist/mq.cjs and of a part beside it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { sandboxEnv, startSandboxProcess } from '../support/cli.js';

const MQ = resolve(import.meta.dirname, '../../bin/mq.js');
const DIST = resolve(import.meta.dirname, '../../dist');
const FILE = join(DIST, 'mq.cjs');
const REST_FILE = join(DIST, 'mq-rest.cjs');
const PARTS = { v1: join(DIST, 'mq-v1.cjs'), v2: join(DIST, 'mq-v2.cjs') };
const text = readFileSync(FILE, 'utf8');
const restText = readFileSync(REST_FILE, 'utf8');
const partTexts = Object.values(PARTS).map((file) => readFileSync(file, 'utf8'));
const chunksOf = (code: string) => [...code.matchAll(/^"(\.\/[\w-]+\.js)": function \(module, exports, require\) \{$/gm)].map((match) => match[1]);
const hot = chunksOf(text);
const chunks = [...hot, ...chunksOf(restText), ...partTexts.flatMap(chunksOf)];
const buildOf = (code: string) => /^\/\/ mq build (\w+)\n/.exec(code)?.[1];
const HAS_COMPILE_CACHE = typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function run(args: string[], env: Record<string, string> = {}, execArgv: string[] = []) {
  const home = mkdtempSync(join(tmpdir(), 'mq-bundle-'));
  const child = spawnSync(process.execPath, [...execArgv, MQ, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env },
    encoding: 'utf8',
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** A file for --require that writes, at exit, each file of dist/ the process read (Node's loader reads with fs too). */
function readsProbe(): { execArgv: string[]; read(): string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'mq-reads-'));
  const probe = join(dir, 'probe.cjs');
  const out = join(dir, 'read');
  writeFileSync(
    probe,
    `const fs = require('node:fs'); const readFileSync = fs.readFileSync; const read = new Set();
fs.readFileSync = function (path, ...rest) { if (typeof path === 'string' && path.startsWith(${JSON.stringify(`${DIST}/`)})) read.add(path.slice(${DIST.length + 1})); return readFileSync.call(this, path, ...rest); };
process.on('exit', () => fs.writeFileSync(${JSON.stringify(out)}, [...read].join('\\n')));`,
  );
  return { execArgv: ['--require', probe], read: () => readFileSync(out, 'utf8').split('\n').sort() };
}

describe('dist/mq.cjs', () => {
  it('keeps the chunks mq status never runs in mq-rest.cjs, a module whose exports are their table, each chunk in one file', () => {
    const table = createRequire(import.meta.url)(REST_FILE) as Record<string, unknown>;
    expect(Object.keys(table)).toEqual(chunksOf(restText));
    expect(new Set(chunks).size).toBe(chunks.length);
    expect(hot).toContain('./mq.js');
    expect(text.length).toBeLessThan(restText.length);
  });

  it("keeps each API's service in a part, run as bin/mq.js runs it: a module whose exports are its table, named by its build", () => {
    for (const [i, file] of Object.values(PARTS).entries()) {
      const module = { exports: {} };
      (runInThisContext(partTexts[i]!, { filename: file }) as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
      expect(Object.keys(module.exports), basename(file)).toEqual(chunksOf(partTexts[i]!));
      expect(buildOf(partTexts[i]!)).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(partTexts[0]).toContain('function createV1Service(');
    expect(partTexts[1]).toContain('function createV2Service(');
  });

  it('holds its chunks, every one it requires, and no import() (it would start the ES module loader)', () => {
    expect(chunks.length).toBeGreaterThan(20);
    const all = [text, restText, ...partTexts].join('');
    const required = new Set([...all.matchAll(/require\("(\.\/chunk-[\w-]+\.js)"\)/g)].map((match) => match[1]));
    expect([...required].filter((name) => !chunks.includes(name))).toEqual([]);
    expect(all).not.toMatch(/\bimport\(/);
  });

  it("serves `mq status` of a PR from dist/mq.cjs and its API's part alone (never the other API's), and a command beyond it from mq-rest.cjs too", async () => {
    const sandbox = await startSandboxProcess();
    try {
      const env = { ...sandboxEnv(sandbox.url, 'acme/bundle'), NODE_DEBUG: 'module' };
      const read = (args: string[], api: 'v1' | 'v2' = 'v1') => {
        const probe = readsProbe();
        const child = run(args, { ...env, MQ_TOKEN: sandboxEnv(sandbox.url, 'acme/bundle', {}, api).MQ_TOKEN! }, probe.execArgv);
        expect(child.status, args.join(' ')).toBe(0);
        // Nor node:crypto, which only webhooks need (~15 ms of CPU of a start), nor node:child_process, which only
        // git, a token command or a browser needs (commander's is taken where it spawns: scripts/build.mjs).
        if (args[0] === 'status') {
          expect(child.stderr, args.join(' ')).not.toContain('load built-in module node:crypto');
          expect(child.stderr, args.join(' ')).not.toContain('load built-in module node:child_process');
        }
        return probe.read().filter((file) => file.endsWith('.cjs'));
      };
      expect(read(['queue', 'create'])).toContain('mq-rest.cjs');
      expect(read(['submit', '1'])).toContain('mq-rest.cjs');
      // Whatever a v1 status reads holds none of v2's service, and the reverse.
      const texts = (files: string[]) => files.map((file) => readFileSync(join(DIST, file), 'utf8')).join('');
      for (const args of [
        ['status', '1', '--json'],
        ['status', '1'],
      ]) {
        const v1 = read(args);
        expect(v1, args.join(' ')).toEqual(['mq-v1.cjs', 'mq.cjs']);
        expect(texts(v1)).not.toContain('function createV2Service(');
      }
      const v2 = read(['status', '1', '--json'], 'v2');
      expect(v2).toEqual(['mq-v2.cjs', 'mq.cjs']);
      expect(texts(v2)).not.toContain('function createV1Service(');
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
    const build = buildOf(text);
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

  it.skipIf(!HAS_COMPILE_CACHE)("keeps V8's code cache of the API's part a status ran beside dist/mq.cjs's, each named by its file's build", async () => {
    const sandbox = await startSandboxProcess();
    try {
      for (const api of ['v1', 'v2'] as const) {
        const temporary = mkdtempSync(join(tmpdir(), 'mq-code-cache-'));
        const env = { ...sandboxEnv(sandbox.url, 'acme/bundle', {}, api), TMPDIR: temporary };
        if (api === 'v1') expect(run(['queue', 'create'], env).status).toBe(0);
        expect(run(['status', '1', '--json'], env).status).toBe(4);
        const [version = ''] = readdirSync(join(temporary, 'node-compile-cache'));
        const kept = readdirSync(join(temporary, 'node-compile-cache', version)).filter((file) => /^mq-.*-status$/.test(file));
        const other = api === 'v1' ? 'v2' : 'v1';
        expect(kept.sort(), api).toEqual([`mq-${buildOf(text)}-status`, `mq-${buildOf(readFileSync(PARTS[api], 'utf8'))}-status`].sort());
        expect(kept).not.toContain(`mq-${buildOf(readFileSync(PARTS[other], 'utf8'))}-status`);
      }
    } finally {
      await sandbox.stop();
    }
  });
});
