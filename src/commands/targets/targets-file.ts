// `mq targets set --file PATH|-`: a list of impacted targets read as a stream, so that memory does not grow with
// it (a monorepo's list can be tens of MiB). A first pass checks the list and measures it (how many targets, how
// big as JSON: what decides ALL); the upload then reads it again from the file. Standard input cannot be read
// twice, so it is copied to a temporary file on the first pass.
//
// The grammar is parseTargetList's (input.ts): one target a line, or a JSON array of strings. Anything the
// streaming reader does not recognise as valid is handed to parseTargetList whole, so every error reads as it does.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextDecoder } from 'node:util';
import { badValue } from '../../argv-values.js';
import { systemErrorWords, UsageError } from '../../errors.js';
import { parseTargetList } from '../../command-kit/input.js';
import type { ListTail } from '../../model/service.js';

/** A list of targets, checked and measured, readable again as often as needed: batches come a chunk read at a time. */
export interface TargetsFile extends ListTail {
  /** Removes the copy of standard input, if one was made. */
  dispose(): Promise<void>;
}

const CHUNK_BYTES = 64 * 1024;
/** Strings of a JSON array per batch (a list in lines is batched by the chunk read). */
const BATCH_TARGETS = 512;

/** Raised by the streaming reader at anything it does not accept: parseTargetList then judges the whole text. */
class NotStreamable extends Error {}

/** A list that is not UTF-8 is refused, not read with its bytes replaced (a target that names nothing). */
class NotUtf8 extends Error {}

function utf8Decoder(): TextDecoder {
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
}

/** The decoder's refusal as NotUtf8; any other error as it is. */
function notUtf8(error: unknown): unknown {
  return (error as NodeJS.ErrnoException).code === 'ERR_ENCODING_INVALID_ENCODED_DATA' ? new NotUtf8() : error;
}

function decodeAll(bytes: Uint8Array): string {
  try {
    return utf8Decoder().decode(bytes);
  } catch (error) {
    throw notUtf8(error);
  }
}

