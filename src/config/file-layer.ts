// The layer a config file supplies: its keys, a profile laid over them, and where its token comes from.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ConfigFile, FileValues } from './config-file.js';
import { ConfigError } from '../errors.js';
import { NO_HOME } from './home.js';
import { ROWS } from './setting-rows.js';
import type { Found, Layer, TokenSource } from './settings.js';

/** A file's keys with `profiles.<profile>` laid over them; a profile that sets any token key replaces the file's token source as a whole. */
export function fileLayer(file: ConfigFile, profile: string | undefined, homeDir: string | undefined): Layer {
  const found: Record<string, Found<unknown>> = {};
  const apply = (values: FileValues, origin: string, where: string) => {
    const given: Readonly<Record<string, unknown>> = values;
    // The keys that are settings, each a row's with a check; the token's keys are read below.
    for (const row of ROWS) {
      if (row.file === undefined || row.check === undefined || given[row.file] === undefined) continue;
      const key = `${file.keyPrefix}${where}${row.file}`;
      found[row.key] = { value: given[row.file], origin, file: { path: file.path, kind: file.kind, key } };
    }
    const token = tokenSource(values, origin, file.path, homeDir);
    if (token !== undefined) found.token = { value: token, origin };
  };
  apply(file.values, `file ${file.path}`, '');
  const overlay = profile === undefined ? undefined : file.profiles.get(profile);
  if (overlay) apply(overlay, `file ${file.path} (profile ${profile})`, `profiles.${profile}.`);
  return found;
}

function tokenSource(values: FileValues, origin: string, path: string, homeDir: string | undefined): TokenSource | undefined {
  if (values.token !== undefined) return { kind: 'config', value: values.token, origin };
  if (values.tokenCommand !== undefined) {
    return { kind: 'command', command: values.tokenCommand, origin, cwd: folderOf(path) };
  }
  if (values.tokenFile !== undefined) {
    return { kind: 'file', path: expandPath(values.tokenFile, path, homeDir), origin };
  }
  return undefined;
}

/**
 * The folder a config file's relative paths ($import, tokenFile, tokenCommand's working directory) are read from:
 * that of the file it is, where it is a link (`~/.config/mq/config.yaml` → `~/dotfiles/mq.yaml`), as Node takes a
 * module's relative requires from its real path; its own where it leads nowhere a path names (a pipe as /dev/stdin).
 */
export function folderOf(file: string): string {
  try {
    return dirname(realpathSync(file));
  } catch {
    return dirname(file);
  }
}

/** `~` is the home directory; any other relative path is relative to the config file that names it (folderOf). */
function expandPath(path: string, file: string, homeDir: string | undefined): string {
  const inHome = path === '~' || path.startsWith('~/') || path.startsWith('~\\');
  if (!inHome) return isAbsolute(path) ? path : resolve(folderOf(file), path);
  if (homeDir === undefined) throw new ConfigError(`${file}: "tokenFile" ${path} is in the home directory, and there is ${NO_HOME}`);
  return join(homeDir, path.slice(2));
}
