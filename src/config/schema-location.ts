// Where a file `mq config init` writes points editors for its JSON Schema (dist/mqrc.schema.json, shipped): a project
// file is committed, so only the mq in the project's own node_modules; a user file, the running install's copy.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ConfigFileKind } from './config-file.js';
import { MODULE_NAME } from './config-names.js';
import { upwards } from './git.js';

/** The schema's place inside the package. */
export const CONFIG_SCHEMA_FILE = 'dist/mqrc.schema.json';

/** The install's schema: the nearest `dist/mqrc.schema.json` above this module (bundle, or a checkout's tests); undefined when the build lacked it. */
export function installedSchemaFile(moduleUrl: string = import.meta.url): string | undefined {
  return [...upwards(dirname(fileURLToPath(moduleUrl)))].map((dir) => join(dir, CONFIG_SCHEMA_FILE)).find((path) => existsSync(path));
}

/** `$schema` of a new file: `./node_modules/mq/…` where mq is a dependency, the install's URL in the user file, else none (no local path leaks). */
export function schemaReference(path: string, kind: ConfigFileKind, installed: string | undefined): string | undefined {
  const local = `node_modules/${MODULE_NAME}/${CONFIG_SCHEMA_FILE}`;
  if (kind === 'project') return existsSync(join(dirname(path), local)) ? `./${local}` : undefined;
  return installed === undefined ? undefined : pathToFileURL(installed).href;
}
