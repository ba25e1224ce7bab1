// Settings and the Context a handler receives, made once a command has parsed its input: loaded only then, since
// it brings the config layer (and, on a command's first request, the API's adapter).
import type { Context } from '../command-kit/context.js';
import type { MergeQueueService, RetryNotice } from '../model/service.js';
import { ignoredConfigWarning } from '../config/config-names.js';
import { chooseApi } from '../config/api-choice.js';
import { checkTokenDestination } from '../config/destination.js';
import { cacheDir, idCacheFile } from '../config/cache-dir.js';
import { requireRepo, resolveSettings } from '../config/resolve.js';
import { envName } from '../config/setting-rows.js';
import type { GlobalFlags, ResolvedSettings } from '../config/settings.js';
import { readToken } from '../config/token.js';
import { InterruptedError, isRateLimited, type MqError } from '../errors.js';
import { USER_AGENT } from '../version.js';
import { isLoopback } from '../api/loopback.js';
import type { Io, StderrLine } from './io.js';

/** The global flags that are not settings: how much to say. */
export interface Voice {
  quiet?: boolean;
  verbose?: boolean;
  debug?: boolean;
}

export interface Prepared {
  resolved: ResolvedSettings;
  ctx: Context;
  /** Closes the service's connections, if it was made. */
  close(): Promise<void>;
  /** The service's clock as its last answer gave it, if there was one. */
  serviceNow(): number | undefined;
}

/** Resolves the settings and builds the context; on a waiting command (`waits`) --timeout is the wait's, not the requests'. */
export async function prepare(io: Io, flags: GlobalFlags & Voice, waits: boolean, stderrLine: StderrLine, progress: (line: string) => void): Promise<Prepared> {
  const resolved = await resolveSettings({
    // The flags written (program.ts wordsOf); the layers read the settings' own, by their rows.
    flags: { ...flags, ...(waits ? { timeout: undefined } : {}) },
    env: io.env,
    cwd: io.cwd,
    stdoutIsTTY: Boolean(io.stdout.isTTY),
  });
  const settings = resolved.settings;
  let service: MergeQueueService | undefined;
  let making: Promise<MergeQueueService> | undefined;
  let deadline = Number.POSITIVE_INFINITY;
  let writesSent = 0;
  // The API's adapter: the one the setting names, or the credential's shape chooses (config/api-choice.ts).
  const newService = async (token: string, tuning?: { timeoutMs: number; retries: number }) => {
    const { api } = chooseApi(settings.api, token, resolved.origins.api ?? 'the api setting');
    const folder = io.sleep ? io.budgetFolder : cacheDir(io.env);
    const options = {
      apiUrl: settings.apiUrl,
      token,
      timeoutMs: tuning?.timeoutMs ?? settings.timeoutMs,
      ...(tuning && { retries: tuning.retries }),
      // On a waiting command --timeout is the wait's: only the other two set the request timeout.
      timeoutHint: waits ? `${envName('timeoutMs')} or the config file's timeout` : undefined,
      userAgent: USER_AGENT,
      signal: io.signal,
      timeLeftMs: () => deadline - io.now(),
      trace: flags.debug ? (line: string) => stderrLine(`[debug] ${line}`, 'verbatim') : undefined,
      // A 429 is said without -v: the user should know why mq is slow, and that nothing was lost.
      onRetry: (notice: RetryNotice) => (isRateLimited(notice.error) ? ctx.note : ctx.info)(renderRetry(notice)),
      onWrite: () => {
        writesSent++;
      },
      // An injected pause comes with its clock: the time a failure reports having taken is on that clock too.
      ...(io.sleep && { sleep: (ms: number) => sleep(ms, io), now: io.now }),
      // The service's limits are an organization's and a key's, not a process's: every process on the machine that
      // sends the credential keeps them together. An injected clock moves with the injected pauses: the budget's
      // times are on it.
      ...(folder && { sharedBudget: { folder, say: (line: string) => ctx.info(line), ...(io.sleep && { now: io.now }) } }),
    };
    const { renderRetry } = await import('../render/retry.js');
    if (api === 'v2') {
      const { createV2Service } = await import('../api/v2/v2-service.js');
      return createV2Service({ ...options, idCacheFile: idCacheFile(io.env) });
    }
    const { createV1Service } = await import('../api/v1/v1-service.js');
    return createV1Service(options);
  };
  const makeService = async () => {
    // Before the token is read: a tokenCommand must not run for a request that will be refused.
    checkTokenDestination(resolved);
    service = await newService(await readToken(settings, io.signal));
    return service;
  };
  const ctx: Context = {
    resolved,
    ...fromIo(io),
    writesSent: () => writesSent,
    endBy: (at) => {
      deadline = at;
    },
    // A getter: reading it makes process.stdin (milliseconds), which only commands that may ask need.
    get interactive() {
      return Boolean(io.stdin.isTTY && io.stderr.isTTY);
    },
    // Made on first use, once: commands that never call the service never need a token.
    service: () => (making ??= makeService()),
    probeService: async (token, timeoutMs) => {
      if (token !== undefined) checkTokenDestination(resolved);
      return newService(token ?? '', { timeoutMs, retries: 0 });
    },
    webhookControl: async () => {
      // The service has no control routes: it is not asked, and needs no token to be told so.
      if (!isLoopback(new URL(settings.apiUrl))) return undefined;
      checkTokenDestination(resolved);
      const token = await readToken(settings, io.signal);
      const { sandboxControl } = await import('../api/v1/sandbox-control.js');
      // No abort signal: the endpoint is removed after Ctrl-C.
      const trace = flags.debug ? (line: string) => stderrLine(`[debug] ${line}`, 'verbatim') : undefined;
      return sandboxControl({ apiUrl: settings.apiUrl, token, timeoutMs: settings.timeoutMs, userAgent: USER_AGENT, trace });
    },
    cacheDir: cacheDir(io.env),
    queueRef: () => ({ repo: requireRepo(settings), targetBranch: settings.targetBranch }),
    openInBrowser: async (url) => (await import('../command-kit/browser.js')).openInBrowser(url, io.env, process.platform),
    async confirm(question) {
      const { createInterface } = await import('node:readline/promises');
      const prompt = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
      // Ctrl-D (the end of input) answers the question with its default, no; Ctrl-C interrupts.
      let entered = false;
      let interrupted = false;
      // In the terminal's raw mode Ctrl-C reaches readline as a key, not as a signal to the process.
      prompt.once('SIGINT', () => {
        interrupted = true;
        prompt.close();
      });
      const ended = new Promise<string>((resolve) => prompt.once('close', () => resolve('')));
      // Folded between words as every other line for a person on stderr is (a word cut by the terminal's wrap reads wrong).
      const columns = io.stderr.isTTY ? io.stderr.columns : undefined;
      const { foldWords } = await import('../render/screen-fit.js');
      const asked = prompt.question(`${foldWords(`${question} [y/N]`, columns)} `, { signal: io.signal }).then((answer) => {
        entered = true;
        return answer;
      });
      asked.catch(() => undefined);
      try {
        const answer = await Promise.race([asked, ended]);
        if (interrupted || io.signal.aborted) throw new InterruptedError();
        return /^y(es)?$/i.test(answer.trim());
      } catch {
        throw new InterruptedError();
      } finally {
        prompt.close();
        // No Enter ended the line (Ctrl-D, Ctrl-C): what follows starts a line of its own.
        if (!entered) io.stderr.write('\n');
      }
    },
    ...voice(flags, stderrLine),
    progress: !flags.quiet && settings.output !== 'json' ? progress : () => undefined,
  };
  for (const path of resolved.ignoredFiles) ctx.warn(ignoredConfigWarning(path));
  for (const note of resolved.notes) ctx.note(note);
  return { resolved, ctx, close: async () => service?.close(), serviceNow: () => service?.serviceNow() };
}

