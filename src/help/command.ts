// `mq help [command... | topic]`: commander's own help for a command path (`mq help queue update` prints what
// `mq queue update --help` does), or a topic. A real `help` command replaces commander's implicit one, which
// knows nothing of topics.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { HELP_TOPICS, type HelpTopic } from './topics.js';

type HelpFound = { command: Command } | { topic: HelpTopic };

function findHelp(program: Command, words: readonly string[]): HelpFound {
  // `mq help help queue` is `mq help queue`, as a group's help word is in a path (`mq help queue help get`); `mq help
  // help` alone is help's own help. Completion reads the words so too.
  let start = 0;
  while (start < words.length - 1 && words[start] === 'help') start++;
  const path = words.slice(start);
  const topic = path.length === 1 ? HELP_TOPICS.find((t) => t.name === path[0]) : undefined;
  if (topic) return { topic };
  let command = program;
  for (const word of path) {
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    // A group's own `help` (`mq queue help` is queue's help), which completion offers beside its subcommands.
    if (!sub && word === 'help' && command !== program && command.commands.length > 0) continue;
    if (!sub) {
      const topics = HELP_TOPICS.map((t) => t.name).join(', ');
      const commands = 'mq --help';
      throw new UsageError(`no command or help topic "${words.join(' ')}" (topics: ${topics}; commands: ${commands})`, { commands: [commands] });
    }
    command = sub;
  }
  return { command };
}

/** Prints the help `words` ask for: a command's through commander (its configured output), a topic's through `write`. */
export async function showHelp(program: Command, words: readonly string[], write: (text: string) => void): Promise<void> {
  const found = findHelp(program, words);
  if ('command' in found) return found.command.outputHelp();
  // Laid out as commander lays out the command's help: its Help, at the width of the output it writes to.
  const help = program.createHelp();
  help.prepareContext({ helpWidth: program.configureOutput().getOutHelpWidth?.() });
  write(await found.topic.text(help, program));
}
