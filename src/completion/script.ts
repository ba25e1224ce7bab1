// `mq completion bash|zsh|fish`: a completion script for the shell, written from the command tree as it is when
// the script is generated. Install lines for each shell are in COMPLETION_INSTALL (shown by --help).
import type { Command } from 'commander';
import { HELP_TOPICS } from '../help/topics.js';
import { VERSION } from '../version.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionTree, type CompletionHints } from './model.js';
import { COMPLETION_INSTALL, type Shell } from '../text/shells.js';
import { zshScript } from './zsh.js';

const WRITERS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** The script for `shell`; `flagValues` (completion.ts): the values of flags not restricted by .choices(), keyed by `command path --flag`. */
export function completionScript(shell: Shell, program: Command, flagValues: CompletionHints['flagValues'] = {}): string {
  const hints: CompletionHints = {
    flagValues,
    // `mq help <topic | command...>`: a topic, or the words of a command path, each completing as a subcommand.
    argumentValues: { help: HELP_TOPICS.map((topic) => topic.name) },
    namesCommands: ['help'],
  };
  const header = [
    `${shell} completion for mq ${VERSION}, written by \`mq completion ${shell}\`: write it again after upgrading mq.`,
    'Install:',
    ...COMPLETION_INSTALL[shell].map((line) => `  ${line}`),
  ];
  return WRITERS[shell](completionTree(program, hints), header);
}
