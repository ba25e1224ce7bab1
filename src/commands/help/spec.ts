import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { HELP_TOPIC_NAMES } from '../../text/help-topics.js';

export const HELP = {
  name: 'help',
  description: `help for a command, or a topic: ${HELP_TOPIC_NAMES.join(', ')}`,
  args: [{ name: '[command-or-topic...]', description: 'a command (queue update) or a topic' }],
  examples: ['mq help queue update', 'mq help exit-codes', 'mq help config', 'mq help environment'],
  load: async (): Promise<AnyParse> => (await import('./help.js')).parseHelp,
} as const satisfies CommandSpec;
