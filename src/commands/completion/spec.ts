import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { COMPLETION_INSTALL, SHELLS } from '../../text/shells.js';

export const COMPLETION = {
  name: 'completion',
  description: 'print a shell completion script: bash, zsh or fish',
  args: [{ name: '<shell>', description: 'bash, zsh or fish', choices: SHELLS }],
  examples: SHELLS.flatMap((shell) => COMPLETION_INSTALL[shell]),
  notes: '\nWrite the script again after upgrading mq: it lists the commands of this version.\n',
  load: async (): Promise<AnyParse> => (await import('./completion.js')).parseCompletion,
} as const satisfies CommandSpec;
