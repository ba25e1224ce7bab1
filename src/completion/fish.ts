// `mq completion fish`: fish's own `complete` lines, one per subcommand and flag, each behind a condition on the
// command path of the words before the cursor; fish itself offers a flag's values after the flag.
import { allCommands, pathKey, type CompletionCommand, type CompletionFlag } from './model.js';
import { fishQuote, oneLine } from './quote.js';

export function fishScript(root: CompletionCommand, header: readonly string[]): string {
  const commands = allCommands(root);
  const lines: string[] = [
    ...header.map((line) => `# ${line}`.trimEnd()),
    '',
    switchFunction(
      '__mq_subcommand',
      'the subcommand a word names under a command path',
      'cmdpath word',
      commands.flatMap((command) =>
        command.subcommands.map((sub) => ({ patterns: sub.names.map((name) => `${pathKey(command)}|${name}`), body: `echo ${fishQuote(sub.path.at(-1)!)}` })),
      ),
    ),
    '',
    switchFunction(
      '__mq_takes_value',
      'whether a flag of a command path takes a value (the next word)',
      'cmdpath flag',
      commands.map((command) => ({
        patterns: command.flags.filter((flag) => flag.takesValue).flatMap((flag) => flag.names.map((name) => `${pathKey(command)}|${name}`)),
        body: 'return 0',
      })),
      'return 1',
    ),
    '',
    switchFunction(
      '__mq_names_commands',
      'whether the positional words of a command path name a command path, and the path they name one under, printed (mq help queue update: the top; mq queue help update: queue)',
      'cmdpath',
      commands.flatMap((command) =>
        command.namesCommandsUnder === null
          ? []
          : [{ patterns: [pathKey(command)], body: `echo ${fishQuote(command.namesCommandsUnder.join(' '))}; return 0` }],
      ),
      'return 1',
    ),
    '',
    `function __mq_path --description 'the command path of the words before the cursor, the positional words after it, the path whose subcommands come next'
    set -l words (commandline -opc)
    set -e words[1]
    set -l cmdpath ''
    set -l flag ''
    set -l count 0
    # listed: under mq help, the path its words name so far (- when they name none); mq queue help lists its own path,
    # queue's commands but help. Past --, a word is never a flag. naming: the path's words name a command path, under
    # the path $under.
    set -l listed ''
    set -l ended ''
    set -l naming ''
    set -l under ''
    for word in $words
        if test -n "$flag"
            set flag ''
        else if test -z "$ended"; and test "$word" = --
            set ended 1
        else if test -z "$ended"; and string match -q -- '-*' $word
            __mq_takes_value "$cmdpath" $word; and set flag $word
        else
            set -l sub (__mq_subcommand "$cmdpath" $word)
            if test -n "$sub"
                set cmdpath (string trim -- "$cmdpath $sub")
                set count 0
                set listed $cmdpath
                set naming ''
                if set under (__mq_names_commands "$cmdpath")
                    set naming 1
                    set listed "$under"
                    test -n "$under"; and set listed $cmdpath
                end
            else if test -n "$naming"; and test -z "$under"; and test "$listed" != -; and test "$word" = (string split ' ' -- "$cmdpath")[-1]
                # mq's own help reads its name in the path as nothing: mq help help queue is mq help queue, mq help queue help
                # get mq help queue get (commander's help of a group does not: mq queue help help get is refused).
            else
                set count (math $count + 1)
                if test -n "$naming"
                    set sub (__mq_subcommand "$listed" $word)
                    if test -n "$sub"
                        set listed (string trim -- "$listed $sub")
                    else
                        set listed -
                    end
                end
            end
        end
    end
    echo $cmdpath
    echo $count
    echo $listed
end

function __mq_lists --argument-names want --description 'the next word may be a subcommand of this command (after mq help, of the command its words name)'
    set -l got (__mq_path)
    test "$got[3]" = "$want"
end

function __mq_at --argument-names want --description 'the words before the cursor select exactly this command'
    set -l got (__mq_path)
    test "$got[1]" = "$want"
end

function __mq_room --argument-names want most --description 'this command, with fewer positional words than it takes'
    set -l got (__mq_path)
    test "$got[1]" = "$want"; and test "$got[2]" -lt $most
end

function __mq_under --argument-names want --description 'the words before the cursor select this command or one below it'
    set -l got (__mq_path)
    test "$got[1]" = "$want"; or string match -q -- "$want *" "$got[1]"
end`,
    '',
    '# Nothing mq takes is a file name, but for flags that say so.',
    'complete -c mq -f',
  ];
  for (const command of commands) {
    const at = condition('__mq_at', command);
    for (const sub of command.listing) {
      lines.push(`complete -c mq -n ${condition('__mq_lists', command)} -a ${fishQuote(sub.path.at(-1)!)} -d ${fishQuote(oneLine(sub.description))}`);
    }
    if (command.argumentChoices.length > 0) {
      // None past the last positional argument it takes: that word is refused.
      const room = command.argumentsMax === null ? at : fishQuote(`__mq_room ${fishQuote(pathKey(command))} ${command.argumentsMax}`);
      lines.push(`complete -c mq -n ${room} -a ${fishQuote(command.argumentChoices.join(' '))}`);
    }
    const parent = commands.find((other) => other.subcommands.includes(command));
    for (const flag of command.flags.filter((flag) => !parent?.flags.some((inherited) => sameFlag(inherited, flag)))) {
      lines.push(flagLine(flag, command));
    }
  }
  return `${lines.join('\n')}\n`;
}

function condition(name: string, command: CompletionCommand): string {
  return fishQuote(`${name} ${fishQuote(pathKey(command))}`);
}

/** A flag is given once, at the highest command that has it: fish's condition covers the commands below. */
function flagLine(flag: CompletionFlag, command: CompletionCommand): string {
  const parts = ['complete -c mq'];
  if (command.path.length > 0) parts.push(`-n ${condition('__mq_under', command)}`);
  for (const name of flag.names) parts.push(name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (flag.choices.length > 0) parts.push(`-x -a ${fishQuote(flag.choices.join(' '))}`);
  else if (flag.files) parts.push('-r -F');
  else if (flag.takesValue) parts.push('-x');
  parts.push(`-d ${fishQuote(oneLine(flag.description))}`);
  return parts.join(' ');
}

function sameFlag(a: CompletionFlag, b: CompletionFlag): boolean {
  return a === b || (a.names.join() === b.names.join() && a.takesValue === b.takesValue && a.choices.join() === b.choices.join());
}

function switchFunction(name: string, description: string, argumentNames: string, arms: { patterns: string[]; body: string }[], fallback = ''): string {
  const subject = argumentNames
    .split(' ')
    .map((arg) => `$${arg}`)
    .join('|');
  return [
    `function ${name} --argument-names ${argumentNames} --description ${fishQuote(description)}`,
    `    switch "${subject}"`,
    ...arms.filter((arm) => arm.patterns.length > 0).flatMap((arm) => [`        case ${arm.patterns.map(fishQuote).join(' ')}`, `            ${arm.body}`]),
    '    end',
    ...(fallback ? [`    ${fallback}`] : []),
    'end',
  ].join('\n');
}
