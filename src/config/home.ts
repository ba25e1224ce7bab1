// The home directory, under which the user's config and cache folders are. An empty or relative $HOME is no home:
// taken as it is, `.config/mq/config.yaml` would be a path in the working directory, and a checkout's file of that
// name read as the user's own (its tokenCommand run). The system's record of the user is asked then.
import { isAbsolute } from 'node:path';
import { envValue, type Env } from './environment.js';

/** Why there is no home, after "there is": what to set. */
export const NO_HOME = 'no home directory (HOME is empty or not an absolute path, and the system records none): set HOME to one';

/** $HOME when it is an absolute path, else the system's record of the user's home; undefined without either. */
export function homeDir(env: Env, systemHome: () => string = systemHomeDir): string | undefined {
  const home = envValue(env, 'HOME');
  if (home !== undefined && isAbsolute(home)) return home;
  try {
    const system = systemHome();
    return isAbsolute(system) ? system : undefined;
  } catch {
    // No entry for this user in the system's records (a container run under a bare uid).
    return undefined;
  }
}

/**
 * The home the system records for the user, $HOME aside (os.homedir() would answer $HOME itself). node:os is loaded
 * then only: loading it (its functions made at load) was a share of every start, where HOME is nearly always set.
 */
function systemHomeDir(): string {
  return process.getBuiltinModule('node:os').userInfo().homedir;
}
