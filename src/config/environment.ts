// The second layer: environment variables, from the environment resolveSettings is given (never process.env, so
// tests and embedders decide what mq sees). A bad value was set somewhere else, earlier: a ConfigError naming it.
import { ConfigError } from '../errors.js';
import type { Found, Layer } from './settings.js';
import { ROWS } from './setting-rows.js';

export type Env = Record<string, string | undefined>;

/** CLI.md: an empty variable counts as unset (`MQ_REPO= mq status` must not mean "no repository"). */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function environmentLayer(env: Env): Layer {
  const found: Record<string, Found<unknown>> = {};
  for (const row of ROWS) {
    if (row.env === undefined) continue;
    if (row.key === 'token') {
      // The token's variables are read as they are: the token is checked when a request needs it.
      const name = [row.env, row.fallbackEnv].find((each) => each !== undefined && envValue(env, each) !== undefined);
      if (name !== undefined) found.token = { value: { kind: 'env', name, value: envValue(env, name) }, origin: `env ${name}` };
      continue;
    }
    const text = envValue(env, row.env);
    if (text === undefined || row.check === undefined) continue;
    // As on the command line (argv-values.ts): Linux hands the environment over decoded, a byte that is not
    // UTF-8 as U+FFFD; such a value is refused, never used with the byte replaced (a branch, a repository).
    if (text.includes('\uFFFD'))
      throw new ConfigError(`${row.env}: "${(row.quote ?? String)(text)}" is not valid UTF-8 (\uFFFD marks a byte that is not); set it in UTF-8`);
    const checked = row.check(text);
    if (!checked.ok) throw new ConfigError(`${row.env}: "${(row.quote ?? String)(text)}" ${checked.problem}`);
    found[row.key] = { value: checked.value, origin: `env ${row.env}` };
  }
  const layer: Layer = found;
  return layer;
}
