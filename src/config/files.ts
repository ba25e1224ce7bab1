// Finding config files: the project file (named by --config or its variable, or the nearest one up to the git root)
// and the user file under $XDG_CONFIG_HOME/mq. Most runs have none, so plain fs looks for a file that could count, and
// cosmiconfig (config-loader.ts) is loaded only for a directory that has one, to decide there as it always did.
import { existsSync, lstatSync, readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ConfigError, systemErrorWords, UsageError } from '../errors.js';
import type { ConfigFile, ConfigFileKind } from './config-file.js';
import { findGitRoot, isFile, isHandedOverPipe, otherThanFile, upwards } from './git.js';
import { envName } from './setting-rows.js';
import {
  CONFIG_LIMIT,
  EXECUTABLE_CONFIG_NAMES,
  EXECUTABLE_META_CONFIGS,
  MODULE_NAME,
  PROJECT_SEARCH_PLACES,
  tooBigMessage,
  USER_SEARCH_PLACES,
} from './config-names.js';

/** A cosmiconfig explorer runs a "meta config" (`.config/config.js`) from process.cwd() before our options apply: refused on every search. */
function refuseMetaConfig(): void {
  for (const place of EXECUTABLE_META_CONFIGS) {
    const path = resolve(place);
    if (existsSync(path)) {
      throw new ConfigError(
        `${path}: cosmiconfig would run this file as its meta config, and mq does not run config code; remove it, or run mq from another directory`,
      );
    }
  }
}

const loader = () => import('./config-loader.js');

/** Loads the file --config or its variable names, which must exist (a typo is not "no config"); a bad flag is a usage error, a bad variable a config error. */
export async function loadProjectFile(path: string, cwd: string, namedBy: 'flag' | 'env'): Promise<ConfigFile> {
  const absolute = resolve(cwd, path);
  const refuse = (problem: string) => {
    const message = `${namedBy === 'flag' ? '--config' : envName('config')}: "${path}" ${problem}; use the path of a config file, e.g. .mqrc.yaml`;
    return namedBy === 'flag' ? new UsageError(message) : new ConfigError(message);
  };
  if (path === '' || !existsSync(absolute)) throw refuse('is no such file');
  const other = notAFile(absolute);
  if (other) throw refuse(`is ${other}, not a file`);
  refuseMetaConfig();
  return (await loader()).loadFile(absolute, 'project');
}

/** What a path names if not a file mq may read (a FIFO, a folder, /dev/zero, which never ends); a pipe handed over is read. */
function notAFile(path: string): string | undefined {
  // /dev/null: an empty config, the usual way to leave the project's file out.
  if (path === '/dev/null') return undefined;
  const stats = statSync(path);
  return isHandedOverPipe(path, stats) ? undefined : otherThanFile(stats);
}

/** The nearest project file from `cwd` up to where the search stops (searchStop). */
export async function findProjectFile(cwd: string, home: string | undefined): Promise<ProjectSearch> {
  refuseMetaConfig();
  const ignored: string[] = [];
  for (const dir of upwards(resolve(cwd), await searchStop(cwd, home))) {
    ignored.push(...executableConfigsIn(dir));
    const file = await projectFileIn(dir);
    if (file) return { file, ignored };
  }
  return { ignored };
}

/**
 * Where the search for a project file stops: the git root; outside a checkout, the home directory when `cwd` is in
 * it, else `cwd` itself. Climbing on to the root, a `/tmp/.mqrc.yaml` anyone can write held for every folder under it.
 */
export async function searchStop(cwd: string, home: string | undefined): Promise<string> {
  const root = await findGitRoot(cwd);
  if (root !== undefined) return root;
  if (home === undefined) return resolve(cwd);
  // The working directory is the kernel's, its links resolved; HOME may run through a link (/home → /data/home).
  const here = resolve(cwd);
  const under = (candidate: string) => {
    const inHome = relative(candidate, here);
    return inHome !== '..' && !inHome.startsWith(`..${sep}`) && !isAbsolute(inHome);
  };
  const named = resolve(home);
  if (under(named)) return named;
  // Resolved only where the path as named does not hold the working directory: one system call, rarely made.
  const real = realPathOr(home);
  return under(real) ? real : here;
}

export interface ProjectSearch {
  /** The nearest project file, if any. */
  file?: ConfigFile;
  /** Executable config files in the directories searched, which mq does not load. */
  ignored: string[];
}

/** A few stats of names that are almost never there (no exception is made for a missing one): cheap enough per run. */
export function executableConfigsIn(dir: string): string[] {
  return EXECUTABLE_CONFIG_NAMES.map((name) => join(dir, name)).filter(isFile);
}

