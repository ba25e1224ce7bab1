// Loading a config file with cosmiconfig, imported lazily once files.ts has found one (it and its YAML parser cost
// start-up time). Only data formats: in CI on a pull-request branch an executable config would run the branch's code
// with the CI's secrets. cosmiconfig merges its default loaders under ours (so .js/.ts get a refusal), its 'global'
// strategy reads its own directory too (files.ts walks and asks one directory at a time, with 'none'), and an
// explorer loads a "meta config" (refuseMetaConfig in files.ts).
import { constants, createReadStream, readFileSync, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { cosmiconfig, defaultLoaders, type Loader } from 'cosmiconfig';
import { ConfigError, MqError, systemErrorWords } from '../errors.js';
import { folderOf } from './file-layer.js';
import { validateConfigFile, type ConfigFile, type ConfigFileKind } from './config-file.js';
import { CONFIG_LIMIT, EXECUTABLE_EXTENSIONS, MODULE_NAME, tooBigMessage } from './config-names.js';
import { handedOverFd, isFile, isHandedOverPipe, otherThanFile } from './git.js';

/**
 * Parse errors carry a code frame of the file, which may hold a token: keep only where the problem is. A byte order
 * mark, which Windows editors write and JSON.parse refuses, is dropped, as the YAML parser drops it.
 */
const loadJson: Loader = (path, content) => {
  const text = content.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw notJson(path, text, error);
  }
};

function notJson(path: string, content: string, error: unknown): ConfigError {
  const end = content.trimEnd().length;
  // Cut off (`{"targetBranch": `): the parser says so without a position, and there is no character at fault.
  if (String(error).includes('Unexpected end of JSON input') || (positionOf(error) ?? -1) >= end) {
    return new ConfigError(`${path}: not valid JSON: it ends too soon, at line ${lineAndColumn(content, end)}`);
  }
  const at = positionOf(error) ?? brokenAt(content);
  return new ConfigError(`${path}: not valid JSON${at === undefined ? '' : ` at line ${lineAndColumn(content, at)}`}`);
}

/** `3, column 7`: where the character at `at` is, both counted from 1. */
function lineAndColumn(content: string, at: number): string {
  const before = content.slice(0, at).split('\n');
  return `${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** Where JSON.parse says the text breaks, where it says so by a position (Node 20's parser does not always). */
function positionOf(error: unknown): number | undefined {
  const position = /in JSON at position (\d+)/.exec(String(error))?.[1];
  return position === undefined ? undefined : Number(position);
}

/**
 * Where JSON text breaks when the parser says it only by quoting it (`Unexpected token 'x', "…" is not valid JSON`):
 * the longest start of it that could still be JSON, found by halving (a start of such a start can be too), ends
 * just before the character at fault.
 */
function brokenAt(content: string): number | undefined {
  const couldBe = (length: number): boolean => {
    try {
      JSON.parse(content.slice(0, length));
      return true;
    } catch (error) {
      return String(error).includes('Unexpected end of JSON input') || positionOf(error) === length;
    }
  };
  if (couldBe(content.length)) return undefined;
  let low = 0;
  let high = content.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (couldBe(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** js-yaml's reasons that quote the file, each said without it, with what to give instead. */
const QUOTING_REASONS: [string, string][] = [
  ['unknown tag', 'a tag YAML does not define (such as !!js/function): give the value itself, untagged'],
  ['unidentified alias', 'an alias (*name) with no anchor (&name) before it: give the value itself'],
];

export const loadYaml: Loader = async (path, content) => {
  try {
    return (await defaultLoaders['.yaml']!(path, content)) as unknown;
  } catch (error) {
    const { reason, mark } = error as { reason?: string; mark?: { line: number; column: number } };
    const where = mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : '';
    // A reason that quotes the file (an unknown tag, an alias) is said without its quote: the file may hold a secret.
    const quoting = reason && QUOTING_REASONS.find(([start]) => reason.startsWith(start))?.[1];
    const shown = quoting ? `: ${quoting}` : reason && /^[a-z ,]+$/i.test(reason) ? `: ${reason}` : '';
    throw new ConfigError(`${path}: not valid YAML${where}${shown}`);
  }
};

/** A data file, JSON by the extension .json, else YAML (a superset): what it holds, and its text; `where` names it in a refusal. */
export async function loadDataFile(path: string, where: string): Promise<{ data: unknown; text: string }> {
  const text = await readRegularFile(path, where);
  return { data: await (extname(path) === '.json' ? loadJson : loadYaml)(where, text), text };
}

/**
 * A regular file's text, or a pipe's the caller handed over (`--workload /dev/stdin`, `--seed <(…)`: read to its
 * end). Anything else is refused unread: a FIFO named elsewhere, a device, a folder. A file is opened without
 * blocking, and asked again once open, should the path change. (`mq mcp` refuses its own input apart: a tool's
 * path is never the protocol's.)
 */
async function readRegularFile(path: string, where: string, limit?: typeof CONFIG_LIMIT, handedOver = true): Promise<string> {
  const refuse = (stats: Stats) => {
    const kind = otherThanFile(stats);
    if (kind) throw new ConfigError(`${where}: not a regular file (${kind}); give the path of a file`);
    if (limit && stats.size > limit.bytes) throw tooBig(where, limit);
  };
  try {
    const named = await stat(path);
    // This process's own input is read as a stream: a Node parent hands it over as a socket, which no open() takes.
    if (handedOver && named.isSocket() && handedOverFd(path) === 0) return await textOf(process.stdin, where, limit);
    if (handedOver && isHandedOverPipe(path, named)) return await textOf(createReadStream(path), where, limit);
    refuse(named);
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      refuse(await handle.stat());
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${where}: cannot be read (${systemErrorWords(error)})`, { cause: error });
  }
}

