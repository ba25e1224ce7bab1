// The command table (table.ts) as a commander program with the global flags; an action hands its loader and words to
// `onCommand`. Only what a command line needs is made: the command it names (the whole table when the words before
// it are not global flags alone, or name none), and a group's subcommands when commander enters it (`queue
// create`/`update` bring 80 options).
import { Command, CommanderError, Help, Option, type ParseOptionsResult } from 'commander';
import type { FlagSpec } from '../argv-spec.js';
import { choiceOf, refuseUnreadable } from '../argv-values.js';
import type { ArgvIo, CommandSpec, Invocation, Parse, Words } from '../command-kit/invocation.js';
import { VOICE_FLAGS } from '../command-kit/words.js';
import { SETTING_FLAGS } from '../config/setting-rows.js';
import { exitCodesSummary } from '../help/exit-codes.js';
import { HELP_LAYOUT, layout, type Block } from '../help/layout.js';
import { GLOBAL_FLAGS_POINTER, GLOBAL_OPTIONS_HEADING, helpTopicsLine } from '../help/topics.js';
import { UsageError } from '../errors.js';
import { markTakesGroupFlags, takesGroupFlags } from '../completion/group-flags.js';
import { VERSION } from '../version.js';
import { COMMANDS } from './table.js';

/** Flags every command takes, wherever they are written: the settings' (a row each), then how much to say. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [...SETTING_FLAGS, ...VOICE_FLAGS];

const PROGRAM = {
  name: 'mq',
  description: 'Drive a merge queue from the terminal: submit, watch, pause, drain and tune it.',
  examples: ['mq submit 42', 'mq status 42', 'mq queue get --repo acme/widgets', 'mq sandbox --clock manual'],
};

/** A stream help is written to: a terminal's has a width. */
type HelpStream = { write(text: string): unknown; isTTY?: boolean; columns?: number };

export interface ProgramOutput {
  stdout: HelpStream;
  stderr: HelpStream;
}

export type OnCommand = (load: () => Promise<Parse>, words: Words) => Promise<void>;

/** The help flag, every command's. */
const HELP_FLAGS = ['-h', '--help'];

/** The width of help in a pipe or a file: commander's own. */
const PIPE_COLUMNS = 80;

/** What a command's help says after commander's part (its usage, arguments, flags, subcommands). */
const EPILOGUES = new WeakMap<Command, readonly Block[]>();

/** The program for `argv` (the command it names alone), or the whole table without it. */
export function buildProgram(output: ProgramOutput, onCommand: OnCommand, argv?: readonly string[]): Command {
  const program = new Program(PROGRAM.name, output)
    .description(PROGRAM.description)
    .addOption(new Option('--version', 'print the version'))
    .helpOption(HELP_FLAGS.join(', '), 'show help')
    // Laid out by commander to the width of the output, the epilogue too. The global flags are listed here
    // and in their topic; a command's help points there instead of repeating them.
    .configureHelp({
      ...HELP_LAYOUT,
      formatHelp(command, help) {
        const epilogue = EPILOGUES.get(command);
        const body = Help.prototype.formatHelp.call(help, command, help);
        return epilogue ? `${body}\n${layout(epilogue, help)}` : body;
      },
    })
    .optionsGroup(GLOBAL_OPTIONS_HEADING);
  addFlags(program, GLOBAL_FLAGS);
  program
    .optionsGroup('')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.stdout.write(text),
      writeErr: (text) => output.stderr.write(text),
      outputError: () => undefined,
      // The terminal's width, as tables get it (on stderr: help that commander writes beside a usage error).
      getOutHelpWidth: () => helpWidth(output.stdout),
      getErrHelpWidth: () => helpWidth(output.stderr),
    });
  EPILOGUES.set(program, [examples(PROGRAM.examples), exitCodesSummary(), helpTopicsLine()]);
  const named = argv && commandNamed(program, argv);
  addCommands(program, named ? [named] : COMMANDS, onCommand);
  if (named) PARTIAL.set(program, () => buildProgram(output, onCommand));
  return program;
}

/**
 * The root. commander answers --help and --version before it looks at the command a line names, so `mq nope --help`
 * printed mq's help and exited 0 as if `nope` were a command: here the words it read as commands are checked first,
 * and with a help flag the words after it too (`mq -h nope`, `mq queue --help nope`), which commander never reads.
 */
class Program extends Command {
  constructor(
    name: string,
    private readonly output: ProgramOutput,
  ) {
    super(name);
  }

