// The lookup functions the bash and zsh scripts share: both shells read the same `case` syntax, so the tree is
// written once as functions of (command path, word). A path is the canonical names joined by spaces, '' for mq.
import { allCommands, pathKey, type CompletionCommand, type CompletionFlag } from './model.js';
import { shQuote } from './quote.js';

type Arm = { patterns: string[]; body: string };

function caseFunction(name: string, comment: string, subject: string, arms: Arm[], fallback = ''): string {
  const lines = arms.filter((arm) => arm.patterns.length > 0).map((arm) => `    ${arm.patterns.map(shQuote).join('|')}) ${arm.body} ;;`);
  return [`${name}() {`, `  # ${comment}`, `  case "${subject}" in`, ...lines, '  esac', ...(fallback ? [`  ${fallback}`] : []), '}'].join('\n');
}

/** printf rather than echo: zsh's echo reads backslashes. */
function printLines(words: readonly string[]): string {
  return `printf '%s\\n' ${words.map(shQuote).join(' ')}`;
}

/** A function that succeeds for the flags `keep` picks: `name PATH FLAG`. */
function flagTest(name: string, what: string, commands: CompletionCommand[], keep: (flag: CompletionFlag) => boolean): string {
  const arms = commands.map((command) => ({
    patterns: command.flags.filter(keep).flatMap((flag) => flag.names.map((flagName) => `${pathKey(command)}|${flagName}`)),
    body: 'return 0',
  }));
  return caseFunction(name, `whether flag $2 of the command path $1 ${what}`, '$1|$2', arms, 'return 1');
}

export function shTables(prefix: string, root: CompletionCommand): string {
  const commands = allCommands(root);
  return [
    caseFunction(
      `${prefix}_subcommand`,
      'the subcommand a word names under the command path $1, if any',
      '$1|$2',
      commands.flatMap((command) =>
        command.subcommands.map((sub) => ({
          patterns: sub.names.map((name) => `${pathKey(command)}|${name}`),
          body: printLines([sub.path.at(-1)!]),
        })),
      ),
    ),
    flagTest(`${prefix}_takes_value`, 'takes a value (the next word)', commands, (flag) => flag.takesValue),
    flagTest(`${prefix}_file_value`, 'takes a file name', commands, (flag) => flag.files),
    caseFunction(
      `${prefix}_values`,
      'the words the value of flag $2 of the command path $1 may be',
      '$1|$2',
      commands.flatMap((command) =>
        command.flags
          .filter((flag) => flag.choices.length > 0)
          .map((flag) => ({
            patterns: flag.names.map((name) => `${pathKey(command)}|${name}`),
            body: printLines(flag.choices),
          })),
      ),
    ),
    caseFunction(
      `${prefix}_names_commands`,
      'whether the positional words of the command path $1 name a command path, and the path they name one under, printed (mq help queue update: the top; mq queue help update: queue)',
      '$1',
      commands.flatMap((command) =>
        command.namesCommandsUnder === null ? [] : [{ patterns: [pathKey(command)], body: `${printLines([command.namesCommandsUnder.join(' ')])}; return 0` }],
      ),
      'return 1',
    ),
    walkFunction(prefix),
    caseFunction(
      `${prefix}_arguments`,
      'the words a positional argument of the command path $1 may be, after $2 of them given (none past the last it takes)',
      '$1',
      commands
        .filter((command) => command.argumentChoices.length > 0)
        .map((command) => ({
          patterns: [pathKey(command)],
          body:
            command.argumentsMax === null
              ? printLines(command.argumentChoices)
              : `(( \${2:-0} < ${command.argumentsMax} )) && ${printLines(command.argumentChoices)}`,
        })),
    ),
  ].join('\n\n');
}

/**
 * `_mq_walk WORD...`: reads the words before the cursor as commander would (a flag that takes a value owns the next word; bash
 * splits --flag=value into --flag, =, value). Each shell's script defines `_unquote`, which takes a word's quoting off.
 */
function walkFunction(prefix: string): string {
  return `${prefix}_walk() {
  # Sets the caller's locals (five answers, and no subshell to print them through): cmdpath, the command path the words
  # select; flag, the flag whose value comes next; count, the positional words after the path; listed, the path whose
  # listing the next word may be (under mq help, the path its words name so far, - when they name none; mq queue help
  # lists its own path, queue's commands but help); ended, 1 after --, past which a word is an argument, never a flag (commander still reads a subcommand's
  # name there). naming: the path's words name a command path, under the path $under.
  local word sub under='' naming=''
  cmdpath='' flag='' count=0 listed='' ended=''
  for word in "$@"; do
    if [[ -n $flag ]]; then
      [[ $word == '=' ]] || flag=''
      continue
    fi
    # As typed: 'queue' and "status" name what queue and status do.
    [[ $word == *[\\\\\\'\\"]* ]] && word=$(${prefix}_unquote "$word")
    if [[ -z $ended && $word == -* ]]; then
      if [[ $word == -- ]]; then
        ended=1
      else
        ${prefix}_takes_value "$cmdpath" "$word" && flag=$word
      fi
      continue
    fi
    sub=$(${prefix}_subcommand "$cmdpath" "$word")
    if [[ -n $sub ]]; then
      cmdpath=\${cmdpath:+$cmdpath }$sub
      count=0
      listed=$cmdpath
      if under=$(${prefix}_names_commands "$cmdpath"); then naming=1 listed=\${under:+$cmdpath}; else naming=''; fi
    elif [[ -n $naming && -z $under && $listed != - && $word == "\${cmdpath##* }" ]]; then
      # mq's own help reads its name in the path as nothing: mq help help queue is mq help queue, mq help queue help
      # get mq help queue get (commander's help of a group does not: mq queue help help get is refused).
      continue
    else
      count=$((count + 1))
      if [[ -n $naming ]]; then
        sub=$(${prefix}_subcommand "$listed" "$word")
        if [[ -n $sub ]]; then listed=\${listed:+$listed }$sub; else listed=-; fi
      fi
    fi
  done
  return 0
}`;
}

/** A listing function: for each command path, the lines `line(command)` gives. */
export function listFunction(name: string, comment: string, root: CompletionCommand, line: (command: CompletionCommand) => string[]): string {
  return caseFunction(
    name,
    comment,
    '$1',
    allCommands(root)
      .map((command) => ({ command, lines: line(command) }))
      .filter(({ lines }) => lines.length > 0)
      .map(({ command, lines }) => ({ patterns: [pathKey(command)], body: printLines(lines) })),
  );
}
