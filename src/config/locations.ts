// Where `mq config init` writes, and what it must not overwrite: the directory a project file belongs in, the
// names of the files a new one is written as, and the config files a directory already holds.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConfigFileKind } from './config-file.js';
import { MODULE_NAME, PROJECT_SEARCH_PLACES, USER_SEARCH_PLACES } from './config-names.js';
import { findGitRoot, isFile } from './git.js';

/** YAML, because a file people edit by hand wants comments; JSON is kept where a JSON file already exists. */
export const NEW_CONFIG_FILE: Record<ConfigFileKind, string> = { project: '.mqrc.yaml', user: 'config.yaml' };

/** The directory a new project file goes in: the git root, where the search stops; outside a checkout, `cwd`. */
export async function projectFileDir(cwd: string): Promise<string> {
  return (await findGitRoot(cwd)) ?? resolve(cwd);
}

/** The config files mq would read in `dir`, in its order (any would shadow a new file beside it); a package.json only with an "mq" key. */
export function configFilesIn(dir: string, kind: ConfigFileKind): string[] {
  const places = kind === 'project' ? PROJECT_SEARCH_PLACES : USER_SEARCH_PLACES;
  return places.map((place) => join(dir, place)).filter((path) => (path.endsWith('package.json') ? hasMqKey(path) : isFile(path)));
}

function hasMqKey(path: string): boolean {
  try {
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof data === 'object' && data !== null && Object.hasOwn(data, MODULE_NAME);
  } catch {
    return false;
  }
}
