// `mq/sandbox` as the package ships it (scripts/build.mjs): reached through package.json's exports by import and
// by require, holding none of the command line, its types compiling a user's test without zod, and the seed's
// JSON Schema agreeing with the seed's zod schema.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { Seed } from '../../../src/sandbox/io/seed.js';
import { sandboxTypes, seedJsonSchema } from '../../../src/sandbox/sandbox-types.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const dist = (file: string) => readFileSync(join(ROOT, 'dist', file), 'utf8');

/** A project with mq in its node_modules (a link to this checkout's built package). */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mq-lib-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'mq'));
  return dir;
}

const USE = `const s = await startSandbox({ seed: { queues: [{ repo: 'acme/widgets', branch: 'main' }] } });
const answer = await fetch(s.v1Url + '/getQueue', { method: 'POST', headers: { 'x-api-token': s.token }, body: JSON.stringify({ repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' }) });
await s.advance(60);
console.log(answer.status, (await s.advance(0)).toISOString());
await s.close();`;

describe('mq/sandbox', () => {
  it('is reached by import and by require, and holds none of the command line', () => {
    const dir = project();
    writeFileSync(join(dir, 'esm.mjs'), `import { startSandbox } from 'mq/sandbox';\n${USE}\n`);
    writeFileSync(join(dir, 'cjs.cjs'), `const { startSandbox } = require('mq/sandbox');\n(async () => {\n${USE}\n})();\n`);
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      expect(execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' }).trim()).toBe('200 2026-01-01T00:01:00.000Z');
    }
    for (const bundle of [dist('sandbox.mjs'), dist('sandbox.cjs')]) {
      expect(bundle).not.toMatch(/src\/(commands|cli|render|command-kit)\//);
      expect(bundle).not.toMatch(/node_modules\/commander\//);
    }
  });

  it('is one library whichever way a project reaches it: an import and a require in one process share it', () => {
    const dir = project();
    writeFileSync(
      join(dir, 'both.mjs'),
      "import { createRequire } from 'node:module';\nimport { startSandbox } from 'mq/sandbox';\nconsole.log(createRequire(import.meta.url)('mq/sandbox').startSandbox === startSandbox);\n",
    );
    expect(execFileSync(process.execPath, ['both.mjs'], { cwd: dir, encoding: 'utf8' }).trim()).toBe('true');
  });

  it("words its refusals in English when the project sets zod's language: the bundled zod shares its global (helper-96)", () => {
    const dir = project();
    symlinkSync(join(ROOT, 'node_modules', 'zod'), join(dir, 'node_modules', 'zod'));
    writeFileSync(
      join(dir, 'fr.mjs'),
      "import * as z from 'zod';\nimport { startSandbox } from 'mq/sandbox';\nz.config(z.locales.fr());\nawait startSandbox({ clock: 'fast' }).catch((error) => console.log(error.message));\n",
    );
    expect(execFileSync(process.execPath, ['fr.mjs'], { cwd: dir, encoding: 'utf8' }).trim()).toBe(
      'startSandbox: clock: Invalid option: expected one of "manual"|"real"',
    );
  });

  // An ES module user and a CommonJS one (a .cts file's import = require, which needs declarations of CommonJS).
  it.each([
    ['use.ts', "import { startSandbox, type Sandbox } from 'mq/sandbox';"],
    ['use.cts', "import mq = require('mq/sandbox');\nconst { startSandbox } = mq;\ntype Sandbox = mq.Sandbox;"],
  ])("types a user's test from the shipped declarations alone (%s)", (name, imported) => {
    const dir = project();
    const file = join(dir, name);
    writeFileSync(
      file,
      `${imported}\nexport async function f(): Promise<Sandbox> {\n  const s = await startSandbox({ clock: 'manual', keys: [{ key: 'k', permissions: ['submit'] }, { key: 'l', permissions: 'all' }] });\n  await s.setPullRequest({ repo: { host: 'github.com', owner: 'a', name: 'b' }, number: 1, testOutcome: 'flaky' });\n  // @ts-expect-error: no such outcome\n  await s.setPullRequest({ repo: { host: 'github.com', owner: 'a', name: 'b' }, number: 1, testOutcome: 'maybe' });\n  // @ts-expect-error: no such permission\n  await startSandbox({ keys: [{ key: 'm', permissions: ['god'] }] });\n  // An option given as undefined is one left out, with exactOptionalPropertyTypes too.\n  const fromEnv = undefined as string | undefined;\n  await startSandbox({ state: fromEnv, speed: undefined, webhooks: [{ url: 'http://127.0.0.1:1/', secret: undefined }] });\n  return s;\n}\n`,
    );
    const program = ts.createProgram([file], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      skipLibCheck: false,
    });
    expect(dist('sandbox.d.ts')).toContain(sandboxTypes());
    expect(dist('sandbox.d.cts')).toBe(dist('sandbox.d.ts'));
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('ships the JSON Schema of a seed, which agrees with the zod schema', () => {
    expect(JSON.parse(dist('seed.schema.json'))).toEqual(seedJsonSchema());
    const validate = new Ajv({ strict: false }).compile(seedJsonSchema());
    const seeds: unknown[] = [
      { queues: [{ repo: 'acme/widgets', branch: 'main', settings: { batch: true } }] },
      { pullRequests: [{ repo: 'acme/widgets', number: 1, testOutcome: 'fail', submit: { branch: 'main', priority: 'high' } }] },
      { keys: [{ key: 'trunk_v2_a', permissions: 'all' }], webhooks: [{ url: 'https://example.com/hook' }] },
      { webhooks: [{ url: 'https://example.com/hook', events: ['pull_request.merged'], secret: 'whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY' }] },
      { webhooks: [{ url: 'https://example.com/hook', signingKey: 'x' }] },
      { queues: [{ repo: 'acme/widgets' }] },
      { pullRequests: [{ repo: 'acme/widgets', number: 1, testOutcome: 'maybe' }] },
      { keys: [{ key: 'k', permissions: ['admin'] }] },
      { queue: [] },
    ];
    for (const seed of seeds) expect(validate(seed), JSON.stringify(seed)).toBe(Seed.safeParse(seed).success);
  });
});
