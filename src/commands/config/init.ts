// mq config init: writes a project config file (.mqrc.yaml at the git root) or, with --user, the user file.
// Values come from flags, then (on a terminal) answers, then what mq can infer; the token never does: a project
// file is committed, and a token typed into a prompt ends up in shell history and screen recordings alike.
import { chmod, writeFile } from 'node:fs/promises';
import { makeFolder } from '../../folders.js';
import { basename, dirname, join } from 'node:path';
import { checkBranch } from '../../config/branch-name.js';
import { configFileText, type ConfigText } from '../../config/config-text.js';
import { DEFAULT_API_URL, DEFAULT_TARGET_BRANCH } from '../../config/defaults.js';
import { isLoopback } from '../../config/destination.js';
import { NO_HOME } from '../../config/home.js';
import { parseConfigText } from '../../config/files.js';
import { repoFromOrigin } from '../../config/git.js';
import { configFilesIn, NEW_CONFIG_FILE, projectFileDir } from '../../config/locations.js';
import { installedSchemaFile, schemaReference } from '../../config/schema-location.js';
import { checkApiUrl, checkOutput, checkRepo, checkWord, type Checked } from '../../config/values.js';
import { shortRepo } from '../../config/repo.js';
import { envName } from '../../config/setting-rows.js';
import { ConfigError, systemErrorWords, UsageError } from '../../errors.js';
import type { CONFIG_INIT } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { work, type ArgvIo, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { ConfigInitResult } from '../../model/result.js';
import { terminalPrompt, type Prompt } from './prompt.js';

export interface ConfigInitInput {
  scope: 'project' | 'user';
  force: boolean;
  tokenCommand?: string;
  tokenFile?: string;
  /** Questions on the terminal; used only when the context is interactive. */
  prompt?: Prompt;
  /** The running install's JSON Schema of config files, which a user file points editors at. */
  schemaFile?: string;
}

/** `mq config init`: the input from its own flags (the others are global: --repo, --branch, --api-url, --org, --output). */
export function parseConfigInit(words: Words<typeof CONFIG_INIT>, io: ArgvIo): Invocation {
  const opts = words.flags;
  if (opts.tokenCommand !== undefined && opts.tokenFile !== undefined) {
    throw new UsageError('give --token-command or --token-file, not both: the token comes from one place');
  }
  for (const [flag, value] of [
    ['--token-command', opts.tokenCommand],
    ['--token-file', opts.tokenFile],
  ] as const) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} must not be empty`);
    if (value !== undefined && !opts.user) {
      throw new UsageError(
        `${flag} goes in the user config (add --user): a project file, which a pull request can change, may not say how the token is obtained`,
      );
    }
  }
  const input: ConfigInitInput = {
    scope: opts.user ? 'user' : 'project',
    force: Boolean(opts.force),
    tokenCommand: opts.tokenCommand,
    tokenFile: opts.tokenFile,
    prompt: terminalPrompt(io.stdin, io.stderr, io.signal),
    schemaFile: installedSchemaFile(),
  };
  return work.result(input, configInit);
}

const HEADER = {
  project: [
    'mq settings for this repository, written by `mq config init`. Every key: `mq help config`.',
    `No token here, nor how to get one: a pull request can change this file. Set ${envName('token')}, or see mq config init --user.`,
  ],
  user: ['Your own mq settings, written by `mq config init --user`. Every key: `mq help config`.'],
} as const;

export async function configInit(input: ConfigInitInput, ctx: Context): Promise<ConfigInitResult> {
  const prompt = ctx.interactive ? input.prompt : undefined;
  try {
    const { path, replaced } = await target(input, ctx);
    if (prompt) ctx.note(`Writing ${path}. Press Enter to take the value in brackets.`);
    const values = await chooseValues(input, ctx, prompt);
    const schema = schemaReference(path, input.scope, input.schemaFile);
    const text = configFileText(path, values, HEADER[input.scope], schema);
    // The same loader and schema a search uses: what is written is what mq will read back.
    await parseConfigText(path, input.scope, text);
    try {
      makeFolder(dirname(path));
      await writeFile(path, text, { flag: replaced ? 'w' : 'wx', mode: input.scope === 'user' ? 0o600 : 0o644 });
      // A mode is given to a file made, not to one replaced: the user file, which may hold a token, is this user's alone.
      if (input.scope === 'user' && replaced) await chmod(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists(path);
      throw new ConfigError(`cannot write the config file ${path}: ${systemErrorWords(error)}`, { cause: error });
    }
    const token = values.tokenCommand !== undefined ? 'tokenCommand' : values.tokenFile !== undefined ? 'tokenFile' : null;
    if (input.scope === 'project' && values.apiUrl !== undefined) warnUntrusted(values.apiUrl, ctx);
    return { kind: 'configInit', path, scope: input.scope, replaced, values, token, schema: schema ?? null };
  } finally {
    prompt?.close();
  }
}

/** The file to write: the config file already in the directory (only with --force), or a new one. */
async function target(input: ConfigInitInput, ctx: Context): Promise<{ path: string; replaced: boolean }> {
  const { locations } = ctx.resolved;
  const dir = input.scope === 'user' ? locations.userDir : await projectFileDir(ctx.cwd);
  if (dir === undefined) throw new ConfigError(`no folder for the user config file: there is ${NO_HOME}, or XDG_CONFIG_HOME to one`);
  const [existing] = configFilesIn(dir, input.scope);
  if (existing !== undefined && !input.force) throw exists(existing);
  if (existing !== undefined && basename(existing) === 'package.json') {
    const again = 'mq config init';
    throw new UsageError(`${existing} holds mq's settings under its "mq" key: edit them there, or remove the key and run ${again} again`, {
      commands: [again],
    });
  }
  const path = existing ?? join(dir, NEW_CONFIG_FILE[input.scope]);
  const read = locations.project;
  if (input.scope === 'project' && read && read.path !== path) {
    ctx.warn(`${read.path} ${SHADOWS[read.namedBy]}: mq reads it, not ${path}, from here`);
  }
  return { path, replaced: existing !== undefined };
}

