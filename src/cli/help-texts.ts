// The text of `mq --help` and of every `mq <command...> --help` as commander prints it into a pipe (80 columns,
// no colour), keyed by the command path ('' for mq itself). The build writes it to dist/help.json, from which
// bin/mq.js answers those calls without loading the program; test/cli/help-texts.test.ts holds it to commander.
import type { Command } from 'commander';
import { buildProgram, PIPE_COLUMNS, wholeProgram } from './program.js';

/** What the shim reads: the width the texts were wrapped to, and the texts by command path. */
export interface HelpTexts {
  columns: number;
  texts: Record<string, string>;
}

export function helpTexts(): HelpTexts {
  let captured = '';
  const capture = { write: (text: string) => (captured += text) };
  const program = wholeProgram(buildProgram({ stdout: capture, stderr: capture }, async () => undefined));
  const texts: Record<string, string> = {};
  const visit = (command: Command, path: string[]) => {
    command.configureOutput({ getOutHelpWidth: () => PIPE_COLUMNS, getOutHasColors: () => false });
    captured = '';
    command.outputHelp();
    texts[path.join(' ')] = captured;
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return { columns: PIPE_COLUMNS, texts };
}
