// Each of mq's settings as one row: key, flag, environment variable, config file key, check, help and default. All
// that names a setting is made from these rows (flags, environment, the config file and its JSON Schema, `mq config
// show`, the global flags, `mq help config|environment`), so a variable is spelled out in this file only (`envName`).
import { shownUrl } from '../text/urls.js';
import { V2_KEY_PREFIX } from '../model/vocabulary.js';
import type { FlagKey, FlagSpec, FlagValue } from '../argv-spec.js';
import { type Api, chooseApi } from './api-choice.js';
import { formatDuration } from './duration.js';
import { formatRepo } from './repo.js';
import type { Settings, TokenSource } from './settings-schema.js';
import { checkBranch } from './branch-name.js';
import { API_CHOICES, DEFAULT_API_URL, DEFAULT_TARGET_BRANCH, OUTPUT_FORMATS } from './defaults.js';
import { checkApi, checkApiUrl, checkOutput, checkRepo, checkSwitch, checkTimeout, checkWord, type Checked } from './values.js';

export interface SettingRow {
  /** Its key in the resolved settings, or a key of its own: `config` (the file named), the file-only keys. */
  key: keyof Settings | 'config' | 'tokenCommand' | 'tokenFile' | 'trustedApiUrls' | 'profiles' | '$schema';
  /** Its global flag, as commander writes it. */
  flag?: string;
  /**
   * Given as a flag, it goes along in every command mq prints for the user to run (command-kit/uncertain.ts): it
   * decides which queue or service that command reaches, or whether mq may reach it. The environment and the files
   * hold where the command is pasted; output flags and the token (never a flag) do not go along.
   */
  carried?: true;
  /** Its environment variable. */
  env?: string;
  /** The variable read when `env` is not set. */
  fallbackEnv?: string;
  /** What a variable that turns the setting on is set to (`MQ_INSECURE=1`), shown in the help. */
  envOn?: string;
  /** Its key in a config file, if a file may set it. */
  file?: string;
  /** Only the user config file may hold it: a project file is what a pull request says. */
  userOnly?: boolean;
  /** A switch that sets it to one value: `--json` for `--output json`. */
  shorthand?: { flag: string; help: string };
  /** The values the flag takes, for help and completion. */
  choices?: readonly string[];
  /** What the text of a flag or variable is checked with; without one, a layer of its own reads it. */
  check?: (text: string) => Checked<unknown>;
  /** How the text is quoted in an error: a URL's password never (credentials are never echoed). */
  quote?: (text: string) => string;
  /** What it is, in a phrase that reads after a flag, a variable or a config key. */
  help: string;
  /** The default, as a person would write it. */
  default?: string;
  /** Its value as `mq config show` prints it (never the token's). */
  show?: (settings: Settings) => string | undefined;
}

