// The git checkout around the working directory: its root, the `origin` remote's URL, the current branch. Read from
// .git's files where that is simple (spawning git costs tens of milliseconds, and fails in checkouts of "dubious
// ownership"); git itself for what the files do not settle (config includes, reftable).
import { readFile as readFileThen, type Stats, stat as statThen, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import type { Repo } from '../model/repository.js';
import { parseRemoteUrl } from './repo.js';

// Not node:fs/promises: loading it loads node:readline's internals too, a millisecond of every start.
const readFile = promisify(readFileThen);
const stat = promisify(statThen);

const GIT_TIMEOUT_MS = 5_000;

/** The nearest directory from `cwd` up that contains `.git` (a directory, or a file in worktrees and submodules). */
export async function findGitRoot(cwd: string): Promise<string | undefined> {
  // Synchronous and without an exception for a miss: one stat per directory up to the root, on every run.
  return [...upwards(resolve(cwd))].find((dir) => statQuietly(join(dir, '.git')) !== undefined);
}

/** `from` and its parents up to `stop`; up to the root if `stop` is not given or not above `from`. */
export function* upwards(from: string, stop?: string): Generator<string> {
  const rel = stop === undefined ? '..' : relative(stop, from);
  const bounded = rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  let dir = from;
  for (;;) {
    yield dir;
    const parent = dirname(dir);
    if (parent === dir || (bounded && dir === stop)) return;
    dir = parent;
  }
}

/**
 * The checkout's root and the text of one of its git files, following `.git` files (`gitdir: …`) and a worktree's `commondir`:
 * `config` is shared state (not in gitDir in a linked worktree), `HEAD` per-checkout. No text when the layout is not understood.
 */
async function gitFile(cwd: string, name: 'config' | 'HEAD'): Promise<{ root: string; text?: string | undefined } | undefined> {
  const root = await findGitRoot(cwd);
  if (root === undefined) return undefined;
  const dotGit = join(root, '.git');
  try {
    if ((await stat(dotGit)).isDirectory()) return { root, text: await readFile(join(dotGit, name), 'utf8').catch(() => undefined) };
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8'));
    if (!pointer?.[1]) return { root };
    const gitDir = resolve(root, pointer[1]);
    const common = name === 'HEAD' ? undefined : await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
    return { root, text: await readFile(join(common === undefined ? gitDir : resolve(gitDir, common.trim()), name), 'utf8').catch(() => undefined) };
  } catch {
    return { root };
  }
}

/** The URL of the `origin` remote of the checkout around `cwd`, if there is one. */
export async function originUrl(cwd: string): Promise<string | undefined> {
  const found = await gitFile(cwd, 'config');
  if (found?.text !== undefined) {
    const url = gitConfigValue(found.text, 'remote', 'origin', 'url');
    if (url !== undefined) return url;
    // No origin in the file: it may still come through an [include]; only git knows.
    if (!/^\s*\[\s*include/im.test(found.text)) return undefined;
  }
  return found && runGit(found.root, ['config', '--get', 'remote.origin.url']);
}

/** The repository the `origin` remote names, if there is one and it is a URL mq understands. */
export async function repoFromOrigin(cwd: string): Promise<Repo | undefined> {
  const url = await originUrl(cwd);
  return url === undefined ? undefined : parseRemoteUrl(url);
}

/** The branch checked out around `cwd`; undefined outside a checkout or on a detached HEAD. */
export async function currentGitBranch(cwd: string): Promise<string | undefined> {
  const found = await gitFile(cwd, 'HEAD');
  if (found?.text !== undefined) {
    const ref = /^ref:\s*refs\/heads\/(.+?)\s*$/.exec(found.text);
    // A reftable repository keeps a placeholder HEAD naming `.invalid`; the real one is in the table.
    if (ref?.[1] !== '.invalid') return ref?.[1];
  }
  return found && runGit(found.root, ['symbolic-ref', '--short', '-q', 'HEAD']);
}

/** The first `key` in `[section "subsection"]` of a git config: section and key case-insensitive, subsection not; `[section.subsection]` is old. */
export function gitConfigValue(text: string, section: string, subsection: string, key: string): string | undefined {
  let inSection = false;
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    let rest = line;
    if (header) {
      const [, name = '', quoted, after = ''] = header;
      if (quoted !== undefined) {
        inSection = name.toLowerCase() === section && quoted.replace(/\\(.)/g, '$1') === subsection;
      } else {
        const dot = name.indexOf('.');
        inSection = dot > 0 && name.slice(0, dot).toLowerCase() === section && name.slice(dot + 1).toLowerCase() === subsection;
      }
      rest = after;
    }
    if (!inSection) continue;
    const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(rest);
    if (entry?.[1]?.toLowerCase() === key) return unquoteGitValue(entry[2] ?? '');
  }
  return undefined;
}

/** A value as git reads it: double quotes grouped, backslash escapes, `#`/`;` comments outside quotes dropped. */
function unquoteGitValue(raw: string): string {
  let value = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (char === '\\') {
      const next = raw[++i];
      value += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
    } else if (char === '"') {
      quoted = !quoted;
    } else if ((char === '#' || char === ';') && !quoted) {
      break;
    } else {
      value += char;
    }
  }
  return value.trim();
}

/** Runs git for one line of output; any failure (git missing, not a repository, no such key) is undefined. */
async function runGit(cwd: string, args: string[]): Promise<string | undefined> {
  // Loaded here: node:child_process (with net and dgram) is milliseconds of a start that most runs never need.
  const { execFile } = await import('node:child_process');
  return new Promise((done) => {
    execFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      const line = String(stdout).trim();
      done(error || line === '' ? undefined : line);
    });
  });
}

/** Without an exception for a missing file, the common case: a few per directory searched, on every run. */
function statQuietly(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export function isFile(path: string): boolean {
  return statQuietly(path)?.isFile() === true;
}

/**
 * A pipe mq was handed by its caller, named /dev/stdin, /dev/fd/N or /proc/self/fd/N (`<(…)`, `… | mq … /dev/stdin`):
 * its writer is there, and it is read to its end. A FIFO named anywhere else may have no writer, and its open
 * would block for ever (no signal cancels it, nor lets the process exit).
 */
export function isHandedOverPipe(path: string, stats: Stats): boolean {
  return stats.isFIFO() && handedOverFd(path) !== undefined;
}

/** The descriptor a path of the caller's streams names: /dev/stdin (0), /dev/fd/N, /proc/self/fd/N; undefined for any other path. */
export function handedOverFd(path: string): number | undefined {
  if (path === '/dev/stdin') return 0;
  const fd = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(path)?.[1];
  return fd === undefined ? undefined : Number(fd);
}

/** What `stats` are of, when not a regular file: a pipe, a folder, a socket or a device. */
export function otherThanFile(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  return stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a pipe' : stats.isSocket() ? 'a socket' : 'a device';
}
