// mq sandbox exec: a sandbox for the length of one command, whose environment points mq and the service's own
// clients at it (docs/sandbox.md, "mq sandbox exec"); the command's exit status is exec's.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ConfigError, InterruptedError, systemErrorWords } from '../../errors.js';
import { runningProgram } from '../../own-program.js';
import { signalChild } from '../../process-group.js';
import { apiAtHand, envName, envVariables } from '../../config/setting-rows.js';
import type { Api } from '../../config/api-choice.js';
import { type Invocation, work, type Words } from '../../command-kit/invocation.js';
import type { Context } from '../../command-kit/context.js';
import type { SANDBOX } from './spec.js';
import { type RunningSandbox, type SandboxInput, sandboxOptions, startFromFlags } from './sandbox.js';

/** exec's words: its own flags and, as commander hands them, its parent's (`mq sandbox`'s). */
type ExecWords = Omit<Words<NonNullable<(typeof SANDBOX)['subcommands']>[0]>, 'flags'> & {
  flags: Words<NonNullable<(typeof SANDBOX)['subcommands']>[0]>['flags'] & Words<typeof SANDBOX>['flags'];
};

interface ExecInput {
  sandbox: SandboxInput;
  command: string[];
  exportOnExit?: string;
}

/** `mq sandbox [sandbox flags] exec [--seed FILE] [--export-on-exit FILE] -- <command> [args…]` */
export function parseExec(words: ExecWords): Invocation {
  const flags = words.flags;
  const input: ExecInput = {
    sandbox: sandboxOptions(flags),
    command: words.args[0],
    ...(flags.exportOnExit !== undefined && { exportOnExit: flags.exportOnExit }),
  };
  return work.serve(input, exec);
}

/**
 * What the command is given to find the sandbox: each client's own variables. Every variable mq reads its token
 * from is the sandbox's, so that no real credential reaches the command (nor, through it, the sandbox). mq inside
 * speaks the API the caller's mq speaks (its api setting v2, or a v2 key as its token), given the credential of that API and
 * told which, so that a config file it reads there cannot pair the one API with the other's credential.
 */
function clientEnvironment(sandbox: RunningSandbox, api: Api): Record<string, string> {
  return {
    ...Object.fromEntries(envVariables('apiUrl').map((name) => [name, sandbox.url])),
    ...Object.fromEntries(envVariables('token').map((name) => [name, api === 'v2' ? sandbox.key : sandbox.token])),
    [envName('api')]: api,
    API_URL: `${sandbox.url}/setImpactedTargets`,
    API_TOKEN: sandbox.token,
    TRUNK_BASE_URL: sandbox.url,
    TRUNK_API_KEY: sandbox.token,
    MQ_SANDBOX_URL: sandbox.origin,
    MQ_SANDBOX_KEY: sandbox.key,
  };
}

export async function exec(input: ExecInput, ctx: Context): Promise<number> {
  // Its folder checked before the command runs, which may take long: a state that cannot be kept is said first.
  const exportTo = input.exportOnExit === undefined ? undefined : resolve(ctx.cwd, input.exportOnExit);
  if (exportTo !== undefined) await checkWritable(exportTo);
  const { running: sandbox } = await startFromFlags(input.sandbox, ctx.cwd);
  let own: string | undefined;
  let removeAtExit: (() => void) | undefined;
  // Everything after the start inside: a sandbox left open keeps mq running and its state file locked.
  try {
    own = await ownMqFolder();
    const folder = own;
    // A second Ctrl-C or SIGTERM ends mq at once, past the finally below: the folder goes then too.
    removeAtExit = folder === undefined ? undefined : ctx.onExit?.(() => rmSync(folder, { recursive: true, force: true }));
    ctx.info(`sandbox on ${sandbox.url}; running ${input.command.join(' ')}`);
    const env = { ...process.env, ...clientEnvironment(sandbox, apiAtHand(ctx.resolved.settings)) };
    const status = await run(input.command, own === undefined ? env : firstOnPath(env, own), ctx);
    if (exportTo !== undefined) {
      try {
        await writeFile(exportTo, sandbox.snapshot());
      } catch (error) {
        throw new ConfigError(`cannot write --export-on-exit ${exportTo}: ${systemErrorWords(error)} (the command exited ${status})`, { cause: error });
      }
    }
    return status;
  } finally {
    removeAtExit?.();
    if (own !== undefined) await rm(own, { recursive: true, force: true });
    await sandbox.close();
  }
}