/** Reads `path` ('-': `stdin`) once, checking every target; a bad list is a UsageError, as parseTargetList's. */
export async function openTargetsFile(path: string, stdin: AsyncIterable<Uint8Array | string>): Promise<TargetsFile> {
  if (path !== '-') return measure(path, 'file', () => readChunks(path));
  const dir = await mkdtemp(join(tmpdir(), 'mq-targets-'));
  const copy = join(dir, 'stdin');
  try {
    const list = await measure('standard input', 'stdin', () => spooled(stdin, copy), copy);
    return { ...list, dispose: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The first pass: every target read and measured, or the error parseTargetList gives for the whole text. */
async function measure(source: string, kind: 'file' | 'stdin', chunks: () => AsyncIterable<Buffer>, copy?: string): Promise<TargetsFile> {
  const stored = copy ?? source;
  let count = 0;
  let jsonBytes = 0;
  let jsonLength = 0;
  const iterator = chunks()[Symbol.asyncIterator]();
  const drained = { [Symbol.asyncIterator]: () => iterator };
  try {
    for await (const batch of scanTargets(drained)) {
      // The batch as JSON without its brackets: its targets' JSON, comma-separated; one more comma before it.
      const json = JSON.stringify(batch).slice(1, -1);
      const comma = count > 0 ? 1 : 0;
      jsonBytes += Buffer.byteLength(json) + comma;
      jsonLength += json.length + comma;
      count += batch.length;
    }
  } catch (error) {
    if (!(error instanceof NotStreamable)) throw readError(error, source, kind);
    // Rare (a malformed list): the rest is read (and copied), and the whole text judged as it always was.
    for await (const _ of drained);
    try {
      return inMemory(parseTargetList(decodeAll(await readFile(stored)), source));
    } catch (error) {
      throw readError(error, source, kind);
    }
  }
  return {
    count,
    jsonBytes,
    jsonLength,
    batches: () => scanTargets(readChunks(stored)),
    dispose: async () => {},
  };
}

function inMemory(list: string[]): TargetsFile {
  const json = JSON.stringify(list).slice(1, -1);
  return {
    count: list.length,
    jsonBytes: Buffer.byteLength(json),
    jsonLength: json.length,
    batches: async function* () {
      if (list.length > 0) yield list;
    },
    dispose: async () => {},
  };
}

function readError(error: unknown, source: string, kind: 'file' | 'stdin'): unknown {
  if (error instanceof NotUtf8)
    return badValue('--file', kind === 'stdin' ? '-' : source, 'is not valid UTF-8 text', 'a list saved as UTF-8, one target a line or a JSON array');
  if (error instanceof UsageError || kind === 'stdin') return error;
  return new UsageError(`cannot read --file ${source}: ${systemErrorWords(error)}`);
}

async function* readChunks(path: string): AsyncGenerator<Buffer> {
  yield* createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>;
}

/** Standard input, passed on as it comes and written to `copy` on the way. */
async function* spooled(stdin: AsyncIterable<Uint8Array | string>, copy: string): AsyncGenerator<Buffer> {
  const out = createWriteStream(copy);
  try {
    for await (const chunk of stdin) {
      const bytes = Buffer.from(chunk);
      if (!out.write(bytes)) await new Promise<void>((drained) => out.once('drain', () => drained()));
      yield bytes;
    }
  } finally {
    await new Promise<void>((closed, failed) => out.end((error?: Error | null) => (error ? failed(error) : closed())));
  }
}

// What String.prototype.trim removes: the text is trimmed before it is judged JSON or lines.
const TRIMMED = /\s/;
// JSON's own whitespace, the only kind allowed between its tokens.
const JSON_SPACE = new Set([' ', '\t', '\n', '\r']);

/** The targets of a list arriving in chunks, a non-empty batch at a time: lines, or a JSON array of strings (NotStreamable at anything else). */
async function* scanTargets(chunks: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  const decoder = utf8Decoder();
  const texts = async function* () {
    try {
      for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
      yield decoder.decode();
    } catch (error) {
      throw notUtf8(error);
    }
  };
  const iterator = texts()[Symbol.asyncIterator]();
  let first = '';
  // The first character that String#trim keeps decides the format.
  for (;;) {
    const next = await iterator.next();
    if (next.done) return;
    first = next.value.replace(/^\s+/, '');
    if (first !== '') break;
  }
  const rest = { [Symbol.asyncIterator]: () => iterator };
  yield* first.startsWith('[') ? jsonArray(first, rest) : lines(first, rest);
}

/** One target a line: each line trimmed, blank lines and # comments skipped (input.ts). A batch a chunk. */
async function* lines(start: string, texts: AsyncIterable<string>): AsyncGenerator<string[]> {
  let carry = start;
  const take = (line: string) => {
    const target = line.trim();
    return target !== '' && !target.startsWith('#') ? target : undefined;
  };
  /** The targets of the complete lines of `text`; what follows its last newline is carried on. */
  const complete = (text: string): string[] => {
    const batch: string[] = [];
    let from = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', from)) {
      const target = take(text.slice(from, end));
      if (target !== undefined) batch.push(target);
      from = end + 1;
    }
    carry = text.slice(from);
    return batch;
  };
  const first = complete(carry);
  if (first.length > 0) yield first;
  for await (const text of texts) {
    const batch = complete(carry + text);
    if (batch.length > 0) yield batch;
  }
  const last = take(carry);
  if (last !== undefined) yield [last];
}

/** `[ "a", "b" ]` with JSON's whitespace, and trim's after the end; the strings go out BATCH_TARGETS at a time, the rest at the end. */
async function* jsonArray(start: string, texts: AsyncIterable<string>): AsyncGenerator<string[]> {
  const iterator = texts[Symbol.asyncIterator]();
  let text = start;
  let at = 1;
  let done = false;
  let batch: string[] = [];
  const taken = (): string[] => {
    const out = batch;
    batch = [];
    return out;
  };
  /** More text, keeping what is not yet consumed; false at the end of the input. */
  const more = async (): Promise<boolean> => {
    if (done) return false;
    const next = await iterator.next();
    if (next.done) {
      done = true;
      return false;
    }
    text = text.slice(at) + next.value;
    at = 0;
    return true;
  };
  /** The next character that is not JSON whitespace, or undefined at the end of the input. */
  const peek = async (): Promise<string | undefined> => {
    for (;;) {
      while (at < text.length && JSON_SPACE.has(text[at]!)) at++;
      if (at < text.length) return text[at];
      if (!(await more())) return undefined;
    }
  };
  let expectValue = true;
  let first = true;
  for (;;) {
    const char = await peek();
    if (char === ']' && (first || !expectValue)) {
      at++;
      break;
    }
    if (expectValue && char === '"') {
      batch.push(await stringToken());
      if (batch.length >= BATCH_TARGETS) yield taken();
      expectValue = false;
      first = false;
    } else if (!expectValue && char === ',') {
      at++;
      expectValue = true;
    } else {
      throw new NotStreamable();
    }
  }
  if (batch.length > 0) yield taken();
  // After the array, only what String#trim would have removed.
  for (;;) {
    while (at < text.length) if (!TRIMMED.test(text[at++]!)) throw new NotStreamable();
    if (!(await more())) return;
  }

  /** The string token starting at `at`, as JSON.parse reads it (escapes, and its refusals). */
  async function stringToken(): Promise<string> {
    let end = at + 1;
    for (;;) {
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end < text.length) break;
      // The token runs on into the next chunk (more() keeps it, from `at`, which becomes 0).
      const offset = end - at;
      if (!(await more())) throw new NotStreamable();
      end = offset;
    }
    const token = text.slice(at, end + 1);
    at = end + 1;
    try {
      return JSON.parse(token) as string;
    } catch {
      throw new NotStreamable();
    }
  }
}
