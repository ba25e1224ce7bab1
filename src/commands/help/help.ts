// mq help [command-or-topic...]: a command's help, as its --help prints it, or a topic (src/help/).
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { HELP } from './spec.js';

/** `mq help [command-or-topic...]` */
export function parseHelp(words: Words<typeof HELP>): Invocation {
  const [path] = words.args;
  return work.program({ show: 'help', words: path });
}