/** Why a project file other than the one written is read instead. */
const SHADOWS = { search: 'is nearer to the working directory', flag: 'is named by --config', env: `is named by ${envName('config')}` } as const;

function exists(path: string): UsageError {
  const [force, show] = ['mq config init --force', 'mq config show'];
  return new UsageError(`${path} already exists: ${force} replaces it (${show} shows what it holds)`, { commands: [force, show] });
}

/** One value of the file: its flag, and the question asked on a terminal when the flag is not given. */
interface Source<T> {
  key: 'repo' | 'targetBranch' | 'apiUrl' | 'output' | 'org';
  flag: string;
  /** Undefined: never asked. */
  question?: string;
  /** Offered in the question, and taken without a terminal. */
  suggested?: string;
  check(text: string): Checked<T>;
}

/** Flags, then answers, then inference; a key at mq's default is left out, but a project file always names its queue (repo, targetBranch). */
async function chooseValues(input: ConfigInitInput, ctx: Context, prompt: Prompt | undefined): Promise<ConfigText> {
  const { settings, origins } = ctx.resolved;
  const choose = async <T>(source: Source<T>): Promise<T | undefined> => {
    if (origins[source.key] === `flag ${source.flag}`) return settings[source.key] as T;
    if (prompt && source.question) return prompt.ask(source.question, source.suggested, source.check);
    return source.suggested === undefined ? undefined : unwrap(source.check(source.suggested));
  };
  const project = input.scope === 'project';
  const inferred = project ? await repoFromOrigin(ctx.cwd) : undefined;
  const repo = await choose({
    key: 'repo',
    flag: '--repo',
    ...(project && { question: 'repository (owner/name)', suggested: inferred && shortRepo(inferred) }),
    check: checkRepo,
  });
  // Said, not refused: outside a checkout a file of the other keys is still of use, the repository given apart.
  if (project && repo === undefined) {
    ctx.warn('no repository in it: there is no git remote origin here to infer one from; pass --repo owner/name (with --force to replace the file)');
  }
  const targetBranch = await choose({
    key: 'targetBranch',
    flag: '--branch',
    ...(project && { question: 'target branch', suggested: DEFAULT_TARGET_BRANCH }),
    check: checkBranch,
  });
  const apiUrl = await choose({ key: 'apiUrl', flag: '--api-url', question: 'API URL', suggested: DEFAULT_API_URL, check: checkApiUrl });
  const output = await choose({ key: 'output', flag: '--output', question: 'output (table or json)', suggested: 'table', check: checkOutput });
  const org = await choose({ key: 'org', flag: '--org', check: (text) => checkWord(text, 'org') });

  const values: ConfigText = {};
  if (repo !== undefined) values.repo = shortRepo(repo);
  if (targetBranch !== undefined && (project || targetBranch !== DEFAULT_TARGET_BRANCH)) values.targetBranch = targetBranch;
  if (apiUrl !== undefined && apiUrl !== DEFAULT_API_URL) values.apiUrl = apiUrl;
  if (org !== undefined) values.org = org;
  if (output !== undefined && output !== 'table') values.output = output;
  if (input.tokenCommand !== undefined) values.tokenCommand = input.tokenCommand;
  if (input.tokenFile !== undefined) values.tokenFile = input.tokenFile;
  return values;
}

/** A project file's apiUrl that the user config does not trust will be refused on use: say so now. */
function warnUntrusted(apiUrl: string, ctx: Context): void {
  const { trust } = ctx.resolved;
  if (isLoopback(new URL(apiUrl)) || trust.trustedApiUrls.includes(apiUrl)) return;
  ctx.warn(`mq sends the token to ${apiUrl} from a project file only once trustedApiUrls in ${trust.userConfigPath} lists it`);
}

/** Inferred and default values are mq's own and always valid; a problem here is a bug, not the user's. */
function unwrap<T>(checked: Checked<T>): T {
  if (!checked.ok) throw new Error(`config init: an inferred value ${checked.problem}`);
  return checked.value;
}