/** What a context takes from the process: its folder, clock and pauses, Ctrl-C. */
function fromIo(io: Io): Pick<Context, 'cwd' | 'writesInFlight' | 'signal' | 'onExit' | 'now' | 'random' | 'sleep'> {
  return {
    cwd: io.cwd,
    writesInFlight: new Set(),
    signal: io.signal,
    ...(io.onExit && { onExit: io.onExit }),
    now: io.now,
    random: Math.random,
    sleep: (ms) => sleep(ms, io),
  };
}

/** What a context says on stderr: as much as --quiet and --verbose let it. */
function voice(flags: Voice, stderrLine: StderrLine): Pick<Context, 'warn' | 'note' | 'info' | 'verbose'> {
  return {
    warn: (message) => {
      if (!flags.quiet) stderrLine(`warning: ${message}`);
    },
    note: (message, as) => {
      if (!flags.quiet) stderrLine(message, as);
    },
    info: (message) => {
      if (flags.verbose) stderrLine(message);
    },
    verbose: flags.verbose === true,
  };
}

/**
 * The context of a command that serves whether or not the settings resolved (ServeWork.unresolvedServes), when they
 * did not: everything that needs them (the service, the queue, the settings themselves) fails with their error.
 */
export function unresolved(io: Io, flags: Voice, error: MqError, stderrLine: StderrLine): Prepared {
  const fail = (): never => {
    throw error;
  };
  const ctx: Context = {
    resolved: new Proxy({} as ResolvedSettings, { get: fail }),
    ...fromIo(io),
    endBy: () => undefined,
    interactive: false,
    service: async () => fail(),
    probeService: async () => fail(),
    webhookControl: async () => fail(),
    cacheDir: cacheDir(io.env),
    queueRef: fail,
    openInBrowser: async () => fail(),
    confirm: async () => fail(),
    ...voice(flags, stderrLine),
    progress: () => undefined,
  };
  return { resolved: ctx.resolved, ctx, close: async () => undefined, serviceNow: () => undefined };
}

/** A pause that Ctrl-C cuts short: the injected one, or a timer. */
async function sleep(ms: number, io: Io): Promise<void> {
  try {
    // node:timers/promises loaded on the first pause only: most runs never make one.
    await (io.sleep ? io.sleep(ms, io.signal) : process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, { signal: io.signal }));
  } catch {
    throw new InterruptedError();
  }
}