/** In `mq config show`'s order, which is the settings' own; then the keys only a config file holds. */
const SETTING_ROWS = [
  {
    key: 'apiUrl',
    carried: true,
    flag: '--api-url <url>',
    env: 'MQ_API_URL',
    file: 'apiUrl',
    check: checkApiUrl,
    quote: shownUrl,
    help: "the service's root URL; a trailing /v1 or /v2 is dropped",
    default: DEFAULT_API_URL,
    show: (settings) => settings.apiUrl,
  },
  {
    key: 'api',
    carried: true,
    flag: '--api <api>',
    env: 'MQ_API',
    file: 'api',
    choices: API_CHOICES,
    check: checkApi,
    help: `which API to speak: v1, v2, or auto (a token beginning ${V2_KEY_PREFIX} is a v2 API key)`,
    default: 'auto',
    show: describeApi,
  },
  {
    key: 'token',
    env: 'MQ_TOKEN',
    fallbackEnv: 'TRUNK_API_TOKEN',
    file: 'token',
    userOnly: true,
    help: 'the API token',
    show: (settings) => describeToken(settings.token),
  },
  {
    key: 'repo',
    carried: true,
    flag: '-R, --repo <[host/]owner/name>',
    env: 'MQ_REPO',
    file: 'repo',
    check: checkRepo,
    quote: shownUrl,
    help: 'repository: [host/]owner/name, or in a file {host, owner, name}',
    default: 'the git remote origin',
    show: (settings) => settings.repo && formatRepo(settings.repo),
  },
  {
    key: 'targetBranch',
    carried: true,
    flag: '-b, --branch <name>',
    env: 'MQ_BRANCH',
    file: 'targetBranch',
    check: checkBranch,
    // Its control characters shown as escapes (\t), the one a refusal names.
    quote: (text) => JSON.stringify(text).slice(1, -1),
    help: "the queue's target branch",
    default: DEFAULT_TARGET_BRANCH,
    show: (settings) => settings.targetBranch,
  },
  {
    key: 'org',
    carried: true,
    flag: '--org <slug>',
    env: 'MQ_ORG',
    file: 'org',
    check: (text: string) => checkWord(text, 'org'),
    help: 'organization slug, for test-details and flaky',
    show: (settings) => settings.org,
  },
  {
    key: 'profile',
    carried: true,
    flag: '--profile <name>',
    env: 'MQ_PROFILE',
    check: (text: string) => checkWord(text, 'profile'),
    help: 'config profile to apply: profiles.<name> of a config file',
    show: (settings) => settings.profile,
  },
  {
    key: 'config',
    carried: true,
    flag: '--config <file>',
    env: 'MQ_CONFIG',
    help: 'config file to use instead of searching',
  },
  {
    key: 'output',
    flag: '-o, --output <format>',
    file: 'output',
    shorthand: { flag: '--json', help: 'print one JSON document (same as -o json)' },
    choices: OUTPUT_FORMATS,
    check: checkOutput,
    help: 'output format: table or json',
    default: 'table',
    show: (settings) => settings.output,
  },
  {
    key: 'timeoutMs',
    flag: '--timeout <duration>',
    env: 'MQ_TIMEOUT',
    file: 'timeout',
    check: checkTimeout,
    help: 'request timeout: 500ms, 30s, 2m, 1m30s, or in a file a number of seconds',
    default: '30s',
    show: (settings) => formatDuration(settings.timeoutMs),
  },
  {
    key: 'insecure',
    carried: true,
    flag: '--insecure',
    env: 'MQ_INSECURE',
    envOn: '1',
    check: checkSwitch,
    help: 'allow sending the token over plain http to a host that is not loopback',
    show: (settings) => (settings.insecure ? 'on' : 'off'),
  },
  {
    key: 'tokenCommand',
    file: 'tokenCommand',
    userOnly: true,
    help: 'a shell command whose output (trimmed) is the token, run only when a request needs it',
  },
  {
    key: 'tokenFile',
    file: 'tokenFile',
    userOnly: true,
    help: 'a file holding the token (relative to the config file; ~ is your home)',
  },
  {
    key: 'trustedApiUrls',
    file: 'trustedApiUrls',
    userOnly: true,
    help: "API URLs a project file's apiUrl may name and receive the token",
  },
  {
    key: 'color',
    flag: '--no-color',
    env: 'NO_COLOR',
    help: 'no colour',
    show: (settings) => (settings.color ? 'on' : 'off'),
  },
  {
    key: 'profiles',
    file: 'profiles',
    help: 'named sets of the keys above (no token, no trustedApiUrls), chosen with --profile or MQ_PROFILE',
  },
  {
    key: '$schema',
    file: '$schema',
    help: "for editors: the file's JSON Schema (mq config init writes it; mq ignores it)",
  },
] as const satisfies readonly SettingRow[];

/** The rows as plain rows, for code that reads any of them. */
export const ROWS: readonly SettingRow[] = SETTING_ROWS;

/** One row with its own types: its key, flag and variable as literals, its check's value. */
export type Row = (typeof SETTING_ROWS)[number];
export type RowKey = Row['key'];
type WithFlag = Extract<Row, { flag: string }>;
type WithEnv = Extract<Row, { env: string }>;

/** The keys a config file may hold, each a row's. */
export type FileKey = Extract<Row, { file: string }>['file'];

function settingRow(key: RowKey): SettingRow {
  return ROWS.find((row) => row.key === key)!;
}

/** The variable of the setting `K`, as a type: what `mq config path --json` says named the file. */
export type EnvOf<K extends WithEnv['key']> = Extract<WithEnv, { key: K }>['env'];

/** The variable a setting is read from: `envName('timeoutMs')` is MQ_TIMEOUT. */
export function envName<K extends WithEnv['key']>(key: K): EnvOf<K> {
  return settingRow(key).env as EnvOf<K>;
}

/** Every variable a setting is read from: its own, and the one read in its place (`MQ_TOKEN`, `TRUNK_API_TOKEN`). */
export function envVariables(key: WithEnv['key']): string[] {
  const row = settingRow(key);
  return row.fallbackEnv === undefined ? [row.env!] : [row.env!, row.fallbackEnv];
}

/** A setting's variable and the one read in its place: `MQ_TOKEN (or TRUNK_API_TOKEN)`. */
export function envNames(key: WithEnv['key']): string {
  const row = settingRow(key);
  return row.fallbackEnv === undefined ? row.env! : `${row.env} (or ${row.fallbackEnv})`;
}

