// A command line simple enough to read without commander: a command of the top level that has no subcommands,
// then only its positional words and the global switches (--json, -q, --no-color…), as `mq status 42 --json`
// and most lines a script runs are. Building the commander program is some milliseconds of every start; this
// hands the runner the very words commander would. Anything else (a flag with a value, short flags run
// together, --help, `--`, a word commander would refuse) is commander's, with its errors and its help.
// test/cli/quick.test.ts holds every answer to commander's own reading of the same line.
import type { Parse, Words } from '../commands/invocation.js';
import { QUICK_COMMANDS, QUICK_SWITCHES, type QuickSpec } from './quick-table.js';
import type { ArgSpec } from './table.js';

export interface QuickCommand {
  load: () => Promise<Parse>;
  words: Words;
}

/** The command and the words commander would hand its action for `argv`, or undefined: commander must read it. */
export function quickCommand(argv: readonly string[]): QuickCommand | undefined {
  const [name = '', ...rest] = argv;
  const spec = Object.hasOwn(QUICK_COMMANDS, name) ? QUICK_COMMANDS[name] : undefined;
  if (!spec) return undefined;
  const own = new Set(spec.own);
  const positional: string[] = [];
  const flags: Record<string, boolean> = {};
  for (const word of rest) {
    if (!word.startsWith('-')) {
      positional.push(word);
      continue;
    }
    const flag = QUICK_SWITCHES.find((candidate) => candidate.written.includes(word));
    if (!flag || own.has(word)) return undefined;
    flags[flag.key] = flag.value;
  }
  const args = processedArgs(spec, positional);
  return args && { load: spec.load, words: { args, flags } };
}

/** commander's processedArgs: one value per declared argument, a variadic one the rest as an array. */
function processedArgs(spec: QuickSpec, positional: readonly string[]): Words['args'] | undefined {
  const declared: readonly ArgSpec[] = spec.args;
  const variadic = (arg: ArgSpec) => /\.\.\.[>\]]$/.test(arg.name);
  // Too few or too many words, or a choice to check: commander says so, in its words.
  if (declared.some((arg, index) => (arg.name.startsWith('<') && index >= positional.length) || arg.choices)) return undefined;
  if (!declared.some(variadic) && positional.length > declared.length) return undefined;
  // As commander's processedArgs, typed by the command's own specs where its parsing reads them.
  return declared.map((arg, index) => (variadic(arg) ? positional.slice(index) : positional[index])) as Words['args'];
}
