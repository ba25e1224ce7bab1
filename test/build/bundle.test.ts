// The shape of dist/mq.cjs that bin/mq.js and its code caches rely on (scripts/build.mjs): named by a hash of its
// content, the function Node would wrap a CommonJS module in, holding the chunks of the build as functions of a
// table that V8 compiles only when a command requires them; those `mq status` never runs in a table of their own,
// dist/mq-rest.cjs, named alike.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';

const FILE = resolve(import.meta.dirname, '../../dist/mq.cjs');
const REST_FILE = resolve(import.meta.dirname, '../../dist/mq-rest.cjs');
const text = readFileSync(FILE, 'latin1');
const restText = readFileSync(REST_FILE, 'latin1');
const [header = '', ...lines] = text.split('\n');
const body = lines.join('\n');
const [restHeader = '', ...restLines] = restText.split('\n');
const restBody = restLines.join('\n');
const chunksOf = (code: string) => [...code.matchAll(/^"(\.\/[\w-]+\.js)": function \(module, exports, require\) \{$/gm)].map((match) => match[1]);
const hot = chunksOf(body);
const chunks = [...hot, ...chunksOf(restBody)];

describe('dist/mq.cjs', () => {
  it('is named by its content: a code cache never outlives the text it was made from', () => {
    expect(header).toBe(`// mq ${createHash('sha256').update(body).update(restBody).digest('hex').slice(0, 20)}`);
    expect(restHeader).toBe(header);
  });

  it('is a function expression, compiled as read (bin/mq.js)', () => {
    expect(body.startsWith('(function (exports, require, module, __filename, __dirname) {"use strict";\n')).toBe(true);
    expect(body.endsWith('\n})\n')).toBe(true);
    expect(typeof new Script(text).runInThisContext()).toBe('function');
  });

  it('keeps the chunks mq status never runs in mq-rest.cjs, a function that returns them, each chunk in one file', () => {
    expect(restBody.startsWith('(function (require, __filename) {"use strict";\n')).toBe(true);
    const table = (new Script(restText).runInThisContext() as (require: unknown, file: string) => Record<string, unknown>)(undefined, REST_FILE);
    expect(Object.keys(table)).toEqual(chunksOf(restBody));
    expect(new Set(chunks).size).toBe(chunks.length);
    expect(hot).toContain('./mq.js');
    // Status reads the lesser part of the megabyte, zod with it to check its answers (test/build/code-cache.test.ts:
    // nothing else).
    expect(text.length).toBeLessThan(restText.length);
  });

  it('holds its chunks, every one it requires, and no import() (it would start the ES module loader)', () => {
    expect(chunks.length).toBeGreaterThan(20);
    expect(chunks).toContain('./mq.js');
    const required = new Set([...(body + restBody).matchAll(/require\("(\.\/chunk-[\w-]+\.js)"\)/g)].map((match) => match[1]));
    expect([...required].filter((name) => !chunks.includes(name))).toEqual([]);
    expect(body + restBody).not.toMatch(/\bimport\(/);
  });

  it('declares nothing at its top level that V8 would compile unasked: a cache made before anything runs is small', () => {
    // The one-scope bundle of esbuild hoisted every module's functions to the top: its cache was a fifth of it.
    const caches = [new Script(text, { filename: FILE }), new Script(restText, { filename: REST_FILE })].map((script) => script.createCachedData());
    expect(caches[0]!.length + caches[1]!.length).toBeLessThan((text.length + restText.length) / 20);
  });
});

describe("dist/mq.cjs's quick table", () => {
  it('holds, as data, every command quick.ts reads without commander, with its words and loader as the table has them', async () => {
    const { QUICK_COMMANDS, QUICK_SWITCHES } = await import('../../src/cli/quick-table.js');
    const literal = /\bvar QUICK_COMMANDS ?= ?(\{[\s\S]*?\});\s*var QUICK_SWITCHES ?= ?(\[[\s\S]*?\]);/.exec(body);
    expect(literal).not.toBeNull();
    // Evaluated with a require that says what each loader asks for: the chunk, then the export it reads.
    const asked = (chunk: string) => new Proxy({}, { get: (_, exported) => ({ chunk, exported }) });
    const built: Record<string, { args: unknown; own: unknown; load: () => Promise<{ chunk: string; exported: string }> }> = new Function(
      'require',
      `return ${literal![1]}`,
    )(asked);
    const words = (table: Record<string, { args: unknown; own: unknown }>) =>
      Object.fromEntries(Object.entries(table).map(([name, spec]) => [name, { args: spec.args, own: spec.own }]));
    expect(words(built)).toEqual(words(QUICK_COMMANDS));
    for (const [name, spec] of Object.entries(built)) {
      const { chunk, exported } = await spec.load();
      expect(chunks, name).toContain(chunk);
      // The export the table's own loader reads.
      expect(String(QUICK_COMMANDS[name]!.load), name).toMatch(new RegExp(`\\)\\.${exported}$`));
    }
    expect(new Function(`return ${literal![2]}`)()).toEqual(QUICK_SWITCHES);
  });
});
