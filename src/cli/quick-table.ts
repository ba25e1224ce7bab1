// What quickCommand (quick.ts) reads of the command table: each command of the top level that has no
// subcommands, with its arguments, its own flags' words and its loader; and the global flags that take no value.
// Derived here from the table. The bundle holds it as data instead (scripts/build.mjs, builtQuickTable): a start
// that reads its line quickly then never evaluates the table, whose help texts and every flag of every command
// were a millisecond and a tenth of the allocation of `mq status 42 --json`.
import type { AnyParse, ArgSpec } from './table.js';
import { COMMANDS, GLOBAL_FLAGS } from './table.js';

export interface QuickSpec {
  args: readonly ArgSpec[];
  /** The words of the command's own flags (`--for`, `<state>`…): a line that has one is commander's. */
  own: readonly string[];
  load: () => Promise<AnyParse>;
}

export interface QuickSwitch {
  /** The flag's words as written (`-q`, `--quiet`). */
  written: string[];
  /** commander's name for it, and the value it sets: `--no-color` sets color to false. */
  key: string;
  value: boolean;
}

export const QUICK_COMMANDS: Readonly<Record<string, QuickSpec>> = Object.fromEntries(
  COMMANDS.flatMap((spec) =>
    spec.load && !spec.subcommands
      ? [[spec.name, { args: spec.args ?? [], own: (spec.flags ?? []).flatMap((flag) => flag.flags.split(/[,\s]+/)), load: spec.load }]]
      : [],
  ),
);

/** The global flags that take no value. */
export const QUICK_SWITCHES: readonly QuickSwitch[] = GLOBAL_FLAGS.filter((flag) => !/[<[]/.test(flag.flags)).map((flag) => {
  const written = flag.flags.split(/,\s*/);
  const long = written.find((word) => word.startsWith('--'))!.slice(2);
  const negated = long.startsWith('no-');
  return { written, key: camelCase(negated ? long.slice(3) : long), value: !negated };
});

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
