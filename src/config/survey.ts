// Where the config files are when loading failed (doctor sends a person with a broken file to `mq config path`):
// resolve.ts's search, one file at a time, each failure kept beside its file instead of thrown.
import { resolve } from 'node:path';
import { MqError } from '../errors.js';
import { envValue } from './environment.js';
import { executableConfigsIn, findUserFile, loadProjectFile, projectFileIn, sameFile, searchedEntry, searchStop, userConfigDir } from './files.js';
import { homeDir } from './home.js';
import { upwards } from './git.js';
import { envName } from './setting-rows.js';

/** A config file found, and why mq cannot read it when it cannot. */
interface SurveyedFile {
  path: string;
  broken?: string;
}

export interface ConfigSurvey {
  project?: SurveyedFile & { namedBy: 'flag' | 'env' | 'search' };
  user?: SurveyedFile;
  /** Undefined without a home (config/home.ts). */
  userDir?: string;
  /** Executable config files the search passed over. */
  ignored: string[];
}

/** `config`: --config, when given. */
export async function surveyConfigFiles(input: { cwd: string; env: Record<string, string | undefined>; config?: string }): Promise<ConfigSurvey> {
  const cwd = resolve(input.cwd);
  const home = homeDir(input.env);
  const userDir = userConfigDir(envValue(input.env, 'XDG_CONFIG_HOME'), home);
  const user = userDir && (await surveyed(searchedEntry(userDir, 'user') ?? userDir, async () => (await findUserFile(userDir))?.path));
  const named = input.config ?? envValue(input.env, envName('config'));
  const namedBy = input.config !== undefined ? 'flag' : 'env';
  const ignored: string[] = [];
  let project: ConfigSurvey['project'];
  if (named !== undefined) {
    const path = resolve(cwd, named);
    // The user file named by --config is read as the user file (resolve.ts).
    if (!(user && sameFile(path, user.path))) {
      const found = await surveyed(path, async () => (await loadProjectFile(named, cwd, namedBy)).path);
      if (found) project = { ...found, namedBy };
    }
  } else {
    for (const dir of upwards(cwd, await searchStop(cwd, home))) {
      ignored.push(...executableConfigsIn(dir));
      const entry = searchedEntry(dir, 'project');
      if (entry === undefined) continue;
      const found = await surveyed(entry, async () => (await projectFileIn(dir))?.path);
      if (found) {
        project = { ...found, namedBy: 'search' };
        break;
      }
    }
  }
  return { ...(project && { project }), ...(user && { user }), ...(userDir !== undefined && { userDir }), ignored };
}

/** The file `read` finds, or `path` with what is wrong with it; undefined when there is none to read. */
async function surveyed(path: string, read: () => Promise<string | undefined>): Promise<SurveyedFile | undefined> {
  try {
    const found = await read();
    return found === undefined ? undefined : { path: found };
  } catch (error) {
    if (!(error instanceof MqError)) throw error;
    // The message names the file first ("/x/.mqrc.json: not valid JSON"): the path is shown beside it.
    const broken = error.message.startsWith(`${path}: `) ? error.message.slice(path.length + 2) : error.message;
    return { path, broken };
  }
}
