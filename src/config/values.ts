// What each setting accepts, wherever written: a check answers the value or a phrase ("must be …"), which the layer
// that asked makes its own error (a UsageError for a flag; a ConfigError naming the variable, or the file and key).
import { listOfChoices } from '../argv-values.js';
import type { Repo } from '../model/repository.js';
import { durationMs, DURATION_HINT } from './duration.js';
import { DEFAULT_HOST, repoFrom, REPO_HINT } from './repo.js';
import { API_CHOICES, type ApiChoice, OUTPUT_FORMATS, type OutputFormat } from './defaults.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const problem = (text: string): Checked<never> => ({ ok: false, problem: text });

export const PROBLEMS = {
  apiUrl: "must be an http(s) URL, the service's root, like https://api.trunk.io",
  repo: `must be ${REPO_HINT} or {host, owner, name}`,
  targetBranch: 'must be a branch name, like main',
  org: "must be an organization slug, like acme (the organization's name in the app's URLs)",
  profile: 'must be a profile name',
  output: `must be ${listOfChoices(OUTPUT_FORMATS.map((format) => `"${format}"`))}`,
  api: `must be ${listOfChoices(API_CHOICES.map((choice) => `"${choice}"`))}`,
  timeout: `must be ${DURATION_HINT}`,
  tokenCommand: 'must be a shell command',
  tokenFile: 'must be a file path',
  token: 'must be a non-empty string',
  profiles: 'must be a map from profile names to settings',
  trustedApiUrls: 'must be a list of http(s) URLs',
} as const;

/** The service's root, a trailing /v1 or /v2 (the credential picks it) and slashes dropped: `https://mq.example.com/api/v1` is `…/api`. */
export function checkApiUrl(text: string): Checked<string> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return problem(badPort(text.trim()) ?? PROBLEMS.apiUrl);
  }
  if (!['http:', 'https:'].includes(url.protocol)) return problem(PROBLEMS.apiUrl);
  if (url.search || url.hash) return problem("must not have a query or fragment: the service's root, like https://api.trunk.io");
  // It is shown by `mq config show` and in errors; a token has its own setting.
  if (url.username || url.password) return problem('must not contain a user name or password');
  if (url.port === '0') return problem(badPort(`${url.protocol}//${url.host}`)!);
  const withoutSlashes = (path: string) => path.replace(/\/+$/, '');
  const path = withoutSlashes(withoutSlashes(url.pathname).replace(/\/v[12]$/, ''));
  // Dropped once, a version left over would be taken as the root's own path: every request would miss.
  const more = /(?:\/v[12])+$/.exec(path)?.[0];
  if (more !== undefined) {
    const versions = `${more}${withoutSlashes(url.pathname.slice(path.length))}`;
    return problem(`ends in more than one API version (${versions}): give the service's root, like https://api.trunk.io (one /v1 or /v2 after it is dropped)`);
  }
  return ok(`${url.protocol}//${url.host}${path}`);
}

/** What is wrong with a URL's port, when it is out of range: `new URL` says only that the URL is invalid. */
function badPort(text: string): string | undefined {
  const port = /^https?:\/\/(?:[^/?#@]*@)?(?:\[[^\]/?#]*\]|[^/?#:[]*):(\d+)(?:[/?#]|$)/i.exec(text)?.[1];
  if (port === undefined || (Number(port) >= 1 && Number(port) <= 65_535)) return undefined;
  return `has the port ${port}, which is out of range: a port is 1 to 65535`;
}

const oneOf =
  <T extends string>(choices: readonly T[], phrase: string) =>
  (text: string): Checked<T> =>
    (choices as readonly string[]).includes(text) ? ok(text as T) : problem(phrase);
export const checkApi = oneOf<ApiChoice>(API_CHOICES, PROBLEMS.api);
export const checkOutput = oneOf<OutputFormat>(OUTPUT_FORMATS, PROBLEMS.output);

/** A string is a duration; a number (config files only) is seconds. */
export function checkTimeout(raw: string | number): Checked<number> {
  const checked = durationMs(String(raw));
  if (!checked.ok) return checked;
  return checked.value > 0 ? checked : problem('must be longer than zero');
}

export function checkRepo(raw: string | { host?: string; owner: string; name: string }): Checked<Repo> {
  if (typeof raw !== 'string') return checkRepo(`${raw.host ?? DEFAULT_HOST}/${raw.owner}/${raw.name}`);
  return repoFrom(raw);
}

/** An on/off variable (--insecure's): 1, true, yes or on; 0, false, no or off. */
export function checkSwitch(text: string): Checked<boolean> {
  const word = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(word)) return ok(true);
  if (['0', 'false', 'no', 'off'].includes(word)) return ok(false);
  return problem('must be 1 (or true) to turn it on, 0 (or false) to turn it off');
}

/** Organization slugs, profile names: one word. */
export function checkWord(text: string, what: 'org' | 'profile'): Checked<string> {
  return text !== '' && !/\s/.test(text) ? ok(text) : problem(PROBLEMS[what]);
}
