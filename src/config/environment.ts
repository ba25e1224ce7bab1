// The second layer: environment variables, from the environment resolveSettings is given (never process.env, so
// tests and embedders decide what mq sees). A bad value was set somewhere else, earlier: a ConfigError naming it.
import { isUnreadable, NOT_UTF8 } from '../argv-values.js';
import { ConfigError } from '../errors.js';
import type { Found, Layer } from './settings.js';
import { ROWS } from './setting-rows.js';

export type Env = Record<string, string | undefined>;

/** An empty variable counts as unset (`MQ_REPO= mq status` must not mean "no repository"). */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function environmentLayer(env: Env): Layer {
  const found: Record<string, Found<unknown>> = {};
  for (const row of ROWS) {
    if (row.env === undefined) continue;
    if (row.key === 'token') {
      // The token's variables are read as they are: the token is checked when a request needs it. One of spaces
      // alone is unset, as an empty one is (the next is tried): it would be sent as no token at all.
      const name = [row.env, row.fallbackEnv].find((each) => each !== undefined && envValue(env, each)?.trim());
      if (name !== undefined) found.token = { value: { kind: 'env', name, value: envValue(env, name) }, origin: `env ${name}` };
      continue;
    }
    const text = envValue(env, row.env);
    if (text === undefined || row.check === undefined) continue;
    // As a word of the command line is (argv-values.ts), but a configuration error: the variable was set earlier.
    if (isUnreadable(text)) throw new ConfigError(`${row.env}: "${(row.quote ?? String)(text)}" ${NOT_UTF8}; set it in UTF-8`);
    const checked = row.check(text);
    if (!checked.ok) throw new ConfigError(`${row.env}: "${(row.quote ?? String)(text)}" ${checked.problem}`);
    found[row.key] = { value: checked.value, origin: `env ${row.env}` };
  }
  return found;
}