/** The user file: $XDG_CONFIG_HOME/mq/config.{json,yaml,yml}, the first that exists. */
export async function findUserFile(configDir: string): Promise<ConfigFile | undefined> {
  refuseMetaConfig();
  return searchDir(configDir, USER_SEARCH_PLACES, 'user');
}

async function searchDir(dir: string, places: string[], kind: ConfigFileKind): Promise<ConfigFile | undefined> {
  if (!places.some((place) => mayCount(join(dir, place)))) return undefined;
  return (await loader()).searchDir(dir, places, kind);
}

/** Whether cosmiconfig could take `path`: false only where it surely would not (none, empty, a package.json without "mq"). */
function mayCount(path: string): boolean {
  if (!configFileAt(path)) return false;
  let content: string;
  try {
    // Refused unread, as a file named by --config is (config-loader.ts); not a package.json, which is the project's
    // own file first, and may be large with no "mq" key at all.
    if (basename(path) !== 'package.json' && statSync(path).size > CONFIG_LIMIT.bytes) throw new ConfigError(tooBigMessage(path, CONFIG_LIMIT));
    content = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    return true;
  }
  if (content.trim() === '') return false;
  if (basename(path) !== 'package.json') return true;
  try {
    const data: unknown = JSON.parse(content);
    if (typeof data !== 'object' || data === null) return true;
    return (data as Record<string, unknown>)[MODULE_NAME] != null;
  } catch {
    return true;
  }
}

/**
 * Whether a file is at a config file's name: false where nothing is; a folder named as a file (`.mqrc.yaml`,
 * `config.yaml`), a pipe, a device, a link to nothing or a loop of links there is refused, naming it: the search
 * would pass over it, and mq run without the settings its user meant it to hold. A folder named `.mqrc` may be
 * another tool's, and is passed over. One system call where nothing is, as the search's own look costs.
 */
function configFileAt(path: string): boolean {
  let entry: Stats | undefined;
  try {
    entry = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // A file where a folder of the path should be ($XDG_CONFIG_HOME, or HOME, naming a file): nothing is there.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw new ConfigError(`the config file ${path} cannot be looked at (${systemErrorWords(error)}): make its folder one mq may read`, { cause: error });
  }
  if (entry === undefined) return false;
  const what = entry.isSymbolicLink() ? linkTarget(path) : otherThanFile(entry);
  if (what === undefined) return true;
  if (what === 'a folder' && extname(path) === '') return false;
  throw new ConfigError(`the config file ${path} is ${what}, not a file: make it one, or remove it`);
}

/** What a link leads to, when not a regular file. */
function linkTarget(path: string): string | undefined {
  try {
    const target = statSync(path, { throwIfNoEntry: false });
    return target === undefined ? 'a link to nothing' : otherThanFile(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'a loop of symbolic links';
    if (code === 'ENOTDIR') return 'a link to nothing';
    return `a link mq cannot follow (${systemErrorWords(error)})`;
  }
}

/**
 * The name in `dir` a search stops at: a file that may count, or something at a config file's name that fails
 * the search (a folder, a loop of links); undefined where there is none. What `mq config path` shows, broken or not.
 */
export function searchedEntry(dir: string, kind: ConfigFileKind): string | undefined {
  for (const path of (kind === 'project' ? PROJECT_SEARCH_PLACES : USER_SEARCH_PLACES).map((place) => join(dir, place))) {
    try {
      if (mayCount(path)) return path;
    } catch {
      return path;
    }
  }
  return undefined;
}

/** The project file cosmiconfig finds in `dir` alone; a broken one at a config file's name is an error naming it. */
export async function projectFileIn(dir: string): Promise<ConfigFile | undefined> {
  return searchDir(dir, PROJECT_SEARCH_PLACES, 'project');
}

/** config-loader.ts's parseConfigText, loaded on first use. */
export async function parseConfigText(path: string, kind: ConfigFileKind, content: string): Promise<ConfigFile> {
  return (await loader()).parseConfigText(path, kind, content);
}

/** Where the user file lives: $XDG_CONFIG_HOME/mq, or ~/.config/mq (a relative XDG path is ignored, per the spec); undefined without either. */
export function userConfigDir(xdgConfigHome: string | undefined, homeDir: string | undefined): string | undefined {
  if (xdgConfigHome !== undefined && isAbsolute(xdgConfigHome)) return join(xdgConfigHome, MODULE_NAME);
  return homeDir === undefined ? undefined : join(homeDir, '.config', MODULE_NAME);
}

/** Whether two paths name one file (through links); false when either cannot be resolved. */
export function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** `path` with its links resolved, or as given where it cannot be (it is not there). */
function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
