// mq's cache folder, $XDG_CACHE_HOME/mq or ~/.cache/mq (a relative XDG path ignored): the v2 ids the adapter looked
// up, and the request budget each v2 key shares (api/budget-file.ts).
import { isAbsolute, join } from 'node:path';
import { envValue } from './environment.js';
import { homeDir } from './home.js';

/** The folder; undefined without a home (what would be kept there is then kept for the process only). */
export function cacheDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const xdg = envValue(env, 'XDG_CACHE_HOME');
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'mq');
  const home = homeDir(env);
  return home === undefined ? undefined : join(home, '.cache', 'mq');
}

/** Where the v2 ids are kept; undefined without a home (ids are then kept for the process only). */
export function idCacheFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const dir = cacheDir(env);
  return dir && join(dir, 'v2-ids.json');
}
