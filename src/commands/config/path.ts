// mq config path: the config files in effect, and where `mq config init` would write the ones that are missing.
import { join } from 'node:path';
import { NEW_CONFIG_FILE, projectFileDir } from '../../config/index.js';
import { envName } from '../../config/setting-rows.js';
import type { Context } from '../context.js';
import { work, type Invocation } from '../invocation.js';
import type { CommandResult } from '../../model/result.js';

const NAMED_BY = { flag: '--config', env: envName('config'), search: 'search' } as const;

/** `mq config path` */
export function parseConfigPath(): Invocation {
  return work.result({}, configPath);
}

export async function configPath(_input: object, ctx: Context): Promise<CommandResult> {
  const { project, user, userDir } = ctx.resolved.locations;
  return {
    kind: 'configPaths',
    project: project
      ? { path: project.path, exists: true, namedBy: NAMED_BY[project.namedBy] }
      : { path: join(await projectFileDir(ctx.cwd), NEW_CONFIG_FILE.project), exists: false, namedBy: null },
    user: { path: user ?? join(userDir, NEW_CONFIG_FILE.user), exists: user !== undefined },
    ignored: ctx.resolved.ignoredFiles,
  };
}
