// The layers, first found wins (docs/configuration.md#settings): flags, environment, project file, user file, git
// inference, then the Settings schema's defaults. Each value keeps the words that say where it came from.
import { join, resolve } from 'node:path';
import { safeParseChecked } from '../api/check-runtime.js';
import type { Repo } from '../model/repository.js';
import { ConfigError } from '../errors.js';
import { BRANCH_REF_PREFIX } from './branch-name.js';
import { resolveColor } from './color.js';
import type { ConfigFile } from './config-file.js';
import { fileLayer } from './file-layer.js';
import { envValue, environmentLayer } from './environment.js';
import { findProjectFile, findUserFile, loadProjectFile, sameFile, userConfigDir, type ProjectSearch } from './files.js';
import { flagsLayer } from './flags.js';
import { envName } from './setting-rows.js';
import { repoFromOrigin } from './git.js';
import { NEW_CONFIG_FILE } from './locations.js';
import { CHECKS } from './settings-check.js';
import type { ApiUrlTrust, ConfigLocations, Layer, ResolvedSettings, ResolveInput, Settings } from './settings.js';
import { homeDir } from './home.js';

export async function resolveSettings(input: ResolveInput): Promise<ResolvedSettings> {
  const { flags, env } = input;
  const cwd = resolve(input.cwd);
  const home = input.homeDir ?? homeDir(env);

  // Flags and environment first: a bad value there is reported before any file is read.
  const fromFlags = flagsLayer(flags);
  const fromEnv = environmentLayer(env);
  const profile = fromFlags.profile?.value ?? fromEnv.profile?.value;

  const configVariable = envValue(env, envName('config'));
  const userDir = userConfigDir(envValue(env, 'XDG_CONFIG_HOME'), home);
  const userFile = userDir === undefined ? undefined : await findUserFile(userDir);
  const { file: projectFile, ignored = [] } = await projectConfigFile(flags.config, configVariable, cwd, home, userFile?.path);
  const files = [projectFile, userFile].filter((file): file is ConfigFile => file !== undefined);
  if (profile !== undefined && !files.some((file) => file.profiles.has(profile))) {
    throw unknownProfile(profile, files);
  }

  const merged = firstFound([fromFlags, fromEnv, ...files.map((file) => fileLayer(file, profile, home))]);
  if (merged.repo === undefined) {
    // Only now: inference may read .git or even spawn git, and is wasted when the repository is set.
    const repo = await repoFromOrigin(cwd);
    if (repo) merged.repo = { value: repo, origin: 'git remote origin' };
  }
  const notes: string[] = [];
  const branch = merged.targetBranch;
  if (branch?.value.startsWith(BRANCH_REF_PREFIX)) {
    // `-b "$GITHUB_REF"` in a push workflow: the ref of the branch, not a branch named after it.
    merged.targetBranch = { ...branch, value: branch.value.slice(BRANCH_REF_PREFIX.length) };
    notes.push(`${branch.origin}: "${branch.value}" taken as the branch ${merged.targetBranch.value}`);
  }
  const color = resolveColor(flags.color, env, input.stdoutIsTTY);

  const values = Object.fromEntries(Object.entries(merged).map(([key, found]) => [key, found.value]));
  const settings = await parseSettings({ ...values, color: color.value });
  const origins: Record<string, string> = {};
  // The parsed settings hold every key with a value, in the schema's order.
  for (const key of Object.keys(settings) as (keyof Settings)[]) {
    const origin = key === 'color' ? color.origin : (merged[key]?.origin ?? (settings[key] === undefined ? undefined : 'default'));
    if (origin !== undefined) origins[key] = origin;
  }
  const named = flags.config ?? configVariable;
  const namedBy = flags.config !== undefined ? 'flag' : configVariable !== undefined ? 'env' : 'search';
  const locations: ConfigLocations = {
    ...(projectFile && { project: { path: projectFile.path, namedBy, ...(named !== undefined && { asGiven: named }) } }),
    ...(userFile && { user: userFile.path }),
    ...(userDir !== undefined && { userDir }),
  };
  const trust: ApiUrlTrust = {
    ...(merged.apiUrl?.file && { apiUrlFrom: merged.apiUrl.file }),
    trustedApiUrls: userFile?.trustedApiUrls ?? [],
    userConfigPath: userFile?.path ?? (userDir === undefined ? `$XDG_CONFIG_HOME/mq/${NEW_CONFIG_FILE.user}` : join(userDir, NEW_CONFIG_FILE.user)),
  };
  return { settings, origins, files: files.map((file) => file.path), ignoredFiles: ignored, notes, locations, trust };
}

/** The schema's parse, through its generated check: zod is loaded only for a value that fails it, to throw. */
async function parseSettings(values: Record<string, unknown>): Promise<Settings> {
  const loadSchema = async () => (await import('./settings-schema.js')).Settings;
  const parsed = await safeParseChecked(CHECKS.Settings, values, loadSchema);
  return parsed.success ? parsed.data : (await loadSchema()).parse(values, (await import('../text/in-english.js')).IN_ENGLISH);
}

/**
 * --config or its variable names the file, else the nearest up to the git root (or home, or none above `cwd`: files.ts searchStop). A named file has a project file's limits unless
 * it is the user file: CI passes `--config` a path in the checkout, which a pull request can change as easily as a searched one.
 */
async function projectConfigFile(
  flag: string | undefined,
  variable: string | undefined,
  cwd: string,
  home: string | undefined,
  userPath: string | undefined,
): Promise<Partial<ProjectSearch>> {
  const named = flag ?? variable;
  if (named !== undefined && userPath !== undefined && sameFile(resolve(cwd, named), userPath)) return {};
  if (named !== undefined) return { file: await loadProjectFile(named, cwd, flag !== undefined ? 'flag' : 'env') };
  return findProjectFile(cwd, home);
}

/** Merges layers given highest first; a layer holds only the keys it sets, so presence is the test. */
function firstFound(layers: Layer[]): Layer {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, found] of Object.entries(layer)) if (!Object.hasOwn(merged, key)) merged[key] = found;
  }
  return merged as Layer;
}

function unknownProfile(profile: string, files: ConfigFile[]): ConfigError {
  const known = [...new Set(files.flatMap((file) => [...file.profiles.keys()]))];
  const paths = files.map((file) => file.path).join(', ');
  const where = files.length === 0 ? 'no config file was found' : `config files read: ${paths}`;
  const defined = known.length === 0 ? 'none is defined' : `defined: ${known.join(', ')}`;
  return new ConfigError(`unknown profile "${profile}" (${defined}; ${where})`);
}

/** The repository a command works on; without one, a ConfigError that says every way to give it. */
export function requireRepo(settings: Settings): Repo {
  if (settings.repo) return settings.repo;
  throw new ConfigError(`no repository: pass -R owner/name, set ${envName('repo')}, or run inside a git checkout with an origin remote`);
}
