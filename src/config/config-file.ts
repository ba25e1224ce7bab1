// What a config file may say, checked strictly: a typo'd key would otherwise be silently ignored and the user
// left wondering why their setting has no effect. Every problem names the file and the key.
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { formatPath } from '../api/schemas.js';
import { ConfigError } from '../errors.js';
import type { Layer, TokenSource } from './settings.js';
import {
  checkApiUrl,
  checkOutput,
  checkRepo,
  checkTimeout,
  checkWord,
  PROBLEMS,
  type Checked,
} from './values.js';

/** A project file sits in the repository and is committed; the user file lives in the user's home. */
export type ConfigFileKind = 'project' | 'user';

/** Runs a check inside a zod transform, so its phrase becomes the issue's message. */
function via<I, T>(check: (input: I) => Checked<T>) {
  return (input: I, ctx: z.core.$RefinementCtx<I>): T => {
    const checked = check(input);
    if (checked.ok) return checked.value;
    ctx.issues.push({ code: 'custom', message: checked.problem, input });
    return z.NEVER;
  };
}

const text = (message: string) => z.string({ error: message }).regex(/\S/, { error: message });

const fields = {
  apiUrl: z.string({ error: PROBLEMS.apiUrl }).transform(via(checkApiUrl)).optional(),
  repo: z
    .union(
      [z.string(), z.strictObject({ host: z.string().optional(), owner: z.string(), name: z.string() })],
      { error: PROBLEMS.repo },
    )
    .transform(via(checkRepo))
    .optional(),
  targetBranch: z
    .string({ error: PROBLEMS.targetBranch })
    .transform(via((t: string) => checkWord(t, 'targetBranch')))
    .optional(),
  org: z
    .string({ error: PROBLEMS.org })
    .transform(via((t: string) => checkWord(t, 'org')))
    .optional(),
  output: z.string({ error: PROBLEMS.output }).transform(via(checkOutput)).optional(),
  timeout: z.union([z.string(), z.number()], { error: PROBLEMS.timeout }).transform(via(checkTimeout)).optional(),
  tokenCommand: text(PROBLEMS.tokenCommand).optional(),
  tokenFile: text(PROBLEMS.tokenFile).optional(),
};

const SETTINGS_MAP = 'must be a map of settings (key: value)';

export const ProfileSchema = z.strictObject(fields, { error: SETTINGS_MAP });

/** Every key a config file may hold; `token` is refused afterwards in project files. */
export const ConfigFileSchema = z.strictObject(
  {
    ...fields,
    token: text(PROBLEMS.token).optional(),
    profiles: z.record(z.string(), ProfileSchema, { error: PROBLEMS.profiles }).optional(),
  },
  { error: SETTINGS_MAP },
);

type ProfileValues = z.output<typeof ProfileSchema>;
type FileValues = ProfileValues & { token?: string };

export interface ConfigFile {
  path: string;
  kind: ConfigFileKind;
  values: FileValues;
  profiles: Record<string, ProfileValues>;
}

const TOKEN_HELP = 'use tokenCommand or tokenFile, or set MQ_TOKEN';

/**
 * Validates what cosmiconfig loaded from `path`. `keyPrefix` is how keys are reached in the file: 'mq.' in
 * package.json. Throws a ConfigError with one line per problem.
 */
export function validateConfigFile(path: string, kind: ConfigFileKind, content: unknown, keyPrefix = ''): ConfigFile {
  const problems = (lines: string[]) => new ConfigError(lines.map((line) => `${path}: ${line}`).join('\n'));
  const parsed = ConfigFileSchema.safeParse(content);
  if (!parsed.success) throw problems(parsed.error.issues.flatMap((issue) => describeIssue(issue, keyPrefix)));
  const { profiles = {}, ...values } = parsed.data;
  if (kind === 'project' && values.token !== undefined) {
    throw problems([
      `"${keyPrefix}token" is not allowed in a project config file, which is usually committed: ${TOKEN_HELP}`,
    ]);
  }
  const levels: [string, FileValues][] = [['', values]];
  for (const [name, profile] of Object.entries(profiles)) levels.push([`profiles.${name}.`, profile]);
  for (const [where, level] of levels) {
    const tokenKeys = (['token', 'tokenCommand', 'tokenFile'] as const).filter((key) => level[key] !== undefined);
    if (tokenKeys.length > 1) {
      throw problems([`set only one of ${tokenKeys.map((key) => `"${keyPrefix}${where}${key}"`).join(', ')}`]);
    }
  }
  return { path, kind, values, profiles };
}

function describeIssue(issue: z.core.$ZodIssue, keyPrefix: string): string[] {
  const at = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const full = `${keyPrefix}${at === '' ? '' : `${at}.`}${key}`;
      return key === 'token' && at !== ''
        ? `"${full}" is not allowed: a profile cannot hold a token; ${TOKEN_HELP}`
        : `unknown key "${full}"`;
    });
  }
  if (at === '') return [keyPrefix === '' ? SETTINGS_MAP : `"${keyPrefix.slice(0, -1)}" ${SETTINGS_MAP}`];
  return [`"${keyPrefix}${at}" ${issue.message}`];
}

/** The names of the profiles a file defines. */
export function profileNames(file: ConfigFile): string[] {
  return Object.keys(file.profiles);
}

/**
 * The layer a file supplies: its keys, with `profiles.<profile>` laid over them. A profile that sets any token
 * key replaces the file's token source as a whole.
 */
export function fileLayer(file: ConfigFile, profile: string | undefined, homeDir: string): Layer {
  const layer: Layer = {};
  const apply = (values: FileValues, origin: string) => {
    const token = tokenSource(values, origin, file.path, homeDir);
    if (values.apiUrl !== undefined) layer.apiUrl = { value: values.apiUrl, origin };
    if (values.repo !== undefined) layer.repo = { value: values.repo, origin };
    if (values.targetBranch !== undefined) layer.targetBranch = { value: values.targetBranch, origin };
    if (values.org !== undefined) layer.org = { value: values.org, origin };
    if (values.output !== undefined) layer.output = { value: values.output, origin };
    if (values.timeout !== undefined) layer.timeoutMs = { value: values.timeout, origin };
    if (token !== undefined) layer.token = { value: token, origin };
  };
  apply(file.values, `file ${file.path}`);
  const overlay = profile === undefined ? undefined : file.profiles[profile];
  if (overlay) apply(overlay, `file ${file.path} (profile ${profile})`);
  return layer;
}

function tokenSource(values: FileValues, origin: string, path: string, homeDir: string): TokenSource | undefined {
  if (values.token !== undefined) return { kind: 'config', value: values.token, origin };
  if (values.tokenCommand !== undefined) {
    return { kind: 'command', command: values.tokenCommand, origin, cwd: dirname(path) };
  }
  if (values.tokenFile !== undefined) {
    return { kind: 'file', path: expandPath(values.tokenFile, dirname(path), homeDir), origin };
  }
  return undefined;
}

/** `~` is the home directory; any other relative path is relative to the config file that names it. */
export function expandPath(path: string, baseDir: string, homeDir: string = homedir()): string {
  if (path === '~') return homeDir;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homeDir, path.slice(2));
  return isAbsolute(path) ? path : resolve(baseDir, path);
}