/** A flag as a person names it: `-R/--repo` for `-R, --repo <[host/]owner/name>`. */
function namesOf(flag: string): string {
  return flag.replace(/ [<[].*$/, '').replace(', ', '/');
}

/** `--api-url` from `--api-url <url>`: how an error names the flag. */
export function longFlag(flag: string): string {
  return /--[\w-]+/.exec(flag)![0];
}

/** `-R` from `-R, --repo <[host/]owner/name>`, `--api-url` from `--api-url <url>`: how a printed command gives the flag. */
export function shortestFlag(flag: string): string {
  return /^-\w(?=,)/.exec(flag)?.[0] ?? longFlag(flag);
}

/** A row whose flag goes along in the commands mq prints for the user to run (SettingRow.carried). */
export type CarriedRow = Extract<Row, { carried: true }>;

/** The rows whose flags go along, in the settings' order. */
export const CARRIED_ROWS: readonly CarriedRow[] = SETTING_ROWS.filter((row): row is CarriedRow => 'carried' in row && row.carried === true);

/** What commander reads for the setting flags, by commander's name: `{ apiUrl?: string; insecure?: boolean; … }`. */
export type SettingFlags = { readonly [R in WithFlag as FlagKey<R['flag']>]?: FlagValue<{ flags: R['flag']; description: string }> };

type Shorthands = { readonly [R in Extract<Row, { shorthand: object }> as FlagKey<R['shorthand']['flag']>]?: boolean };

/** What commander hands over for the global flags that are settings; undefined means not given. */
export type GlobalFlags = SettingFlags & Shorthands;

/** The global flags of the settings, for the command table: each with its help, variable and default. */
export const SETTING_FLAGS: readonly FlagSpec[] = ROWS.flatMap((row): FlagSpec[] => {
  if (row.flag === undefined) return [];
  const env = row.env === undefined ? [] : [`env ${row.env}${row.envOn === undefined ? '' : `=${row.envOn}`}`];
  const facts = [...env, ...(row.default === undefined ? [] : [`default: ${row.default}`])];
  const description = facts.length === 0 ? row.help : `${row.help} (${facts.join('; ')})`;
  const shorthand = row.shorthand === undefined ? [] : [{ flags: row.shorthand.flag, description: row.shorthand.help }];
  return [{ flags: row.flag, description, ...(row.choices && { choices: row.choices }) }, ...shorthand];
});

/** `mq help environment`'s rows: each variable with what it sets and the flag that wins over it. */
export function environmentHelp(): [string, string][] {
  return ROWS.flatMap((row): [string, string][] => {
    if (row.env === undefined) return [];
    const flag = row.flag === undefined ? ' (never a flag)' : ` (flag ${namesOf(row.flag)})`;
    const on = row.envOn === undefined ? '' : `${row.envOn}: `;
    const fallback: [string, string][] = row.fallbackEnv === undefined ? [] : [[row.fallbackEnv, `${row.help}, when ${row.env} is not set`]];
    return [[row.env, `${on}${row.help}${flag}`], ...fallback];
  });
}

/**
 * `mq help config`'s rows: each config file key with what it holds.
 * @public help/topics.ts takes it from a lazily imported module, which knip 5 does not follow.
 */
export function configKeysHelp(): [string, string][] {
  return ROWS.flatMap((row): [string, string][] => (row.file === undefined ? [] : [[row.file, fileKeyHelp(row)]]));
}

function fileKeyHelp(row: SettingRow): string {
  const only = row.userOnly ? 'user file only: ' : '';
  return `${only}${row.help}${row.default === undefined ? '' : ` (default: ${row.default})`}`;
}

/** What an editor shows over a config file key (the JSON Schema's description): the key, its default, variable and flag. */
export function fileKeyDescription(file: FileKey): string {
  const row = ROWS.find((r) => r.file === file)!;
  const text = fileKeyHelp(row);
  const also = [...(row.env === undefined ? [] : [`env ${row.env}`]), ...(row.flag === undefined ? [] : [`flag ${namesOf(row.flag)}`])];
  const sentence = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  return also.length === 0 ? sentence(text) : `${sentence(text)} ${sentence(also.join(', '))}`;
}

/** The token as the settings hold it, where it is at hand: a token from a command or a file is not read for it. */
function tokenAtHand(settings: Settings): string | undefined {
  return settings.token?.kind === 'env' || settings.token?.kind === 'config' ? settings.token.value : undefined;
}

/** The API these settings speak, as far as known without reading a token from a command or a file (v1 then). */
export function apiAtHand(settings: Settings): Api {
  return chooseApi(settings.api, tokenAtHand(settings), '').api;
}

/** The setting, and with `auto` the API a token at hand chooses (a token from a command or a file is not read for it). */
function describeApi(settings: Settings): string {
  const token = tokenAtHand(settings);
  if (settings.api !== 'auto' || token === undefined) return settings.api;
  const chosen = chooseApi('auto', token, '');
  // Its first words: the rest (which kind of credential that is) is doctor's; a value is never cut on a terminal,
  // and a long one leaves config show's table with every other value.
  return `auto: ${chosen.api} (${chosen.because.replace(/ \(.*\)$/, '')})`;
}

/** Whether and how the token is set: its value is never read here, and a tokenCommand is not run. */
function describeToken(token: TokenSource | undefined): string | undefined {
  if (token === undefined) return undefined;
  // A command line is left out too: some people do write `echo <token>`.
  return token.kind === 'file' ? `set (tokenFile ${token.path})` : token.kind === 'command' ? 'set (tokenCommand)' : 'set';
}
