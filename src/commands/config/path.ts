// mq config path: the config files in effect, and where `mq config init` would write the ones that are missing.
// It is where doctor sends a person whose config file is broken: then it shows the paths all the same, with
// what is wrong with the broken file, and exits 0 (it did its job; `mq config show` and doctor fail on it).
import { join } from 'node:path';
import { NEW_CONFIG_FILE, projectFileDir } from '../../config/locations.js';
import { NO_HOME } from '../../config/home.js';
import { envName } from '../../config/setting-rows.js';
import { UsageError } from '../../errors.js';
import type { Context } from '../../command-kit/context.js';
import type { Invocation, ResultWork, Words } from '../../command-kit/invocation.js';
import type { CommandResult, ConfigFilePath } from '../../model/result.js';

const NAMED_BY = { flag: '--config', env: envName('config'), search: 'search' } as const;

interface ConfigPathInput {
  /** --config: the survey of a broken file reads it as resolve.ts would have. */
  config?: string;
}

/** `mq config path` */
export function parseConfigPath(words: Words): Invocation {
  const invocation: ResultWork<ConfigPathInput> = {
    mode: 'result',
    input: words.flags.config === undefined ? {} : { config: words.flags.config },
    handler: configPath,
    // A bad flag or variable is still a usage error (exit 2); a file that does not load is what this command shows.
    unresolved: (input, error, where) => {
      if (error instanceof UsageError) throw error;
      return unresolvedPaths(input, where);
    },
  };
  return invocation;
}

export async function configPath(_input: ConfigPathInput, ctx: Context): Promise<CommandResult> {
  const { project, user, userDir } = ctx.resolved.locations;
  return pathsResult(
    ctx.cwd,
    project && { path: project.path, namedBy: project.namedBy },
    user === undefined ? undefined : { path: user },
    userDir,
    ctx.resolved.ignoredFiles,
  );
}

/** The settings did not resolve (a broken file, most often): the files as a search finds them, each judged alone. */
async function unresolvedPaths(input: ConfigPathInput, where: { cwd: string; env: Record<string, string | undefined> }): Promise<CommandResult> {
  const { surveyConfigFiles } = await import('../../config/survey.js');
  const survey = await surveyConfigFiles({ ...where, ...input });
  return pathsResult(where.cwd, survey.project, survey.user, survey.userDir, survey.ignored);
}

async function pathsResult(
  cwd: string,
  project: { path: string; namedBy: keyof typeof NAMED_BY; broken?: string } | undefined,
  user: { path: string; broken?: string } | undefined,
  userDir: string | undefined,
  ignored: string[],
): Promise<CommandResult> {
  const brokenOf = (file: { broken?: string } | undefined): Partial<ConfigFilePath> => (file?.broken === undefined ? {} : { broken: file.broken });
  return {
    kind: 'configPaths',
    project: project
      ? { path: project.path, exists: true, namedBy: NAMED_BY[project.namedBy], ...brokenOf(project) }
      : { path: join(await projectFileDir(cwd), NEW_CONFIG_FILE.project), exists: false, namedBy: null },
    user:
      userDir === undefined
        ? { path: `$XDG_CONFIG_HOME/mq/${NEW_CONFIG_FILE.user}`, exists: false, broken: `there is ${NO_HOME}, or XDG_CONFIG_HOME to one` }
        : { path: user?.path ?? join(userDir, NEW_CONFIG_FILE.user), exists: user !== undefined, ...brokenOf(user) },
    ignored,
  };
}
