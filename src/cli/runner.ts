// Runs the command commander chose: its parsing (usage errors first), settings, context, handler, output; the one
// place a failure becomes output and an exit code. What it needs is imported as it runs, never another's renderer.
import type { Command } from 'commander';
import type { Context } from '../command-kit/context.js';
import type { Invocation, Parse, ProgramWork, ResultWork, ServeWork, StreamWork, Words } from '../command-kit/invocation.js';
import type { Waited } from '../model/poll.js';
import type { WebhookDelivery } from '../model/webhook-control.js';
import { resultExitCode, type CommandResult } from '../model/result.js';
import type { ResolvedSettings } from '../config/settings.js';
import { ConfigError, EXIT, exitCodeOf, InterruptedError, type StoppedAt, UsageError } from '../errors.js';
import { isDumbTerminal } from '../config/terminal.js';
import type { ProgressOutput } from '../render/progress.js';
import type { Prepared, Voice } from './prepare.js';
import type { Io, StderrLine } from './io.js';

/** Results that only confirm a change: --quiet leaves them out in table mode. */
const CONFIRMATIONS = new Set<CommandResult['kind']>(['perPr', 'queueChange', 'targets']);

export class Runner {
  private resolved: ResolvedSettings | undefined;
  private flags: Voice & Record<string, unknown> = {};
  /** How a line reaches stderr: straight, or above a live block on stdout while one is drawn. */
  private aside: (write: () => void) => void = (write) => write();

  constructor(private readonly io: Io) {}

  /** On a terminal, what fits stderr's lines to its width (loaded with the context, which is what writes them); in a pipe, none. */
  private fit: typeof import('../render/screen-fit.js') | undefined;

  /** A line of the context's on stderr, above a live block while one is drawn; on a terminal, folded to its width as it is now. */
  private readonly stderrLine: StderrLine = (text, as) => {
    const columns = this.stderrColumns();
    const folded = this.fit && as !== 'verbatim' ? this.fit.foldWords(text, columns, as) : text;
    this.progress('');
    this.aside(() => this.io.stderr.write(`${folded}\n`));
  };

  private progressShown = false;
  /**
   * The context's progress line, redrawn in place on a terminal's stderr (nothing elsewhere); '' clears it. Any
   * other line there clears it first: an error or a warning written after it was glued to its end
   * ("simulated 16 of 80 replications…mq: interrupted").
   */
  private readonly progress = (line: string): void => {
    if (!this.redraws(this.io.stderr) || (line === '' && !this.progressShown)) return;
    // On one row, short of the last column: a line the terminal wraps leaves its first rows behind, which the
    // next line's erase (that of the cursor's row alone) never reaches.
    const columns = this.stderrColumns();
    const shown = this.fit && columns ? this.fit.cutToWidth(line, Math.max(1, columns - 1)) : line;
    this.io.stderr.write(`\r\u001b[2K${shown}`);
    this.progressShown = line !== '';
  };

  /** Whether `stream` is a terminal that can redraw a line in place; a dumb one (TERM=dumb) cannot move its cursor, and gets what a pipe gets. */
  private redraws(stream: Io['stdout']): boolean {
    return Boolean(stream.isTTY) && !isDumbTerminal(this.io.env);
  }

  /** stderr's width where it is a terminal: what mq writes there for a person fits it; a pipe gets every line whole. */
  private stderrColumns(): number | undefined {
    return this.io.stderr.isTTY ? this.io.stderr.columns : undefined;
  }

  /** Runs the command `load` leads to with the words commander parsed; its exit code. `program`: the whole tree. */
  async run(load: () => Promise<Parse>, words: Words, program: () => Promise<Command>): Promise<number> {
    this.flags = words.flags;
    const parse = await load();
    const { io } = this;
    // Getters: only the commands that use a stream make it.
    const argvIo = {
      now: io.now(),
      get stdin() {
        return io.stdin;
      },
      get stderr() {
        return io.stderr;
      },
      signal: io.signal,
    };
    const work: Invocation = await parse(words, argvIo);
    try {
      return await this.dispatch(work, program);
    } finally {
      await work.dispose?.();
    }
  }