  override parseOptions(argv: string[]): ParseOptionsResult {
    const parsed = super.parseOptions(argv);
    refuseUnknownCommand(this, parsed.operands, parsed.unknown);
    if (this.getOptionValue('version')) {
      this.output.stdout.write(`${VERSION}\n`);
      throw new CommanderError(0, 'commander.version', VERSION);
    }
    return parsed;
  }
}

/**
 * The first word that names no subcommand where one is expected, refused as commander refuses `mq nope` (with its
 * suggestion): of the `operands` the root read, then, where a help flag is among the words it left to its
 * subcommands (`unknown`), of those as each command would read them.
 */
function refuseUnknownCommand(program: Command, operands: readonly string[], unknown: readonly string[]): void {
  let command = program;
  /** Whether the walk goes on past `word`: not past a command without subcommands, whose words are its arguments. */
  const named = (word: string): boolean => {
    wholeGroup(command);
    if (command.commands.length === 0) return false;
    const sub = command.commands.find((each) => each.name() === word || each.aliases().includes(word));
    if (sub) command = sub;
    // A group's implicit `help` (`mq queue help get`): the word after it names one of the group's.
    else if (word !== 'help' || !command.parent) {
      command.args = [word];
      (command as unknown as { unknownCommand(): never }).unknownCommand();
    }
    return true;
  };
  for (const word of operands) if (!named(word)) return;
  if (!unknown.some((word) => HELP_FLAGS.includes(word))) return;
  for (let at = 0; at < unknown.length; at++) {
    const word = unknown[at]!;
    if (word === '--') {
      for (const operand of unknown.slice(at + 1)) if (!named(operand)) return;
      return;
    }
    if (!word.startsWith('-') || word === '-') {
      if (!named(word)) return;
      continue;
    }
    if (HELP_FLAGS.includes(word)) continue;
    // A flag of the command reached (a group's own); one it does not know may take the next word or not: help wins.
    const taken = wordsTaken(command, word);
    if (taken === undefined) return;
    at += taken;
  }
}

/**
 * How many words after `word` its flag takes from the command line (`--repo acme/w`: 1; `--repo=acme/w`, `--json`: 0),
 * as commander reads it: undefined where it is none of `command`'s, or its value may or may not follow.
 */
function wordsTaken(command: Command, word: string): number | undefined {
  const equals = word.startsWith('--') ? word.indexOf('=') : -1;
  const name = equals < 0 ? word : word.slice(0, equals);
  const option = command.options.find((each) => each.long === name || each.short === name);
  if (!option) return undefined;
  // commander reads a required value first (`<[host/]owner/name>` is one); one that may or may not follow is its to read.
  if (option.required) return equals < 0 ? 1 : 0;
  return option.optional || equals >= 0 ? undefined : 0;
}

/** Programs made with one command, and how to make the whole table. */
const PARTIAL = new WeakMap<Command, () => Command>();

/**
 * The command `argv` names when every word before it is a global flag (with its value) as commander reads it; else
 * none, and the whole table is made: for help, a misspelt command's suggestion, anything unusual before the name.
 */
function commandNamed(program: Command, argv: readonly string[]): CommandSpec | undefined {
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at]!;
    if (!word.startsWith('-')) return COMMANDS.find((spec) => spec.name === word);
    const taken = wordsTaken(program, word);
    if (taken === undefined) return undefined;
    at += taken;
  }
  return undefined;
}

/** The groups whose subcommands are not made yet, and how to make them. */
const UNMADE = new WeakMap<Command, () => void>();

/** The whole tree, every group's subcommands made: for what walks it (`mq help`, `mq completion`). */
export function wholeProgram(program: Command): Command {
  const whole = PARTIAL.get(program)?.() ?? program;
  wholeGroup(whole);
  for (const command of whole.commands) wholeProgram(command);
  return whole;
}

/** argv → the work asked for (handler and exact input), not run; a mistake throws as `run` would see it (CommanderError or UsageError). */
export async function parseArgv(argv: string[], io: ProgramOutput & ArgvIo): Promise<Invocation | undefined> {
  let parsed: Invocation | undefined;
  const program = buildProgram(
    io,
    async (load, words) => {
      parsed = await (await load())(words, io);
    },
    argv,
  );
  await program.parseAsync(argv, { from: 'user' });
  return parsed;
}

function addCommands(parent: Command, specs: readonly CommandSpec[], onCommand: OnCommand): void {
  for (const spec of specs) addCommand(parent, spec, onCommand);
  parent.hook('preSubcommand', (_parent, sub) => wholeGroup(sub));
}

