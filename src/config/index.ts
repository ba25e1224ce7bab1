// The settings layer: flags + environment + config files + git → one validated Settings object.
export {
  Settings,
  type GlobalFlags,
  type ResolveInput,
  type ResolvedSettings,
  type TokenSource,
} from './settings.js';
export { resolveSettings } from './resolve.js';
export { readToken } from './token.js';
export { parseRepo, requireRepo } from './repo.js';
export { parseDuration } from './duration.js';
export { currentGitBranch } from './git.js';
export { configEntries, type ConfigEntry } from './entries.js';
