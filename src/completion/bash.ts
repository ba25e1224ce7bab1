// `mq completion bash`: a script that completes subcommands, flags and flag values from tables written out of the
// command tree. Nothing runs mq at completion time, so a TAB costs no Node start-up. Works in bash 3.2 and up.
import type { CompletionCommand } from './model.js';
import { listFunction, shTables } from './sh-tables.js';

export function bashScript(root: CompletionCommand, header: readonly string[]): string {
  return `${header.map((line) => `# ${line}`.trimEnd()).join('\n')}

${shTables('_mq', root)}

${listFunction('_mq_subcommands', 'the subcommands offered where the walk lists the command path $1', root, (command) => command.listing.map((sub) => sub.path.at(-1)!))}

${listFunction('_mq_flags', 'the flags of the command path $1', root, (command) => command.flags.flatMap((flag) => flag.names))}

_mq_unquote() {
  # $1 with its quoting taken off as bash would: '...', $'...' (its escapes read), "..." and backslashes (nothing is
  # expanded, nothing run); with $2, what comes before a quote still open at its end (u"p: u), where readline's word
  # to replace begins
  local rest=$1 out='' quote='' opened='' c escape='^(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[abeEfnrtv])'
  while [[ -n $rest ]]; do
    c=\${rest:0:1}
    rest=\${rest:1}
    # $quote is ' or " inside those quotes, $ inside $'...'.
    case $quote$c in
      "''" | '""' | "\\$'") quote='' ;;
      '"\\') [[ \${rest:0:1} == [\\\\\\$\\\`\\"] ]] && c=\${rest:0:1} && rest=\${rest:1}; out+=$c ;;
      '$\\')
        # An escape of $'...' as printf's format reads it (\\n, \\x71, \\161, \\u263a); \\\\, \\', \\" and \\? are the character.
        if [[ $rest =~ $escape ]]; then
          printf -v c "\\\\\${BASH_REMATCH[0]}"
          rest=\${rest:\${#BASH_REMATCH[0]}}
        elif [[ \${rest:0:1} == [\\\\\\'\\"?] ]]; then
          c=\${rest:0:1}
          rest=\${rest:1}
        fi
        out+=$c
        ;;
      "'"? | '"'? | '$'?) out+=$c ;;
      "'" | '"') quote=$c opened=$out ;;
      # $'...' and $"..." (a translated "...", read as one).
      '$')
        case \${rest:0:1} in
          "'") quote='$' opened=$out rest=\${rest:1} ;;
          '"') quote='"' opened=$out rest=\${rest:1} ;;
          *) out+=$c ;;
        esac
        ;;
      '\\') out+=\${rest:0:1}; rest=\${rest:1} ;;
      *) out+=$c ;;
    esac
  done
  if [[ -n $2 ]]; then printf '%s\\n' "\${quote:+$opened}"; else printf '%s\\n' "$out"; fi
}

_mq_completion() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmdpath flag count listed ended lead='' IFS=$'\\n'
  COMPREPLY=()
  # COMP_WORDS are the words as typed: "--w completes as --w does.
  if [[ $cur == *[\\\\\\'\\"]* ]]; then
    # A quote opened inside the word (u"p): readline replaces only what follows it, so each answer goes without what
    # comes before it (pdate, read with the u"…" around it as update).
    lead=$(_mq_unquote "$cur" open)
    cur=$(_mq_unquote "$cur")
  fi
  # The walk answers 0 and each compgen that finds nothing 1, taken by \`|| :\`: a shell under set -e (or an ERR trap)
  # is not ended (or told) by a TAB that offers nothing.
  _mq_walk "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  local prefix=''
  if [[ -z $flag && -z $ended && $cur == --*=* ]]; then
    # --flag=value as one word (= not in COMP_WORDBREAKS): the answers must keep the --flag= part.
    flag=\${cur%%=*}
    prefix=$flag=
    cur=\${cur#*=}
  fi
  [[ $cur == = ]] && cur=''
  # compgen takes the quoting off the word it matches once more (u"p, as typed u\\"p, would match update): it gets the
  # word quoted back.
  local word
  printf -v word '%q' "$cur"
  if [[ -n $flag ]]; then
    if _mq_file_value "$cmdpath" "$flag"; then
      compopt -o filenames 2>/dev/null || :
      COMPREPLY=($(compgen -f -- "$cur")) || :
    else
      COMPREPLY=($(compgen -W "$(_mq_values "$cmdpath" "$flag")" -- "$word")) || :
    fi
    [[ -n $prefix && \${#COMPREPLY[@]} -gt 0 ]] && COMPREPLY=("\${COMPREPLY[@]/#/$prefix}")
  elif [[ -z $ended && $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_mq_flags "$cmdpath")" -- "$word")) || :
  else
    COMPREPLY=($(compgen -W "$(_mq_subcommands "$listed"; _mq_arguments "$cmdpath" "$count")" -- "$word")) || :
  fi
  [[ -n $lead && \${#COMPREPLY[@]} -gt 0 ]] && COMPREPLY=("\${COMPREPLY[@]#"$lead"}")
  return 0
}

complete -F _mq_completion mq
`;
}
