// The resolved settings (their schema is settings-schema.ts). The layers (flags, environment, config files, git)
// each supply some of these values; resolve.ts fills the rest from the schema's defaults.
import type { GlobalFlags } from './setting-rows.js';
import type { Settings, TokenSource } from './settings-schema.js';

export type { GlobalFlags, Settings, TokenSource };

export interface ResolveInput {
  flags: GlobalFlags;
  env: Record<string, string | undefined>;
  cwd: string;
  stdoutIsTTY: boolean;
  /** Defaults to $HOME from `env` (when an absolute path), then the operating system's record of it. */
  homeDir?: string;
}

export interface ResolvedSettings {
  settings: Settings;
  /** Setting key → where its value came from: 'flag --repo', 'env MQ_…', 'file /abs/.mqrc (profile ci)', 'git remote origin', 'default'. */
  origins: Record<string, string>;
  /** The config files read, project file first. */
  files: string[];
  /** Executable config files the search passed over (mq never loads them): each is warned about. */
  ignoredFiles: string[];
  /** What mq read otherwise than as written (a branch's full ref as the branch): each is said on stderr. */
  notes: string[];
  /** Which file is which, and where the user file lives: for `mq config path` and `mq config init`. */
  locations: ConfigLocations;
  /** What decides whether the token may go to settings.apiUrl (destination.ts). */
  trust: ApiUrlTrust;
}

export interface ApiUrlTrust {
  /** The file and key that chose the API URL, when a config file did. */
  apiUrlFrom?: FileKey;
  /** The API URLs the user config lets a project file choose. */
  trustedApiUrls: string[];
  /** The user config file, or where it would be: where trustedApiUrls goes. */
  userConfigPath: string;
}

interface FileKey {
  path: string;
  kind: 'project' | 'user';
  /** As written in the file: `apiUrl`, `profiles.ci.apiUrl`, `mq.apiUrl` in package.json. */
  key: string;
}

export interface ConfigLocations {
  /** The project file read, and what named it: --config, its variable, or the search up from the working directory. */
  /** `asGiven`: the path as --config or its variable wrote it (relative to the working directory, if it was). */
  project?: { path: string; namedBy: 'flag' | 'env' | 'search'; asGiven?: string };
  /** The user file read, if there is one. */
  user?: string;
  /** Where the user file lives, or would: $XDG_CONFIG_HOME/mq, else ~/.config/mq; undefined without a home (config/home.ts). */
  userDir?: string;
}

/** A value some layer supplied, and the words that say where it came from. */
export interface Found<T> {
  value: T;
  origin: string;
  /** Which file and key supplied the value, when a config file did: the API URL's trust depends on it. */
  file?: FileKey;
}

/** One layer's contribution: the settings it has an opinion on. Colour is worked out apart (see color.ts). */
export type Layer = { [K in Exclude<keyof Settings, 'color'>]?: Found<NonNullable<Settings[K]>> };