  private async dispatch(work: Invocation, program: () => Promise<Command>): Promise<number> {
    switch (work.mode) {
      case 'program':
        await this.showProgram(work, await program());
        return EXIT.ok;
      case 'result':
        return this.execute(work);
      case 'stream':
        return this.stream(work);
      case 'serve':
        return this.serve(work);
    }
  }

  /** mq's own help or completion script, drawn from the whole command tree. */
  private async showProgram({ input }: ProgramWork, program: Command): Promise<void> {
    const write = (text: string) => this.io.stdout.write(text);
    if (input.show === 'help') await (await import('../help/command.js')).showHelp(program, input.words, write);
    else write((await import('../completion/script.js')).completionScript(input.shell, program, input.flagValues));
  }

  /** The failure as stderr shows it (a JSON document under --json), and its exit code. */
  async fail(error: unknown): Promise<number> {
    // A command an API's adapter named bare goes, shown, to the queue and service the flags chose.
    if (this.resolved) (await import('../command-kit/next-commands.js')).aimCommands(error, { resolved: this.resolved });
    const settings = this.resolved?.settings;
    const named = outputNamed(this.io.argv);
    const json = settings ? settings.output === 'json' : named === undefined ? await this.configuredJson() : named === 'json';
    // Colour decided for stdout; stderr takes it where it is a terminal too, or where FORCE_COLOR asked for it everywhere.
    const forced = this.resolved?.origins.color === 'env FORCE_COLOR';
    const color = settings ? settings.color && (Boolean(this.io.stderr.isTTY) || forced) : false;
    const { renderError } = await import('../render/failure.js');
    const { shownUrl } = await import('../text/urls.js');
    const apiUrl = settings && { shown: shownUrl(settings.apiUrl), origin: this.resolved?.origins.apiUrl ?? 'default' };
    // The check of a wrong API URL looks where the command looked: the flags that chose the service and queue go along.
    const { checkCommand } = await import('../command-kit/uncertain.js');
    const resolved = this.resolved;
    const doctor = resolved && (() => checkCommand({ resolved }, 'doctor'));
    const columns = this.stderrColumns();
    // The terminal echoed Ctrl-C as "^C" where the cursor stood: after a line mq ended, or on its progress line. The
    // message takes that row from its first column, rather than two columns in, where a line folded to the window's
    // width wraps and leaves a row behind.
    if (error instanceof InterruptedError && this.redraws(this.io.stderr)) {
      this.io.stderr.write('\r\u001b[2K');
      this.progressShown = false;
    } else this.progress('');
    this.io.stderr.write(
      renderError(error, { json, debug: Boolean(this.flags.debug), color, ...(apiUrl && { apiUrl }), ...(doctor && { doctor }), ...(columns && { columns }) }),
    );
    return exitCodeOf(error);
  }

  /**
   * A failure before the settings resolved (a bad argument), the command line naming no output: JSON output where
   * the environment or a config file asks for it, as every later error is. Settings that do not resolve either
   * leave it as text.
   */
  private async configuredJson(): Promise<boolean> {
    try {
      const { resolveSettings } = await import('../config/resolve.js');
      const { io } = this;
      return (await resolveSettings({ flags: {}, env: io.env, cwd: io.cwd, stdoutIsTTY: false })).settings.output === 'json';
    } catch {
      return false;
    }
  }

  private async execute(work: ResultWork<unknown>): Promise<number> {
    let prepared: Prepared;
    try {
      prepared = await this.prepare(false);
    } catch (error) {
      if (!work.unresolved || !(error instanceof ConfigError || error instanceof UsageError)) throw error;
      const result = await work.unresolved(work.input, error, { cwd: this.io.cwd, env: this.io.env });
      await this.print(result, this.io.now());
      return resultExitCode(result);
    }
    const { ctx, close, serviceNow } = prepared;
    try {
      const result = await raceInterrupt(work.handler(work.input, ctx), this.io.signal);
      await this.print(result, serviceNow() ?? this.io.now());
      return resultExitCode(result);
    } catch (error) {
      throw (error instanceof InterruptedError && (interruptedWrites(ctx) ?? withDone(error, ctx))) || error;
    } finally {
      await close();
    }
  }

