// Finding and loading config files with cosmiconfig: the project file (named by --config/MQ_CONFIG, or the
// nearest one from the working directory up to the git root) and the user file under $XDG_CONFIG_HOME/mq.
//
// Only data formats are ever loaded. A merge-queue CLI runs in CI on pull-request branches, where an executable
// config file would run the branch's code with the CI's secrets. cosmiconfig needs three guards for that:
// its default loaders stay merged under ours (so .js/.ts are overridden with a refusal rather than left out),
// its 'global' search strategy also reads its own global directory (so we walk the directories ourselves with
// 'none'), and creating an explorer loads a "meta config" from process.cwd() — running `.config/config.js` if
// there is one — before any option of ours applies (so that file is refused before cosmiconfig is called).
import { existsSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { cosmiconfig, defaultLoaders, type Loader } from 'cosmiconfig';
import { ConfigError, MqError, UsageError } from '../errors.js';
import { validateConfigFile, type ConfigFile, type ConfigFileKind } from './config-file.js';

export const MODULE_NAME = 'mq';
export const PROJECT_SEARCH_PLACES = [
  'package.json',
  '.mqrc',
  '.mqrc.json',
  '.mqrc.yaml',
  '.mqrc.yml',
  'mq.config.json',
];
export const USER_SEARCH_PLACES = ['config.json', 'config.yaml', 'config.yml'];

/** cosmiconfig's meta-config files that it would execute (its metaSearchPlaces, less the data ones). */
const EXECUTABLE_META_CONFIGS = ['.config/config.js', '.config/config.ts', '.config/config.cjs', '.config/config.mjs'];
const EXECUTABLE_EXTENSIONS = ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts'];

/** Parse errors carry a code frame of the file, which may hold a token: keep only where the problem is. */
const loadJson: Loader = (path, content) => {
  try {
    return JSON.parse(content) as unknown;
  } catch (error) {
    const position = /position (\d+)/.exec(String(error))?.[1];
    const where = position === undefined ? '' : ` ${lineAndColumn(content, Number(position))}`;
    throw new ConfigError(`${path}: not valid JSON${where}`);
  }
};

const loadYaml: Loader = async (path, content) => {
  try {
    return (await defaultLoaders['.yaml']!(path, content)) as unknown;
  } catch (error) {
    const { reason, mark } = error as { reason?: string; mark?: { line: number; column: number } };
    const where = mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : '';
    throw new ConfigError(`${path}: not valid YAML${where}${reason ? `: ${reason}` : ''}`);
  }
};

const refuse: Loader = (path) => {
  const executable = EXECUTABLE_EXTENSIONS.includes(extname(path));
  throw new ConfigError(
    executable
      ? `${path}: mq does not load executable config files; write it as JSON or YAML (.mqrc, .mqrc.json, .mqrc.yaml)`
      : `${path}: not a config file mq reads; use JSON (.json) or YAML (.yaml, .yml, or no extension)`,
  );
};

const LOADERS = {
  '.json': loadJson,
  '.yaml': loadYaml,
  '.yml': loadYaml,
  noExt: loadYaml,
  ...Object.fromEntries(EXECUTABLE_EXTENSIONS.map((ext) => [ext, refuse])),
  default: refuse,
};

function lineAndColumn(content: string, offset: number): string {
  const before = content.slice(0, offset).split('\n');
  return `at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

function explorer(searchPlaces: string[]) {
  // process.cwd(), not the cwd we are given: it is where cosmiconfig looks for its meta config.
  for (const place of EXECUTABLE_META_CONFIGS) {
    const path = resolve(place);
    if (existsSync(path)) {
      throw new ConfigError(
        `${path}: cosmiconfig would run this file as its meta config, and mq does not run config code; ` +
          'remove it, or run mq from another directory',
      );
    }
  }
  return cosmiconfig(MODULE_NAME, { searchPlaces, searchStrategy: 'none', loaders: LOADERS, cache: false });
}

/** Anything cosmiconfig throws that is not already ours (unreadable file, a bad $import) still names the file. */
function asConfigError(error: unknown, fallbackPath: string): MqError {
  if (error instanceof MqError) return error;
  const path = (error as { filepath?: string }).filepath ?? fallbackPath;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const reason = (error as { code?: string }).code ?? message;
  return new ConfigError(`${path}: cannot be read (${reason})`, { cause: error });
}

function validate(path: string, kind: ConfigFileKind, config: unknown): ConfigFile {
  return validateConfigFile(path, kind, config ?? {}, basename(path) === 'package.json' ? `${MODULE_NAME}.` : '');
}

/**
 * Loads the file --config or MQ_CONFIG names. It must exist: a typo there is not "no config". A bad flag is a
 * usage error, like any other; a bad variable is a configuration error.
 */
export async function loadProjectFile(path: string, cwd: string, namedBy: 'flag' | 'env'): Promise<ConfigFile> {
  const absolute = resolve(cwd, path);
  if (path === '' || !existsSync(absolute)) {
    const message = `invalid ${namedBy === 'flag' ? '--config' : 'MQ_CONFIG'} "${path}": no such file`;
    throw namedBy === 'flag' ? new UsageError(message) : new ConfigError(message);
  }
  try {
    const result = await explorer(PROJECT_SEARCH_PLACES).load(absolute);
    return validate(absolute, 'project', result?.config);
  } catch (error) {
    throw asConfigError(error, absolute);
  }
}

/**
 * The nearest project file from `cwd` up to `stopDir` (inclusive): the git root inside a checkout, otherwise the
 * home directory when `cwd` is under it, otherwise the file system root.
 */
export async function findProjectFile(cwd: string, stopDir: string): Promise<ConfigFile | undefined> {
  const search = explorer(PROJECT_SEARCH_PLACES);
  for (const dir of upwards(resolve(cwd), resolve(stopDir))) {
    try {
      const result = await search.search(dir);
      if (result) return validate(result.filepath, 'project', result.config);
    } catch (error) {
      throw asConfigError(error, dir);
    }
  }
  return undefined;
}

/** The user file: $XDG_CONFIG_HOME/mq/config.{json,yaml,yml}, the first that exists. */
export async function findUserFile(configDir: string): Promise<ConfigFile | undefined> {
  try {
    const result = await explorer(USER_SEARCH_PLACES).search(configDir);
    return result ? validate(result.filepath, 'user', result.config) : undefined;
  } catch (error) {
    throw asConfigError(error, configDir);
  }
}

/**
 * Parses and validates `content` as if it had been read from `path`, with the loaders and the schema a search
 * uses: `mq config init` checks what it is about to write this way.
 */
export async function parseConfigText(path: string, kind: ConfigFileKind, content: string): Promise<ConfigFile> {
  const ext = extname(path);
  const loaders: Record<string, Loader> = LOADERS;
  const loader: Loader = ext === '' ? LOADERS.noExt : Object.hasOwn(loaders, ext) ? loaders[ext]! : refuse;
  return validate(path, kind, await loader(path, content));
}

/** `from` and its parents up to `stop`; up to the root if `stop` is not above `from`. */
function* upwards(from: string, stop: string): Generator<string> {
  const within = (dir: string) => {
    const rel = relative(stop, dir);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  };
  const bounded = within(from);
  let dir = from;
  for (;;) {
    yield dir;
    const parent = dirname(dir);
    if (parent === dir || (bounded && dir === stop)) return;
    dir = parent;
  }
}

/** Where the user file lives: $XDG_CONFIG_HOME/mq, or ~/.config/mq (a relative XDG path is ignored, per the spec). */
export function userConfigDir(xdgConfigHome: string | undefined, homeDir: string): string {
  const base = xdgConfigHome !== undefined && isAbsolute(xdgConfigHome) ? xdgConfigHome : join(homeDir, '.config');
  return join(base, MODULE_NAME);
}
