// `mq completion zsh`: the same tables as bash, with descriptions beside commands and flags. It works both from
// a directory in $fpath (as `_mq`) and sourced from ~/.zshrc after compinit.
import type { CompletionCommand } from './model.js';
import { oneLine } from './quote.js';
import { listFunction, shTables } from './sh-tables.js';

/** `name:description`, as _describe reads it (a colon in the name would need a backslash; mq's names have none). */
const described = (name: string, description: string) => `${name}:${oneLine(description)}`;

export function zshScript(root: CompletionCommand, header: readonly string[]): string {
  return `#compdef mq
${header.map((line) => `# ${line}`.trimEnd()).join('\n')}

${shTables('_mq', root)}

${listFunction('_mq_subcommands', 'name:description of each subcommand offered where the walk lists the command path $1', root, (command) =>
  command.listing.map((sub) => described(sub.path.at(-1)!, sub.description)),
)}

${listFunction('_mq_flags', 'flag:description of each flag of the command path $1', root, (command) =>
  command.flags.flatMap((flag) => flag.names.map((name) => described(name, flag.description))),
)}

_mq_unquote() {
  # $1 with its quoting taken off, as zsh reads it (nothing is expanded, nothing run)
  print -r -- "\${(Q)1}"
}

_mq() {
  # PREFIX: the word under the cursor as far as the cursor, its quoting already off.
  local cur=$PREFIX cmdpath flag count listed ended
  local -a entries
  _mq_walk "\${(@)words[2,CURRENT-1]}"
  if [[ -z $flag && -z $ended && $cur == --*=* ]]; then
    flag=\${cur%%=*}
    compset -P '*='
  fi
  if [[ -n $flag ]]; then
    if _mq_file_value "$cmdpath" "$flag"; then
      _files
    else
      entries=(\${(f)"$(_mq_values "$cmdpath" "$flag")"})
      (( \${#entries} )) && compadd -a entries
    fi
  elif [[ -z $ended && $cur == -* ]]; then
    entries=(\${(f)"$(_mq_flags "$cmdpath")"})
    _describe -t options 'flag' entries
  else
    entries=(\${(f)"$(_mq_subcommands "$listed")"})
    (( \${#entries} )) && _describe -t commands 'command' entries
    entries=(\${(f)"$(_mq_arguments "$cmdpath" "$count")"})
    (( \${#entries} )) && compadd -a entries
  fi
  return 0
}

if [[ "\${funcstack[1]}" == _mq ]]; then
  _mq "$@"
else
  compdef _mq mq
fi
`;
}