  /** Under --json the base URL is a document too: {"url": "…"}. */
  private async serve(work: ServeWork<unknown>): Promise<number> {
    let prepared: Prepared;
    try {
      prepared = await this.prepare(false);
    } catch (error) {
      if (!work.unresolvedServes || !(error instanceof ConfigError || error instanceof UsageError)) throw error;
      prepared = (await import('./prepare.js')).unresolved(this.io, this.flags, error, this.stderrLine);
      prepared.ctx.warn(`serving without settings: ${error.message}`);
    }
    const { ctx, close } = prepared;
    const { output, color } = this.shownAs();
    const json = output === 'json';
    // In the order received, each line once its view is loaded.
    let printed = Promise.resolve();
    const deliver = (delivery: WebhookDelivery) => {
      printed = printed.then(async () => {
        const [{ renderDelivery }, { makePaint }] = await Promise.all([import('../render/views/webhooks.js'), import('../render/colors.js')]);
        this.io.stdout.write(renderDelivery(delivery, { json, paint: makePaint(color) }));
      });
    };
    try {
      const announce = (line: string) => this.io.stdout.write(`${json ? JSON.stringify({ url: line }) : line}\n`);
      const code = await work.handler(work.input, ctx, announce, deliver, { stdin: this.io.stdin, stdout: this.io.stdout });
      return typeof code === 'number' ? code : EXIT.ok;
    } catch (error) {
      // A server stopped with writes out (an MCP client's submit): each may have been applied, said under its stop;
      // so is what its calls had done before (a submit answered, its read after it cut short).
      if (!(error instanceof InterruptedError)) throw error;
      const cut = writesCutShort(ctx);
      if (!cut) throw withDone(error, ctx);
      const stopped = new InterruptedError(error.message, cut.check, cut.checks);
      stopped.aftermath = [cut.said, ...(ctx.doneSoFar === undefined ? [] : [ctx.doneSoFar])].join('\n');
      throw stopped;
    } finally {
      await printed;
      await close();
    }
  }

  /** The printer's events go to the handler, its summary ends the output; a wait that ran out is exit 7. */
  private async stream(work: StreamWork<unknown, unknown>): Promise<number> {
    const [{ ctx, close }, { PRINTERS, timedOut }] = await Promise.all([this.prepare(work.waits), import('../render/printers.js')]);
    const printer = await PRINTERS[work.printer]();
    const attached = printer(this.progressOutput());
    this.aside = attached.aside;
    try {
      const result: Waited = await raceInterrupt(work.handler(work.input, ctx, attached.events), this.io.signal);
      attached.finish(result);
      if (result.timedOut) throw await timedOut(result);
      return result.ok ? EXIT.ok : (result.exitCode ?? EXIT.negative);
    } catch (error) {
      if (!(error instanceof InterruptedError)) throw error;
      // A write cut short is the first thing to know; else what the wait leaves (a drain that stands).
      const left = attached.interrupted?.();
      throw interruptedWrites(ctx) ?? (left === undefined ? error : leaving(left));
    } finally {
      // Before close(), which may wait for a request in flight: the cursor comes back at once on Ctrl-C.
      attached.close();
      await close();
    }
  }

  private async prepare(waits: boolean): Promise<Prepared> {
    const [{ prepare }] = await Promise.all([import('./prepare.js'), this.loadFit()]);
    const prepared = await prepare(this.io, this.flags, waits, this.stderrLine, this.progress);
    this.resolved = prepared.resolved;
    return prepared;
  }

  private async loadFit(): Promise<void> {
    if (this.io.stderr.isTTY) this.fit = await import('../render/screen-fit.js');
  }

  /** The output and colour of the settings; without them (they did not resolve), the output the command line asks for, uncoloured. */
  private shownAs(): { output: string; color: boolean } {
    return this.resolved?.settings ?? { output: outputNamed(this.io.argv) === 'json' ? 'json' : 'table', color: false };
  }

