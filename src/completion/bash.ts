// bash completion script: plain bash (no bash-completion package needed),
// data generated from the command tree as case tables.
import { allCommands, optionNames, type CommandSpec, type ValueKind } from './command-tree.js';

export function bashScript(tree: CommandSpec): string {
  const commands = [...allCommands(tree)];
  const key = (c: CommandSpec) => c.path.join(' ');
  const cases = (rows: [string, string][]) => rows.map(([k, v]) => `    ${bashWord(k)}) printf '%s\\n' ${v} ;;`).join('\n');

  const subcommandRows = commands.filter((c) => c.subcommands.length).map((c): [string, string] => [key(c), c.subcommands.map((s) => bashWord(s.name)).join(' ')]);
  const optionRows = commands.map((c): [string, string] => [key(c), c.options.flatMap(optionNames).map(bashWord).join(' ')]);
  const valueOptionRows = commands
    .map((c): [string, string] => [key(c), c.options.filter((o) => o.value).flatMap(optionNames).map(bashWord).join(' ')])
    .filter(([, v]) => v);
  const valueRows: string[] = [];
  for (const c of commands) {
    for (const o of c.options) {
      if (!o.value || o.value.kind === 'free') continue;
      for (const name of optionNames(o)) valueRows.push(`    ${bashWord(`${key(c)}|${name}`)}) echo ${kindWord(o.value)} ;;`);
    }
  }
  const positionalRows = commands.filter((c) => c.positional && c.positional.kind !== 'free').map((c) => `    ${bashWord(key(c))}) echo ${kindWord(c.positional!)} ;;`);

  return `# bash completion for email                                -*- shell-script -*-
# Generated from the command tree by \`email completion bash\`; do not edit.
# Install: email completion bash > /etc/bash_completion.d/email
#      or: source <(email completion bash)   (in ~/.bashrc)

_email_subcommands() {
  case "$1" in
${cases(subcommandRows)}
  esac
}

_email_options() {
  case "$1" in
${cases(optionRows)}
  esac
}

_email_value_options() {
  case "$1" in
${cases(valueOptionRows)}
  esac
}

# How the value of an option is completed: choices:<words>, file, dir, profile or ids:<resource>.
_email_option_value() {
  case "$1|$2" in
${valueRows.join('\n')}
  esac
}

# How a positional argument is completed.
_email_positional() {
  case "$1" in
${positionalRows.join('\n')}
  esac
}

# Offers each line of stdin that starts with the word typed, as text: matched
# here and quoted for the line (printf %q), never handed to compgen -W, which
# expands each word it is given ($(…) in a profile name would run).
_email_offer() {
  local cur="$1" word quoted
  while IFS= read -r word; do
    [[ -n "$word" && "$word" == "$cur"* ]] || continue
    printf -v quoted '%q' "$word"
    COMPREPLY+=("$quoted")
  done
}

_email_complete_value() {
  local how="$1" cur="$2"
  case "$how" in
    choices:*) local -a words; read -ra words <<< "\${how#choices:}"; _email_offer "$cur" < <(printf '%s\\n' "\${words[@]}") ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    profile) _email_offer "$cur" < <(command email __profiles 2>/dev/null) ;;
    # Ids from the service (\`email __ids\`: an id, a tab, its name; bash shows ids alone), for
    # the profile and base URL typed on the line.
    ids:*) _email_offer "$cur" < <(command email __ids "\${how#ids:}" "\${_email_globals[@]}" 2>/dev/null | cut -f1) ;;
    *) COMPREPLY=() ;;
  esac
}

_email() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word i expect="" owner=""
  # The profile and base URL typed on the line, which \`email __ids\` is asked with.
  local -a _email_globals=()
  COMPREPLY=()
  # Walk the words before the cursor: subcommands extend the path; an option
  # that takes a value makes the next word its value ("--opt=value" too,
  # which bash splits at "=").
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ -n "$expect" ]]; then
      expect=""
      if [[ "$word" == "=" ]]; then expect="="; continue; fi
      case "$owner" in --profile|--base-url) _email_globals+=("$owner" "$word") ;; esac
      continue
    fi
    case "$word" in
      --insecure-http|--profile=*|--base-url=*) _email_globals+=("$word"); continue ;;
      -*)
        if [[ " $(_email_value_options "$path" | tr '\\n' ' ') " == *" $word "* ]]; then expect="$word"; owner="$word"; fi
        continue ;;
    esac
    if [[ " $(_email_subcommands "$path" | tr '\\n' ' ') " == *" $word "* ]]; then
      path="\${path:+$path }$word"
    fi
  done

  local prev="\${COMP_WORDS[COMP_CWORD-1]}" option=""
  if [[ "$cur" == "=" && "$prev" == -* ]]; then option="$prev"; cur="";
  elif [[ "$prev" == "=" && COMP_CWORD -ge 2 && "\${COMP_WORDS[COMP_CWORD-2]}" == -* ]]; then option="\${COMP_WORDS[COMP_CWORD-2]}";
  elif [[ -n "$expect" ]]; then option="$prev"; fi
  if [[ -n "$option" ]]; then
    [[ " $(_email_value_options "$path" | tr '\\n' ' ') " == *" $option "* ]] || return 0
    _email_complete_value "$(_email_option_value "$path" "$option")" "$cur"
    return 0
  fi

  if [[ "$cur" == -* ]]; then
    _email_offer "$cur" < <(_email_options "$path")
    return 0
  fi
  local subcommands
  subcommands="$(_email_subcommands "$path")"
  if [[ -n "$subcommands" ]]; then
    _email_offer "$cur" <<< "$subcommands"
    return 0
  fi
  _email_complete_value "$(_email_positional "$path")" "$cur"
}

complete -F _email email
`;
}

function kindWord(kind: ValueKind): string {
  if (kind.kind === 'choices') return bashWord(`choices:${kind.values.join(' ')}`);
  return kind.kind === 'ids' ? `ids:${kind.of}` : kind.kind;
}

/** A word quoted for bash when it needs it. */
function bashWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
