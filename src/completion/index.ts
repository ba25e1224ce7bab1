// `mq completion bash|zsh|fish`: a completion script for the shell, written from the command tree as it is when
// the script is generated. Install lines for each shell are in COMPLETION_INSTALL (shown by --help).
import type { Command } from 'commander';
import { PRIORITY_NAMES, PULL_REQUEST_STATES } from '../api/schemas.js';
import { HELP_TOPICS } from '../help/topics.js';
import { VERSION } from '../version.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionTree, type CompletionHints } from './model.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * Values of flags that commander does not restrict with .choices(), because their parsers accept more (any case,
 * a number). A flag declared with .choices() needs no line here.
 */
const FLAG_VALUES: Record<string, readonly string[]> = {
  'list --state': PULL_REQUEST_STATES,
  'wait --for': PULL_REQUEST_STATES,
  'submit --priority': Object.keys(PRIORITY_NAMES),
};

/** How to install each script, as shell lines: in the header of the script and in `mq completion --help`. */
export const COMPLETION_INSTALL: Record<Shell, readonly string[]> = {
  bash: [
    'mkdir -p ~/.local/share/bash-completion/completions   # read by the bash-completion package',
    'mq completion bash > ~/.local/share/bash-completion/completions/mq',
    'source <(mq completion bash)   # or this line in ~/.bashrc',
  ],
  zsh: [
    'mq completion zsh > "${fpath[1]}/_mq"   # any directory in $fpath; then open a new shell',
    'source <(mq completion zsh)   # or this line in ~/.zshrc, after compinit',
  ],
  fish: ['mq completion fish > ~/.config/fish/completions/mq.fish'],
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
