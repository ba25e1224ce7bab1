// `mq completion bash|zsh|fish`: a completion script for the shell, written from the command tree as it is when
// the script is generated. Install lines for each shell are in COMPLETION_INSTALL (shown by --help).
import type { Command } from 'commander';
import { VOCABULARY } from '../cli/vocabulary.js';
import { work, type Invocation, type Words } from '../commands/invocation.js';
import { HELP_TOPICS } from '../help/topics.js';
import { VERSION } from '../version.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionTree, type CompletionHints } from './model.js';
import { COMPLETION_INSTALL, type Shell } from './shells.js';
import { zshScript } from './zsh.js';

/** `mq completion <shell>` */
export function parseCompletion(words: Words): Invocation {
  const [shell] = words.args as [Shell];
  return work.program({ shell }, (input, program, write) => write(completionScript(input.shell, program)));
}

/**
 * Values of flags that commander does not restrict with .choices(), because their parsers accept more (any case,
 * a number). A flag declared with .choices() needs no line here.
 */
const FLAG_VALUES: Record<string, readonly string[]> = {
  'list --state': VOCABULARY.pullRequestStates,
  'wait --for': VOCABULARY.pullRequestStates,
  'submit --priority': VOCABULARY.priorityNames,
};

const WRITERS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export function completionScript(shell: Shell, program: Command): string {
  const hints: CompletionHints = {
    flagValues: FLAG_VALUES,
    // `mq help <command|topic>`
    argumentValues: {
      help: [...program.createHelp().visibleCommands(program).map((command) => command.name()), ...HELP_TOPICS.map((topic) => topic.name)],
    },
  };
  const header = [
    `${shell} completion for mq ${VERSION}, written by \`mq completion ${shell}\`: write it again after upgrading mq.`,
    'Install:',
    ...COMPLETION_INSTALL[shell].map((line) => `  ${line}`),
  ];
  return WRITERS[shell](completionTree(program, hints), header);
}
