// The command table (table.ts) as a commander program. A command's action hands its module loader and the words
// commander parsed to `onCommand`: the runner runs it, `parseArgv` only parses it. A group's subcommands are made
// only when commander enters the group (`wholeProgram` makes them all): `mq --help` and `mq status` need only the
// top level, and `queue create`/`update` alone bring some 80 options.
import { Command, Help, Option } from 'commander';
import type { ArgvIo, Invocation, Parse, Words } from '../commands/invocation.js';
import { exitCodesSummary } from '../help/exit-codes.js';
import { helpTopicsLine } from '../help/topics.js';
import { VERSION } from '../version.js';
import { COMMANDS, GLOBAL_FLAGS, PROGRAM, type CommandSpec, type FlagSpec } from './table.js';

export interface ProgramOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** commander's own heading for the inherited options (Help.formatHelp). */
export const GLOBAL_OPTIONS_HEADING = 'Global Options:';

export type OnCommand = (load: () => Promise<Parse>, words: Words) => Promise<void>;

export function buildProgram(output: ProgramOutput, onCommand: OnCommand): Command {
  const program = new Command(PROGRAM.name)
    .description(PROGRAM.description)
    .version(VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // Every command's help lists the flags it inherits too (`mq test-details --help` shows --org), under the
    // heading commander gives them below a subcommand's own options; on mq's own help, the same heading.
    .configureHelp({
      showGlobalOptions: true,
      // The flags of GLOBAL_FLAGS only: --version is mq's own, not a flag of its commands.
      visibleGlobalOptions(command) {
        return Help.prototype.visibleGlobalOptions.call(this, command).filter((option) => option.helpGroupHeading === GLOBAL_OPTIONS_HEADING);
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
    })
    .addHelpText('after', `${examples(PROGRAM.examples)}\n${exitCodesSummary()}\n${helpTopicsLine()}\n`);
  addCommands(program, COMMANDS, onCommand);
  return program;
}

/** The groups whose subcommands are not made yet, and how to make them. */
const UNMADE = new WeakMap<Command, () => void>();

/** The whole tree, every group's subcommands made: for what walks it (`mq help`, `mq completion`). */
export function wholeProgram(program: Command): Command {
  wholeGroup(program);
  for (const command of program.commands) wholeProgram(command);
  return program;
}

/**
 * argv → the work the command asks for (its handler and the exact input it would get), without running it. A
 * mistake throws as `run` would see it: commander's CommanderError, or the command's own UsageError.
 */
export async function parseArgv(argv: string[], io: ProgramOutput & ArgvIo): Promise<Invocation | undefined> {
  let parsed: Invocation | undefined;
  const program = buildProgram(io, async (load, words) => {
    parsed = await (await load())(words, io);
  });
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
    command.addArgument(arg.choices ? argument.choices(arg.choices) : argument);
  }
  addFlags(command, spec.flags ?? []);
  command.addHelpText('after', examples(spec.examples) + (spec.notes ?? ''));
  const subcommands = spec.subcommands;
  if (subcommands) UNMADE.set(command, () => addCommands(command, subcommands, onCommand));
  const load = spec.load;
  if (load) command.action((...params: unknown[]) => onCommand(load, wordsOf(params.at(-1) as Command)));
  // An action would drop commander's implicit `help` subcommand (`mq queue help get`): kept on purpose.
  else if (subcommands)
    command
      .allowExcessArguments()
      .helpCommand(true)
      .action(() => groupAlone(command));
}

/**
 * A group named alone (`mq queue`) prints its help to stdout and exits 0, as bare `mq` does (and gh's groups); a
 * word that is none of its subcommands is still commander's "unknown command", with its suggestion (exit 2).
 */
function groupAlone(group: Command): void {
  // commander's own refusal, which its typings leave out; it throws (exitOverride).
  if (group.args.length > 0) (group as unknown as { unknownCommand(): never }).unknownCommand();
  group.outputHelp();
}

function addFlags(command: Command, flags: readonly FlagSpec[]): void {
  for (const flag of flags) {
    const option = new Option(flag.flags, flag.description);
    if (flag.choices) option.choices(flag.choices);
    if (flag.parse) option.argParser(flag.parse);
    command.addOption(option);
  }
}

/** Only what was written: commander's implied defaults (true for a --no-x flag) are not the user's words. */
function wordsOf(command: Command): Words {
  const all = command.optsWithGlobals<Record<string, unknown>>();
  const flags = Object.fromEntries(Object.entries(all).filter(([key]) => command.getOptionValueSourceWithGlobals(key) === 'cli'));
  return { args: command.processedArgs, flags };
}

function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}
