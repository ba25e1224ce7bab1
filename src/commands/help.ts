// mq help [command-or-topic...]: a command's help, as its --help prints it, or a topic (src/help/).
import { showHelp } from '../help/command.js';
import { work, type Invocation, type Words } from './invocation.js';

/** `mq help [command-or-topic...]` */
export function parseHelp(words: Words): Invocation {
  const [path] = words.args as [string[]];
  return work.program({ words: path }, (input, program, write) => showHelp(program, input.words, write));
}
