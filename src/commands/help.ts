// mq help [command-or-topic...]: a command's help, as its --help prints it, or a topic (src/help/).
import { showHelp } from '../help/command.js';
import type { HELP } from './command-words.js';
import { work, type Invocation, type Words } from './invocation.js';

/** `mq help [command-or-topic...]` */
export function parseHelp(words: Words<typeof HELP>): Invocation {
  const [path] = words.args;
  return work.program({ words: path }, (input, program, write) => showHelp(program, input.words, write));
}
