// The names config files go by: shared by the cheap search (files.ts) and the cosmiconfig loader it imports
// lazily (config-loader.ts), so that neither imports the other for them.
export const MODULE_NAME = 'mq';
export const PROJECT_SEARCH_PLACES = [
  'package.json',
  '.mqrc',
  '.mqrc.json',
  '.mqrc.yaml',
  '.mqrc.yml',
  'mq.config.json',
];
export const USER_SEARCH_PLACES = ['config.json', 'config.yaml', 'config.yml'];

/** cosmiconfig's meta-config files that it would execute (its metaSearchPlaces, less the data ones). */
export const EXECUTABLE_META_CONFIGS = ['.config/config.js', '.config/config.ts', '.config/config.cjs', '.config/config.mjs'];
export const EXECUTABLE_EXTENSIONS = ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts'];
