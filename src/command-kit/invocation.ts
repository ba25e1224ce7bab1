// A command as mq knows it: its spec (words, help, loader: src/commands/<command>/spec.ts), and what its parse hands
// the runner (src/cli/runner.ts): the validated input and the handler that takes it, in one of four shapes.
import type { Readable, Writable } from 'node:stream';
import type { ArgsOf, FlagsOf, WordSpecs } from '../argv-spec.js';
import type { GlobalFlags } from '../config/setting-rows.js';
import type { MqError } from '../errors.js';
import type { Shell } from '../text/shells.js';
import type { Context } from './context.js';
import type { VOICE_FLAGS } from './words.js';
import type { Waited } from '../model/poll.js';
import type { CommandResult } from '../model/result.js';
import type { WebhookDelivery } from '../model/webhook-control.js';

/** A command as data, for commander's program, its help and completion, loading none of the command's code; a group has subcommands and no loader. */
export interface CommandSpec extends WordSpecs {
  name: string;
  description: string;
  /** Shown under "Examples:" in the command's help, each after `$ `. */
  examples: readonly string[];
  /** Help text after the examples. */
  notes?: string;
  subcommands?: readonly CommandSpec[];
  /**
   * The command's parsing, loaded once commander has chosen it; its return type is written (`async (): Promise<AnyParse> =>`) so that the
   * parse function may read its words' types from the spec that loads it.
   */
  load?: () => Promise<AnyParse>;
  /**
   * Takes its group's own flags, written before its name (`mq sandbox --clock manual exec`). Without it a group's flag on the
   * line is refused: commander hands a subcommand its group's values, and `mq simulate fit --workload w.yaml` ran as if not said.
   */
  groupFlags?: true;
}

/** What runs a command's words, whichever specs they have: each parse function is typed by its own spec. */
// biome-ignore lint/suspicious/noExplicitAny: commander hands each parse function the words of its own spec
export type AnyParse = (words: any, io: ArgvIo) => Invocation | Promise<Invocation>;

/**
 * One command line as commander parsed it, typed by the command's spec (`Words<typeof LIST>` reads `flags.since` as a string); the flags
 * hold its ancestors' too (the settings', --quiet, --verbose, --debug), only those written on the command line.
 */
export interface Words<S extends WordSpecs = WordSpecs> {
  /** The positional arguments in order; a variadic one is an array. */
  args: ArgsOf<S['args']>;
  /** The flags written on the command line (this command's and its ancestors'), by commander's camelCase name. */
  flags: FlagsOf<S['flags']> & GlobalFlags & FlagsOf<typeof VOICE_FLAGS>;
}

/** The little of the process that parsing may use: the clock for "2h ago", stdin for `--file -`, a prompt. */
export interface ArgvIo {
  now: number;
  stdin: Readable & { isTTY?: boolean };
  stderr: Writable;
  signal: AbortSignal;
}

/** The printers of the commands that report as they go (src/render/*-printer.ts), chosen by the runner. */
export type PrinterName = 'wait' | 'drain' | 'watch';

/** A command that returns a result, printed once at the end. */
export interface ResultWork<I> {
  mode: 'result';
  input: I;
  handler: (input: I, ctx: Context) => Promise<CommandResult>;
  /** The result when the settings do not resolve, instead of failing on them: `mq doctor` reports that as one of its checks. */
  unresolved?: (input: I, error: MqError, where: { cwd: string; env: Record<string, string | undefined> }) => CommandResult | Promise<CommandResult>;
}

/** A command that reports as it goes through its printer; with `waits`, --timeout bounds the whole wait (exit 7) rather than each request. */
export interface StreamWork<I, E> {
  mode: 'stream';
  input: I;
  /** `events` are the printer's: the wait printer takes WaitEvents, the drain printer DrainEvents, and so on. */
  handler: (input: I, ctx: Context, events: E) => Promise<Waited>;
  printer: PrinterName;
  waits: boolean;
}

/** A command that runs until interrupted, announcing where it listens (the sandbox), or printing what it receives (`mq webhooks listen`). */
export interface ServeWork<I> {
  mode: 'serve';
  input: I;
  /** Answers the exit code when it is not 0 (`mq sandbox exec` passes its command's on). `streams`: for a server that speaks on them (`mq mcp`). */
  handler: (
    input: I,
    ctx: Context,
    announce: (line: string) => void,
    deliver: (delivery: WebhookDelivery) => void,
    streams: { stdin: Readable; stdout: Writable },
  ) => Promise<number | undefined> | Promise<void>;
  /** Serves even when the settings do not resolve, with a context whose every use of them fails with their error (`mq mcp`: each tool call answers it). */
  unresolvedServes?: boolean;
}

/** A command about mq itself, drawn from the command tree by the runner (src/help/, src/completion/), with no settings. */
export interface ProgramWork {
  mode: 'program';
  input: { show: 'help'; words: string[] } | { show: 'completion'; shell: Shell; flagValues: Record<string, readonly string[]> };
}

/** `dispose`: what any shape may release once the command is over, whatever its outcome. */
// biome-ignore lint/suspicious/noExplicitAny: an invocation ties an input to its own handler; the runner never looks inside it
export type Invocation = (ResultWork<any> | StreamWork<any, any> | ServeWork<any> | ProgramWork) & { dispose?: () => Promise<void> };

/** argv words → the work a command asks for; a mistake throws a UsageError (exit 2) before anything is sent. */
export type Parse<S extends WordSpecs = WordSpecs> = (words: Words<S>, io: ArgvIo) => Invocation | Promise<Invocation>;

/** Builders that tie an input to the handler that takes it. */
export const work = {
  result: <I>(input: I, handler: ResultWork<I>['handler'], dispose?: () => Promise<void>): Invocation => ({ mode: 'result', input, handler, dispose }),
  stream: <I, E>(input: I, handler: StreamWork<I, E>['handler'], printer: PrinterName, options: { waits: boolean }): Invocation => ({
    mode: 'stream',
    input,
    handler,
    printer,
    waits: options.waits,
  }),
  serve: <I>(input: I, handler: ServeWork<I>['handler'], options?: { unresolvedServes: boolean }): Invocation => ({
    mode: 'serve',
    input,
    handler,
    ...options,
  }),
  program: (input: ProgramWork['input']): Invocation => ({ mode: 'program', input }),
};
