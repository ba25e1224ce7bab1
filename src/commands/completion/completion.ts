// mq completion <shell>: the script, written from the command tree (src/completion/).
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { VOCABULARY } from '../../command-kit/vocabulary.js';
import type { COMPLETION } from './spec.js';

/** Values of flags whose parsers accept more than commander's .choices() would (any case, a number); a flag with .choices() needs no line here. */
const FLAG_VALUES: Record<string, readonly string[]> = {
  'list --state': VOCABULARY.pullRequestStates,
  'wait --for': VOCABULARY.pullRequestStates,
  'submit --priority': VOCABULARY.priorityNames,
  'edit --priority': VOCABULARY.priorityNames,
  'stats --by': ['author'],
};

/** `mq completion <shell>` */
export function parseCompletion(words: Words<typeof COMPLETION>): Invocation {
  const [shell] = words.args;
  return work.program({ show: 'completion', shell, flagValues: FLAG_VALUES });
}