function wholeGroup(command: Command): void {
  const make = UNMADE.get(command);
  UNMADE.delete(command);
  make?.();
}

function addCommand(parent: Command, spec: CommandSpec, onCommand: OnCommand): void {
  const command = parent.command(spec.name).description(spec.description);
  for (const arg of spec.args ?? []) {
    const argument = command.createArgument(arg.name, arg.description);
    // .choices() for the help's list and completion; the parser after it for the refusal's words.
    command.addArgument(arg.choices ? argument.choices(arg.choices).argParser(choiceOf(arg.name, arg.choices)) : argument);
  }
  addFlags(command, spec.flags ?? []);
  if (spec.groupFlags) markTakesGroupFlags(command);
  EPILOGUES.set(command, [GLOBAL_FLAGS_POINTER, examples(spec.examples), ...(spec.notes ? [spec.notes] : [])]);
  const subcommands = spec.subcommands;
  if (subcommands) UNMADE.set(command, () => addCommands(command, subcommands, onCommand));
  const load = spec.load;
  // A command refuses words past its arguments; a group's subcommand would inherit the group's allowance below
  // (commander copies it to the commands made on it), and `mq queue delete staging` deleted main.
  if (load) command.allowExcessArguments(false).action((...params: unknown[]) => onCommand(load, wordsOf(params.at(-1) as Command)));
  else if (subcommands) command.allowExcessArguments().action(() => groupAlone(command));
  // An action would drop commander's implicit `help` subcommand (`mq queue help get`, `mq sandbox help exec`): kept on purpose.
  if (subcommands) command.helpCommand(true);
}

/** A group named alone (`mq queue`) prints its help and exits 0, as bare `mq` does; a word that is none of its subcommands is commander's "unknown command". */
function groupAlone(group: Command): void {
  // commander's own refusal, which its typings leave out; it throws (exitOverride).
  if (group.args.length > 0) (group as unknown as { unknownCommand(): never }).unknownCommand();
  group.outputHelp();
}

function addFlags(command: Command, flags: readonly FlagSpec[]): void {
  for (const flag of flags) {
    const option = new Option(flag.flags, flag.description);
    if (flag.choices) option.choices(flag.choices).argParser(choiceOf(option.long ?? flag.flags, flag.choices));
    if (flag.parse) option.argParser(flag.parse);
    command.addOption(option);
  }
}

/** Only what was written (commander's implied defaults are not the user's words), and each word UTF-8 or refused (argv-values.ts). */
function wordsOf(command: Command): Words {
  const all = command.optsWithGlobals<Record<string, unknown>>();
  const flags = Object.fromEntries(Object.entries(all).filter(([key]) => command.getOptionValueSourceWithGlobals(key) === 'cli'));
  if (!takesGroupFlags(command)) refuseGroupFlags(command);
  for (const owner of [command, ...ancestors(command)]) {
    for (const option of owner.options) refuseUnreadableWords(option.long ?? option.flags, flags[option.attributeName()]);
  }
  command.registeredArguments.forEach((argument, at) => refuseUnreadableWords(`<${argument.name()}>`, command.processedArgs[at]));
  return { args: command.processedArgs, flags };
}

/**
 * A group's own flag given to a subcommand that does not take them. The root's are every command's (global flags), and a
 * flag the subcommand has too is its own: commander, with options not positional, gives it to the group wherever it stands.
 */
function refuseGroupFlags(command: Command): void {
  const own = new Set(command.options.map((option) => option.attributeName()));
  for (const group of ancestors(command).filter((owner) => owner.parent)) {
    const given = group.options.find((option) => !own.has(option.attributeName()) && group.getOptionValueSource(option.attributeName()) === 'cli');
    if (!given) continue;
    const help = `${commandPath(command)} --help`;
    throw new UsageError(`${given.long ?? given.flags} is a flag of ${commandPath(group)}, not of ${commandPath(command)}: see ${help}`, { commands: [help] });
  }
}

function commandPath(command: Command): string {
  return [...ancestors(command).reverse(), command].map((owner) => owner.name()).join(' ');
}

function ancestors(command: Command): Command[] {
  return command.parent ? [command.parent, ...ancestors(command.parent)] : [];
}

function refuseUnreadableWords(name: string, value: unknown): void {
  for (const word of Array.isArray(value) ? value : [value]) if (typeof word === 'string') refuseUnreadable(name, word);
}

function helpWidth(stream: HelpStream): number {
  return (stream.isTTY && stream.columns) || PIPE_COLUMNS;
}

function examples(lines: readonly string[]): Block {
  return { heading: 'Examples:', commands: lines };
}