/** A file exec can write at the end: in a folder that exists, and not a folder itself. */
async function checkWritable(file: string): Promise<void> {
  const refuse = (why: string) => new ConfigError(`cannot write --export-on-exit ${file}: ${why}`);
  const folder = await stat(dirname(file)).catch((error: unknown) => {
    throw refuse(`its folder: ${systemErrorWords(error)}`);
  });
  if (!folder.isDirectory()) throw refuse(`${dirname(file)} is not a folder`);
  if ((await stat(file).catch(() => undefined))?.isDirectory()) throw refuse('it is a folder');
}

/**
 * A folder holding an `mq` that runs this mq (this Node, this bin/mq.js), for the command's PATH: a script it
 * runs calls the mq that started the sandbox, of the same version, also where none is installed (mq run from a
 * clone, `node bin/mq.js sandbox exec -- ./test.sh`). None where this process is not bin/mq.js (mq's tests run
 * exec in their own process).
 */
async function ownMqFolder(): Promise<string | undefined> {
  const bin = runningProgram()?.bin;
  if (bin === undefined) return undefined;
  const refuse = (error: unknown) =>
    new ConfigError(
      `cannot make a folder for the command's mq in ${tmpdir()}: ${systemErrorWords(error)} (set ${process.platform === 'win32' ? 'TEMP' : 'TMPDIR'} to a writable folder)`,
      { cause: error },
    );
  const folder = await mkdtemp(join(tmpdir(), 'mq-exec-')).catch((error: unknown) => {
    throw refuse(error);
  });
  try {
    if (process.platform === 'win32') {
      await writeFile(join(folder, 'mq.cmd'), `@"${process.execPath}" "${bin}" %*\r\n`);
    } else {
      const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
      await writeFile(join(folder, 'mq'), `#!/bin/sh\nexec ${quoted(process.execPath)} ${quoted(bin)} "$@"\n`, { mode: 0o755 });
    }
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw refuse(error);
  }
  return folder;
}

/** `env` with `folder` first on its PATH (named Path on Windows, as the environment spells it). */
function firstOnPath(env: NodeJS.ProcessEnv, folder: string): NodeJS.ProcessEnv {
  const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  return { ...env, [key]: env[key] ? `${folder}${delimiter}${env[key]}` : folder };
}

/**
 * Runs the command, its status as a shell gives it (a signal as 128+n). Without a terminal to share, it runs in a
 * process group of its own, killed whole once it exits, so nothing it started outlives it; exec's SIGINT or SIGTERM
 * is passed on (a terminal's Ctrl-C reaches a command in exec's own group by itself).
 */
function run(command: string[], env: NodeJS.ProcessEnv, ctx: Context): Promise<number> {
  const [file, ...args] = command as [string, ...string[]];
  // Stopped while the sandbox started: the abort listener below, added after it, would never hear of it, and the
  // command would run to its end. From here to that listener nothing waits, so no signal falls in between.
  if (ctx.signal.aborted) return Promise.reject(new InterruptedError(`interrupted before ${file} ran: the sandbox stopped`));
  const group = !process.stdin.isTTY;
  const child = spawn(file, args, { stdio: 'inherit', env, cwd: ctx.cwd, detached: group });
  const kill = (signal: NodeJS.Signals) => signalChild(child, group, signal);
  let received: NodeJS.Signals = 'SIGTERM';
  const onSigint = () => {
    received = 'SIGINT';
  };
  // Ahead of the entry's own listener (src/cli.ts), which aborts ctx.signal: onAbort must know the signal was SIGINT.
  process.prependListener('SIGINT', onSigint);
  const onAbort = () => {
    if (group || received !== 'SIGINT') kill(received);
  };
  // A second signal ends mq at once (src/cli.ts), past the promise below: the command, and in a group of its own
  // all it started, are killed then, so that nothing outlives exec (a CI cancels with SIGINT, then SIGTERM).
  const stopAtExit = ctx.onExit?.(() => {
    if (child.exitCode === null && child.signalCode === null) kill('SIGKILL');
  });
  return new Promise<number>((resolvePromise, reject) => {
    child.once('error', (error) => reject(new ConfigError(`cannot run ${file}: ${spawnWords(file, error)}`, { cause: error })));
    child.once('exit', (code, signal) => {
      if (group) kill('SIGKILL');
      resolvePromise(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  }).finally(() => {
    stopAtExit?.();
    process.off('SIGINT', onSigint);
    ctx.signal.removeEventListener('abort', onAbort);
  });
}

/** Why a command could not start, in words: a name looked up on PATH and not found there is said so. */
function spawnWords(file: string, error: NodeJS.ErrnoException): string {
  return error.code === 'ENOENT' && !/[/\\]/.test(file) ? 'not found on PATH' : systemErrorWords(error);
}
