// mq's cache folder, $XDG_CACHE_HOME/mq or ~/.cache/mq (a relative XDG path ignored): the v2 ids the adapter looked
// up, and the request budget each v2 key shares (api/budget-file.ts).
import { systemHomeDir } from './home.js';
import { isAbsolute, join } from 'node:path';

/** The folder; undefined without a home (what would be kept there is then kept for the process only). */
export function cacheDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'mq');
  let home = env.HOME;
  try {
    home ||= systemHomeDir();
  } catch {
    return undefined;
  }
  return home ? join(home, '.cache', 'mq') : undefined;
}

/** Where the v2 ids are kept; undefined without a home (ids are then kept for the process only). */
export function idCacheFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const dir = cacheDir(env);
  return dir && join(dir, 'v2-ids.json');
}
