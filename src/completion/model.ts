// The command tree as shell completion sees it, read from commander's own objects (through its Help class, which
// knows what is hidden), so that a command or flag added to the command table (src/cli/table.ts) completes with
// no further work.
import type { Command, Option } from 'commander';
import { takesGroupFlags } from './group-flags.js';

export interface CompletionFlag {
  /** Long name first, then the short one: ['--output', '-o']. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** The words its value may be; empty when it may be anything. */
  choices: readonly string[];
  /** Its value is a file name (the placeholder says file, path or dir): the shell completes paths. */
  files: boolean;
}

export interface CompletionCommand {
  /** Canonical names from the top: [] for mq itself, ['queue', 'update'] for `mq queue update`. */
  path: string[];
  /** The name and any aliases: words that select this command. */
  names: string[];
  description: string;
  subcommands: CompletionCommand[];
  /**
   * The commands offered for the next word where the scripts list this path: its subcommands; for commander's help
   * of a group, the group's others (it refuses its own name there: mq queue help help exits 2).
   */
  listing: CompletionCommand[];
  /** The flags it accepts: its own, then every ancestor's (commander reads a parent's anywhere after it); a name defined nearer wins. */
  flags: CompletionFlag[];
  /** The words its positional arguments may be. */
  argumentChoices: string[];
  /** How many positional arguments it takes; null: any number (a variadic one). A word past them is refused. */
  argumentsMax: number | null;
  /**
   * Where its positional words name a command path, the path they name one under: [] for `mq help queue update`, whose
   * words complete as subcommands from the top; ['queue'] for commander's help of a group, `mq queue help update`.
   * null where they name none.
   */
  namesCommandsUnder: string[] | null;
}

/** Values for what commander itself does not restrict, keyed by command path and flag (`list --state`) or path. */
export interface CompletionHints {
  flagValues?: Readonly<Record<string, readonly string[]>>;
  argumentValues?: Readonly<Record<string, readonly string[]>>;
  /** Paths of the commands whose positional words name a command path from the top (`help`). */
  namesCommands?: readonly string[];
}

export function completionTree(program: Command, hints: CompletionHints = {}): CompletionCommand {
  return node(program, [], [], hints, []);
}

/** Every command of the tree, mq itself first, parents before their subcommands. */
export function allCommands(root: CompletionCommand): CompletionCommand[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}

/** The key completion scripts use for a command: its path joined by spaces, '' for mq itself. */
export function pathKey(command: CompletionCommand): string {
  return command.path.join(' ');
}

/** `global`: mq's own flags, every command's; a group's own reach only a subcommand that takes them (group-flags.ts). */
function node(command: Command, path: string[], inherited: CompletionFlag[], hints: CompletionHints, global: CompletionFlag[]): CompletionCommand {
  const help = command.createHelp();
  const key = path.join(' ');
  const own = help.visibleOptions(command).map((option) => flag(option, hints.flagValues?.[`${key} ${option.long ?? option.short}`.trim()]));
  const flags = [...own, ...inherited.filter((parent) => !parent.names.some((name) => own.some((o) => o.names.includes(name))))];
  // commander's help of a group (`mq queue help update`) takes the name of one of the group's subcommands.
  const namesCommandsUnder = hints.namesCommands?.includes(key) ? [] : path.length > 1 && path.at(-1) === 'help' ? path.slice(0, -1) : null;
  const argumentChoices = [...command.registeredArguments.flatMap((argument) => argument.argChoices ?? []), ...(hints.argumentValues?.[key] ?? [])];
  const subcommands = help
    .visibleCommands(command)
    .map((sub) => node(sub, [...path, sub.name()], path.length === 0 || takesGroupFlags(sub) ? flags : global, hints, path.length === 0 ? flags : global));
  for (const sub of subcommands) if (path.length > 0 && sub.namesCommandsUnder?.join(' ') === key) sub.listing = subcommands.filter((other) => other !== sub);
  return {
    path,
    names: [command.name(), ...command.aliases()],
    description: command.description(),
    subcommands,
    listing: subcommands,
    flags,
    argumentChoices: [...new Set(argumentChoices)],
    // Such a command's own choices (help's topics) stand alone: after one, or after a command's name, none is taken.
    argumentsMax:
      namesCommandsUnder !== null ? 1 : command.registeredArguments.some((argument) => argument.variadic) ? null : command.registeredArguments.length,
    namesCommandsUnder,
  };
}

const FILE_PLACEHOLDER = /^(?:file|path|dir|directory)$/i;

function flag(option: Option, hinted: readonly string[] | undefined): CompletionFlag {
  const takesValue = option.required || option.optional;
  const choices = takesValue ? (option.argChoices ?? hinted ?? []) : [];
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  return {
    names: [option.long, option.short].filter((name): name is string => name !== undefined),
    // commander's --no-x flags often come without words of their own.
    description: option.description || (option.negate && option.long ? `the opposite of --${option.long.slice(5)}` : ''),
    takesValue,
    choices,
    files: takesValue && choices.length === 0 && FILE_PLACEHOLDER.test(placeholder),
  };
}
