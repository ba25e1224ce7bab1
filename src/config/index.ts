// The settings layer: flags + environment + config files + git → one validated Settings object.
export type {
  Settings,
  GlobalFlags,
  ResolveInput,
  ResolvedSettings,
  TokenSource,
} from './settings.js';
export { requireRepo, resolveSettings } from './resolve.js';
export { readToken } from './token.js';
export { parseRepo } from './repo.js';
export { parseDuration } from './duration.js';
export { currentGitBranch } from './git.js';
export { configEntries } from './entries.js';
// For `mq config init|path` and `mq help config`: where files are, what they may hold, how one is written.
export { DEFAULT_API_URL, DEFAULT_TARGET_BRANCH, type ConfigLocations } from './settings.js';
export { ConfigFileSchema } from './config-file.js';
export { parseConfigText } from './files.js';
export { PROJECT_SEARCH_PLACES, USER_SEARCH_PLACES } from './config-names.js';
export { repoFromOrigin } from './git.js';
export { configFilesIn, NEW_CONFIG_FILE, projectFileDir } from './locations.js';
export { configFileText, type ConfigText } from './config-text.js';
export { installedSchemaFile, schemaReference } from './schema-location.js';
export { checkApiUrl, checkOutput, checkRepo, checkWord, type Checked } from './values.js';
export { checkBranch } from './branch-name.js';
export { checkTokenDestination, isLoopback } from './destination.js';
export { configKeysHelp, envName, envNames, environmentHelp } from './setting-rows.js';
