// The names config files go by: shared by the cheap search (files.ts) and the cosmiconfig loader it imports
// lazily (config-loader.ts), so that neither imports the other for them.
export const MODULE_NAME = 'mq';

/** A config file of more is refused unread: settings take a few hundred bytes, and a pipe may never end. */
export const CONFIG_LIMIT = { bytes: 1024 * 1024, what: 'a config file' };

/** The refusal of a file over `limit`. */
export function tooBigMessage(where: string, limit: { bytes: number; what: string }): string {
  return `${where}: too big for ${limit.what} (over ${limit.bytes / 1024 / 1024} MiB)`;
}
export const PROJECT_SEARCH_PLACES = ['package.json', '.mqrc', '.mqrc.json', '.mqrc.yaml', '.mqrc.yml', 'mq.config.json'];
export const USER_SEARCH_PLACES = ['config.json', 'config.yaml', 'config.yml'];

/** cosmiconfig's meta-config files that it would execute (its metaSearchPlaces, less the data ones). */
export const EXECUTABLE_META_CONFIGS = ['.config/config.js', '.config/config.ts', '.config/config.cjs', '.config/config.mjs'];
export const EXECUTABLE_EXTENSIONS = ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts'];

/** Executable names cosmiconfig's defaults would load for `mq`: mq never does (docs/configuration.md#settings), and says so when it meets one. */
export const EXECUTABLE_CONFIG_NAMES = ['.mqrc', 'mq.config'].flatMap((stem) => ['.js', '.cjs', '.mjs', '.ts'].map((ext) => `${stem}${ext}`));

/** The warning for an executable config file the search passed over. */
export function ignoredConfigWarning(path: string): string {
  return `${path} is ignored: mq does not load executable config files, which would run a pull request's code in CI; use .mqrc.json or .mqrc.yaml`;
}
