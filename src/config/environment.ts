// The second layer: environment variables, from the environment resolveSettings is given (never process.env, so
// tests and embedders decide what mq sees). A bad value was set somewhere else, earlier: a ConfigError naming it.
import { shownUrl } from '../api/redaction.js';
import { ConfigError } from '../errors.js';
import type { Found, Layer } from './settings.js';
import { checkApiUrl, checkRepo, checkSwitch, checkTimeout, checkWord, type Checked } from './values.js';

export type Env = Record<string, string | undefined>;

/** CLI.md: an empty variable counts as unset (`MQ_REPO= mq status` must not mean "no repository"). */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** `quote` shows the value in the error: a URL's password never (CLI.md: credentials are never echoed). */
function take<T>(env: Env, name: string, check: (text: string) => Checked<T>, quote = (t: string) => t): Found<T> | undefined {
  const text = envValue(env, name);
  if (text === undefined) return undefined;
  const checked = check(text);
  if (!checked.ok) throw new ConfigError(`invalid ${name} "${quote(text)}": ${checked.problem}`);
  return { value: checked.value, origin: `env ${name}` };
}

export function environmentLayer(env: Env): Layer {
  const layer: Layer = {};
  const set = <K extends keyof Layer>(key: K, found: Layer[K] | undefined) => {
    if (found !== undefined) layer[key] = found;
  };
  set('apiUrl', take(env, 'MQ_API_URL', checkApiUrl, shownUrl));
  set('repo', take(env, 'MQ_REPO', checkRepo, shownUrl));
  set(
    'targetBranch',
    take(env, 'MQ_BRANCH', (t) => checkWord(t, 'targetBranch')),
  );
  set(
    'org',
    take(env, 'MQ_ORG', (t) => checkWord(t, 'org')),
  );
  set(
    'profile',
    take(env, 'MQ_PROFILE', (t) => checkWord(t, 'profile')),
  );
  set('timeoutMs', take(env, 'MQ_TIMEOUT', checkTimeout));
  set('insecure', take(env, 'MQ_INSECURE', checkSwitch));
  for (const name of ['MQ_TOKEN', 'TRUNK_API_TOKEN']) {
    const value = envValue(env, name);
    if (value !== undefined) {
      layer.token = { value: { kind: 'env', name, value }, origin: `env ${name}` };
      break;
    }
  }
  return layer;
}