/** A stream's text, read no further than `limit`: a pipe may never end (`yes | mq … --config /dev/stdin`). */
async function textOf(stream: NodeJS.ReadableStream, where: string, limit?: typeof CONFIG_LIMIT): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (limit && size > limit.bytes) throw tooBig(where, limit);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooBig(where: string, limit: typeof CONFIG_LIMIT): ConfigError {
  return new ConfigError(tooBigMessage(where, limit));
}

const refuse: Loader = (path) => {
  const executable = EXECUTABLE_EXTENSIONS.includes(extname(path));
  throw new ConfigError(
    executable
      ? `${path}: mq does not load executable config files; write it as JSON or YAML (.mqrc, .mqrc.json, .mqrc.yaml)`
      : `${path}: not a config file mq reads; use JSON (.json) or YAML (.yaml, .yml, or no extension)`,
  );
};

const LOADERS: Record<string, Loader> = {
  '.json': loadJson,
  '.yaml': loadYaml,
  '.yml': loadYaml,
  noExt: loadYaml,
  ...Object.fromEntries(EXECUTABLE_EXTENSIONS.map((ext) => [ext, refuse])),
};

/** The loader cosmiconfig would choose for `path`, by its extension. */
function loaderOf(path: string): Loader {
  const ext = extname(path);
  return ext === '' ? loadYaml : Object.hasOwn(LOADERS, ext) ? LOADERS[ext]! : refuse;
}

/** `load`, taking the `$import`s of what it loads itself (cosmiconfig then finds none to take). */
function importing(load: Loader, kind: ConfigFileKind): Loader {
  return async (path, content) => {
    const data: unknown = await load(path, content);
    // package.json: its "mq" key is the config, and its own $import (cosmiconfig reads it there, too).
    if (basename(path) !== 'package.json') return withImports(path, data, kind, [path]);
    return isMap(data) && isMap(data[MODULE_NAME]) ? { ...data, [MODULE_NAME]: await withImports(path, data[MODULE_NAME], kind, [path]) } : data;
  };
}

