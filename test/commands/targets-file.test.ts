// The streamed targets reader (targets-file.ts) against the rule it streams: parseTargetList (input.ts). Same
// targets, same measurements as JSON.stringify, same errors, whatever the chunks the input arrives in.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTargetList } from '../../src/command-kit/input.js';
import { openTargetsFile, type TargetsFile } from '../../src/commands/targets/targets-file.js';
import { UsageError } from '../../src/errors.js';
import { propertyRuns } from '../support/runs.js';

async function* chunksOf(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function all(list: TargetsFile): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of list.batches()) {
    // Every batch holds at least one target: the uploader counts on it for its commas.
    expect(batch.length).toBeGreaterThan(0);
    out.push(...batch);
  }
  return out;
}

/** What parseTargetList says of `text`: its list, or its error message. */
function expected(text: string, source: string): string[] | string {
  try {
    return parseTargetList(text, source);
  } catch (error) {
    return (error as Error).message;
  }
}

/** What the streaming reader says of `text` given as standard input in chunks of `size` bytes. */
async function streamed(text: string, size: number): Promise<string[] | string> {
  let list: TargetsFile;
  try {
    list = await openTargetsFile('-', chunksOf(text, size));
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  try {
    const targets = await all(list);
    const json = JSON.stringify(targets).slice(1, -1);
    expect(list.count).toBe(targets.length);
    expect(list.jsonBytes).toBe(Buffer.byteLength(json));
    expect(list.jsonLength).toBe(json.length);
    return targets;
  } finally {
    await list.dispose();
  }
}

const CASES = [
  '',
  '   \n\n',
  '# header\n//a\n\n  //b  \r\n',
  '//a\r\n//b\r\n# c\n  # d\n//e',
  '\uFEFF//a\n//b',
  '\u00a0//a\u00a0\n\t//b\t',
  ' ["//a", "//b"] ',
  '[]',
  '[ ]\n',
  '\uFEFF["//a"]',
  '["//a",\n\t"//b"\r\n]\u00a0\n',
  '["with \\"quotes\\" and \\\\ and \\u00e9", "é", "日本", "😀"]',
  '["a\\/b", "\\n\\t"]',
  '[1, 2]',
  '[oops',
  '["a",]',
  '["a" "b"]',
  '["a"] x',
  '["a"]]',
  '[,"a"]',
  '{"a": 1}',
  '["a", null]',
  '["unterminated',
  '["bad \\x escape"]',
  '["raw\ttab"]',
  '[\u00a0"a"]',
  '["a"]\u00a0',
  '[["a"]]',
  'a\nb\n[c]',
];

describe('the streamed reader reads as parseTargetList does', () => {
  it.each(CASES)('%j, in chunks of 1, 2, 7 bytes and whole', async (text) => {
    const want = expected(text, 'standard input');
    for (const size of [1, 2, 7, 1 << 20]) expect(await streamed(text, size)).toEqual(want);
  });

  it('for any list written as lines or as JSON, and any text at all', async () => {
    const target = fc.string({ unit: 'grapheme', maxLength: 12 });
    const space = fc.constantFrom('', ' ', '\t', '\r', '\n', '\u00a0', '\r\n');
    const asLines = fc.tuple(fc.array(fc.tuple(space, target, space)), space).map(([lines, end]) => lines.map((l) => l.join('')).join('\n') + end);
    const asJson = fc
      .tuple(fc.array(target), space, space)
      .map(([list, before, after]) => `${before}${JSON.stringify(list, null, list.length % 2 ? 1 : 0)}${after}`);
    const anything = fc.string({ unit: 'grapheme', maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(asLines, asJson, anything), fc.integer({ min: 1, max: 9 }), async (text, size) => {
        expect(await streamed(text, size)).toEqual(expected(text, 'standard input'));
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe('a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mq-targets-test-'));

  it('is read again for each pass, and measured on the first', async () => {
    const path = join(dir, 'targets.txt');
    writeFileSync(path, '# impacted\n//a\n\n//b\n');
    const list = await openTargetsFile(path, chunksOf('', 1));
    expect([list.count, await all(list), await all(list)]).toEqual([2, ['//a', '//b'], ['//a', '//b']]);
  });

  it('a bad one names the file, as parseTargetList does', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '["//a", 3]');
    await expect(openTargetsFile(path, chunksOf('', 1))).rejects.toThrow(new UsageError(`${path}: expected a JSON array of strings`));
  });

  it('a missing one says it cannot be read', async () => {
    const path = join(dir, 'missing.txt');
    await expect(openTargetsFile(path, chunksOf('', 1))).rejects.toThrow(new UsageError(`cannot read --file ${path}: no such file or directory`));
    await expect(openTargetsFile(dir, chunksOf('', 1))).rejects.toThrow(new UsageError(`cannot read --file ${dir}: it is a folder`));
  });
});

describe('standard input', () => {
  // The copies are counted in a temporary folder of this file's own: in the system's, a test file running beside
  // this one (an e2e `mq targets set --file -`) makes and removes copies of its own while these count.
  let systemTmp: string | undefined;
  beforeAll(() => {
    systemTmp = process.env.TMPDIR;
    process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'mq-targets-test-'));
  });
  afterAll(() => {
    if (systemTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = systemTmp;
  });
  const copies = () => readdirSync(tmpdir()).filter((name) => name.startsWith('mq-targets-'));

  it('is copied on the first pass, read from the copy after, and the copy removed by dispose', async () => {
    const before = new Set(copies());
    const list = await openTargetsFile('-', chunksOf('//a\n//b\n', 3));
    const made = copies().filter((name) => !before.has(name));
    expect(made).toHaveLength(1);
    expect(await all(list)).toEqual(['//a', '//b']);
    await list.dispose();
    expect(existsSync(join(tmpdir(), made[0]!))).toBe(false);
  });

  it('leaves no copy behind when it is refused', async () => {
    const before = new Set(copies());
    await expect(openTargetsFile('-', chunksOf('[oops', 2))).rejects.toThrow(new UsageError('standard input: not valid JSON'));
    expect(copies().filter((name) => !before.has(name))).toEqual([]);
  });
});

describe('a list that is not UTF-8', () => {
  const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
  async function* chunked(buffer: Buffer, size: number): AsyncGenerator<Buffer> {
    for (let at = 0; at < buffer.length; at += size) yield buffer.subarray(at, at + size);
  }

  it.each([
    ['lines', bytes('//a\n//b', [0xff], '\n')],
    ['JSON', bytes('["//a", "//', [0xc3], '"]')],
    ['a malformed list', bytes('[oops', [0xfe])],
    ['a cut sequence at the end', bytes('//a\n//', [0xe6, 0x97])],
  ])('is refused, not read with U+FFFD in place of its bytes (%s)', async (_, text) => {
    const message = '--file: "-" is not valid UTF-8 text; use a list saved as UTF-8, one target a line or a JSON array';
    for (const size of [1, 3, 1 << 20]) await expect(openTargetsFile('-', chunked(text, size))).rejects.toThrow(new UsageError(message));
    const path = join(mkdtempSync(join(tmpdir(), 'mq-targets-test-')), 'targets.txt');
    writeFileSync(path, text);
    await expect(openTargetsFile(path, chunksOf('', 1))).rejects.toThrow(new UsageError(message.replace('"-"', JSON.stringify(path))));
  });
});