  private async print(result: CommandResult, now: number): Promise<void> {
    const settings = this.shownAs();
    if (settings.output === 'json') {
      const { toJson, writeJson } = await import('../render/json.js');
      writeJson(toJson(result), (chunk) => this.io.stdout.write(chunk));
      return;
    }
    if (this.flags.quiet && CONFIRMATIONS.has(result.kind)) {
      // What failed is no confirmation: a PR the command failed for is said still, or the exit code stands alone.
      const failed = result.kind === 'perPr' ? result.results.filter((outcome) => !outcome.ok) : [];
      if (failed.length === 0) return;
      result = { ...(result as Extract<CommandResult, { kind: 'perPr' }>), results: failed };
    }
    const { renderText } = await import('../render/text.js');
    this.io.stdout.write(await renderText(result, { color: settings.color, now, ...(this.io.stdout.isTTY && { screen: this.screen() }) }));
  }

  private progressOutput(): ProgressOutput {
    const { io } = this;
    const settings = this.resolved!.settings;
    return {
      write: (text) => io.stdout.write(text),
      json: settings.output === 'json',
      live: this.redraws(io.stdout),
      quiet: Boolean(this.flags.quiet),
      color: settings.color,
      screen: () => this.screen(),
      onResize: (listener) => {
        io.stdout.on('resize', listener);
        return () => io.stdout.off('resize', listener);
      },
      ...(io.onExit && { onExit: io.onExit }),
      now: io.now,
    };
  }

  /** stdout's window, read anew each time: it changes when the user resizes it. */
  private screen(): { columns?: number; rows?: number } {
    return { columns: this.io.stdout.columns, rows: this.io.stdout.rows };
  }
}

/**
 * The output the command line names, read before commander has parsed it (a flag error under --json is a JSON
 * document too): `json` if any word asks for it, `other` for another format, undefined where none is named.
 */
function outputNamed(argv: string[]): 'json' | 'other' | undefined {
  let named: 'json' | 'other' | undefined;
  argv.forEach((word, i) => {
    const glued = /^--output=(.*)$|^-o(.+)$/s.exec(word);
    const value = word === '--json' ? 'json' : word === '-o' || word === '--output' ? (argv[i + 1] ?? '') : glued ? (glued[1] ?? glued[2]) : undefined;
    if (value !== undefined && named !== 'json') named = value === 'json' ? 'json' : 'other';
  });
  return named;
}

/** Ctrl-C with writes out (ctx.writesInFlight): each may have been applied, said as for a write that timed out (docs/choices.md). Still exit 130. */
function interruptedWrites(ctx: Context): InterruptedError | undefined {
  const cut = writesCutShort(ctx);
  if (!cut) return undefined;
  const error = new InterruptedError(`interrupted: ${cut.said}`, cut.check, cut.checks);
  if (cut.stoppedAt) error.stoppedAt = cut.stoppedAt;
  return error;
}

/** The writes Ctrl-C cut short after they left, in words (each may have been applied, and how to check), if any; `checks`: every write's. */
function writesCutShort(ctx: Context): { said: string; check: string; checks: string[]; stoppedAt?: StoppedAt } | undefined {
  const [first, ...more] = [...ctx.writesInFlight].filter((write) => write.left?.() ?? true);
  if (!first) return undefined;
  const lines = [`${first.what} may have been applied: check with \`${first.check}\``];
  for (const other of more) lines.push(`${other.what} may have been applied too: check with \`${other.check}\``);
  if (first.also) lines.push(first.also);
  const checks = [first, ...more].map((write) => write.check);
  return { said: lines.join('\n'), check: first.check, checks, ...(first.stoppedAt && { stoppedAt: first.stoppedAt }) };
}

/** Ctrl-C during a wait that leaves something standing (a drain), said with the commands it names (the resume). */
function leaving(left: { said: string; commands: readonly string[] }): InterruptedError {
  return new InterruptedError(`interrupted: ${left.said}`, undefined, left.commands);
}

/** Ctrl-C with no write out, after writes that were answered: what they did is said under it. */
function withDone(error: InterruptedError, ctx: Context): InterruptedError {
  if (ctx.doneSoFar !== undefined) error.aftermath = ctx.doneSoFar;
  return error;
}

/** Ctrl-C ends a command at once with 130, whatever it was waiting for. */
function raceInterrupt<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The handler has already started: its own end (most often the same interruption) comes too late to matter,
    // and must not surface as an unhandled rejection.
    work.catch(() => undefined);
    return Promise.reject(new InterruptedError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new InterruptedError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