/** Our loaders for cosmiconfig's search, each importing. */
function loadersFor(kind: ConfigFileKind): Record<string, Loader> {
  return { ...Object.fromEntries(Object.entries(LOADERS).map(([ext, load]) => [ext, importing(load, kind)])), default: refuse };
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `data` with the keys of the files its `$import` names beneath its own, as cosmiconfig merges them (maps merged, lists
 * joined). Taken here, not by cosmiconfig: it opened a FIFO (waiting for a writer, deaf to signals), merged a list or
 * a scalar in as keys "0", "1"…, and blamed the importing file, or its folder, for what was wrong with the one imported.
 * Each imported file is read and checked alone, so a problem names the file that has it. `stack`: the importing chain.
 */
async function withImports(path: string, data: unknown, kind: ConfigFileKind, stack: string[]): Promise<unknown> {
  if (!isMap(data) || !Object.hasOwn(data, '$import')) return data;
  const { $import: named, ...own } = data;
  const paths: unknown[] = Array.isArray(named) ? named : [named];
  if (paths.some((each) => typeof each !== 'string' || each.trim() === '')) {
    throw new ConfigError(`${path}: "$import" must be the path of a data file, or a list of them, relative to this file`);
  }
  const imported: unknown[] = [];
  const folder = folderOf(path);
  for (const each of paths as string[]) {
    const full = resolve(folder, each);
    if (full === path) throw new ConfigError(`${path}: "$import" names this file itself; remove it`);
    if (stack.includes(full)) throw new ConfigError(`${path}: "$import" goes round in a circle (${[...stack, full].join(' → ')}); remove one of them`);
    imported.push(await importedFile(full, path, kind, [...stack, full]));
  }
  return mergeMaps([...imported, own] as Record<string, unknown>[]);
}

/** The keys of the file `path` that `by` imports, checked as a config file of their own. */
async function importedFile(path: string, by: string, kind: ConfigFileKind, stack: string[]): Promise<Record<string, unknown>> {
  const where = `${path} (imported by ${by})`;
  let text: string;
  try {
    // Never a pipe the caller handed over (/dev/stdin): a file a checkout holds names it, not the person running mq,
    // and reading it would hang on an open pipe or take the input meant for the command.
    text = await readRegularFile(path, where, CONFIG_LIMIT, false);
  } catch (error) {
    if ((error as Error).cause && ((error as Error).cause as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ConfigError(`${by}: the file its $import names does not exist: ${path}`, { cause: error });
    }
    throw error;
  }
  let data: unknown = text.trim() === '' ? undefined : await loaderOf(path)(where, text);
  if (basename(path) === 'package.json') data = isMap(data) ? data[MODULE_NAME] : undefined;
  data = await withImports(path, data ?? {}, kind, stack);
  validateConfigFile(where, kind, data, '');
  return data as Record<string, unknown>;
}

/** Later maps' keys over earlier ones', maps merged and lists joined; every key an own property, `__proto__` too (it is data). */
function mergeMaps(maps: Record<string, unknown>[]): Record<string, unknown> {
  const into = (target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> => {
    for (const [key, value] of Object.entries(source)) {
      const before = Object.hasOwn(target, key) ? target[key] : undefined;
      const after =
        Array.isArray(before) && Array.isArray(value) ? [...before, ...value] : isMap(before) && isMap(value) ? into(into({}, before), value) : value;
      Object.defineProperty(target, key, { value: after, enumerable: true, writable: true, configurable: true });
    }
    return target;
  };
  return maps.reduce(into, {});
}

function explorer(searchPlaces: string[], kind: ConfigFileKind) {
  return cosmiconfig(MODULE_NAME, { searchPlaces, searchStrategy: 'none', loaders: loadersFor(kind), cache: false });
}

/** Anything cosmiconfig throws that is not already ours (unreadable file, a bad $import) still names the file. */
function asConfigError(error: unknown, fallbackPath: string): MqError {
  if (error instanceof MqError) return error;
  const path = (error as { filepath?: string }).filepath ?? fallbackPath;
  if (String((error as Error).message).startsWith('JSON Error in ')) return metaConfigJsonError(path, error);
  return new ConfigError(`${path}: cannot be read (${systemErrorWords(error)})`, { cause: error });
}

/**
 * cosmiconfig reads package.json in the working directory with its own JSON loader, for a "cosmiconfig" key of
 * its settings, before any search of ours: its message quotes the file in a code frame over several lines. Said
 * as our loader says it, where the file breaks and not what it holds.
 */
function metaConfigJsonError(path: string, error: unknown): ConfigError {
  let content = '';
  try {
    content = readFileSync(path, 'utf8');
    JSON.parse(content);
  } catch (parseError) {
    return notJson(path, content, parseError);
  }
  return new ConfigError(`${path}: not valid JSON`, { cause: error });
}

function validate(path: string, kind: ConfigFileKind, config: unknown): ConfigFile {
  return validateConfigFile(path, kind, config ?? {}, basename(path) === 'package.json' ? `${MODULE_NAME}.` : '');
}

/**
 * Loads and validates the file at `path` (absolute, known to exist), read as cosmiconfig's load reads it, but no
 * further than a config file's limit: a pipe named by --config may never end, and read whole it failed as
 * "Invalid string length". /dev/null is an empty file.
 */
export async function loadFile(path: string, kind: ConfigFileKind): Promise<ConfigFile> {
  try {
    const text = path === '/dev/null' ? '' : await readRegularFile(path, path, CONFIG_LIMIT);
    const data: unknown = text.trim() === '' ? undefined : await importing(loaderOf(path), kind)(path, text);
    return validate(path, kind, basename(path) === 'package.json' && isMap(data) ? data[MODULE_NAME] : data);
  } catch (error) {
    throw asConfigError(error, path);
  }
}

/** The config file cosmiconfig finds in `dir` alone, among `searchPlaces`; undefined when none counts. */
export async function searchDir(dir: string, searchPlaces: string[], kind: ConfigFileKind): Promise<ConfigFile | undefined> {
  try {
    const result = await explorer(searchPlaces, kind).search(dir);
    if (result) return validate(result.filepath, kind, result.config);
  } catch (error) {
    throw asConfigError(error, dir);
  }
  // A search passes over a file it cannot read (EACCES) or whose $import is missing as if the file were not
  // there, and the settings in it would be dropped without a word (another branch, another queue). Loaded by
  // name, such a file fails; one that is empty or holds only comments loads as nothing, and is passed over as
  // the search did.
  for (const path of searchPlaces.map((place) => join(dir, place))) {
    if (isFile(path)) await loadFile(path, kind);
  }
  return undefined;
}

/** Parses and validates `content` as a search would read it from `path`: `mq config init` checks what it is about to write. */
export async function parseConfigText(path: string, kind: ConfigFileKind, content: string): Promise<ConfigFile> {
  return validate(path, kind, await loaderOf(path)(path, content));
}
