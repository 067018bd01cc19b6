// zsh completion script: a #compdef function that works from $fpath
// (autoloaded) and when sourced; commands and options with descriptions.
import { allCommands, optionNames, type CommandSpec, type ValueKind } from './command-tree.js';

export function zshScript(tree: CommandSpec): string {
  const commands = [...allCommands(tree)];
  const key = (c: CommandSpec) => c.path.join(' ');
  const lines = (rows: [string, string[]][]) =>
    rows.map(([k, items]) => `    ${zshWord(k)})\n${items.map((i) => `      print -r -- ${zshWord(i)}`).join('\n')}\n      ;;`).join('\n');

  const subcommandRows = commands.filter((c) => c.subcommands.length).map((c): [string, string[]] => [key(c), c.subcommands.map((s) => `${s.name}:${described(s.description)}`)]);
  const optionRows = commands.map((c): [string, string[]] => [key(c), c.options.flatMap((o) => optionNames(o).map((n) => `${n.replace(/:/g, '\\:')}:${described(o.description)}`))]);
  const valueOptionRows = commands
    .map((c): [string, string[]] => [key(c), c.options.filter((o) => o.value).flatMap(optionNames)])
    .filter(([, v]) => v.length);
  const valueRows: string[] = [];
  for (const c of commands) {
    for (const o of c.options) {
      if (!o.value || o.value.kind === 'free') continue;
      for (const name of optionNames(o)) valueRows.push(`    ${zshWord(`${key(c)}|${name}`)}) print -r -- ${kindWord(o.value)} ;;`);
    }
  }
  const positionalRows = commands.filter((c) => c.positional && c.positional.kind !== 'free').map((c) => `    ${zshWord(key(c))}) print -r -- ${kindWord(c.positional!)} ;;`);

  return `#compdef email
# zsh completion for email. Generated from the command tree by
# \`email completion zsh\`; do not edit.
# Install: email completion zsh > "\${fpath[1]}/_email"   (then restart zsh)
#      or: source <(email completion zsh)   (after compinit, in ~/.zshrc)

_email_subcommands() {
  case "$1" in
${lines(subcommandRows)}
  esac
}

_email_options() {
  case "$1" in
${lines(optionRows)}
  esac
}

_email_value_options() {
  case "$1" in
${lines(valueOptionRows)}
  esac
}

_email_option_value() {
  case "$1|$2" in
${valueRows.join('\n')}
  esac
}

_email_positional() {
  case "$1" in
${positionalRows.join('\n')}
  esac
}

_email_complete_value() {
  case "$1" in
    choices:*) local -a values; values=(\${=1#choices:}); compadd -a values ;;
    file) _files ;;
    dir) _files -/ ;;
    profile) local -a profiles; profiles=(\${(f)"$(command email __profiles 2>/dev/null)"}); compadd -a profiles ;;
    # Ids from the service (\`email __ids\`: an id, a tab, its name), for the profile and base URL typed on the line.
    ids:*)
      local -a ids
      ids=(\${(f)"$(command email __ids \${1#ids:} "\${_email_globals[@]}" 2>/dev/null)"})
      # _describe reads a backslash as an escape: doubled, each one shows.
      ids=("\${(@)ids//\\\\/\\\\\\\\}")
      ids=("\${(@)ids/$'\\t'/:}")
      _describe -t ids "\${1#ids:} id" ids ;;
  esac
}

_email() {
  local cmdpath="" word expect="" i cur="\${words[CURRENT]}"
  local -a names valueopts
  # The profile and base URL typed on the line, which \`email __ids\` is asked with.
  local -a _email_globals
  for ((i = 2; i < CURRENT; i++)); do
    word="\${(Q)words[i]}"
    if [[ -n "$expect" ]]; then
      [[ "$expect" == (--profile|--base-url) ]] && _email_globals+=("$expect" "$word")
      expect=""
      continue
    fi
    if [[ "$word" == -* ]]; then
      [[ "$word" == (--profile|--base-url)=* || "$word" == --insecure-http ]] && _email_globals+=("$word")
      [[ "$word" == *=* ]] && continue
      valueopts=("\${(@f)$(_email_value_options "$cmdpath")}")
      (( \${valueopts[(Ie)$word]} )) && expect="$word"
      continue
    fi
    names=("\${(@)\${(@f)$(_email_subcommands "$cmdpath")}%%:*}")
    (( \${names[(Ie)$word]} )) && cmdpath="\${cmdpath:+$cmdpath }$word"
  done

  if [[ -n "$expect" ]]; then
    _email_complete_value "$(_email_option_value "$cmdpath" "$expect")"
    return
  fi
  if [[ "$cur" == -*=* ]]; then
    local option="\${cur%%=*}"
    compset -P '*='
    _email_complete_value "$(_email_option_value "$cmdpath" "$option")"
    return
  fi
  if [[ "$cur" == -* ]]; then
    local -a options
    options=("\${(@f)$(_email_options "$cmdpath")}")
    _describe -t options 'option' options
    return
  fi
  local -a subcommands
  subcommands=("\${(@f)$(_email_subcommands "$cmdpath")}")
  if [[ -n "\${subcommands[1]}" ]]; then
    _describe -t commands 'email command' subcommands
    return
  fi
  _email_complete_value "$(_email_positional "$cmdpath")"
}

if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _email "$@"
else
  compdef _email email
fi
`;
}

function kindWord(kind: ValueKind): string {
  return zshWord(kind.kind === 'choices' ? `choices:${kind.values.join(' ')}` : kind.kind === 'ids' ? `ids:${kind.of}` : kind.kind);
}

function zshWord(text: string): string {
  return /^[A-Za-z0-9_@%+=,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A description as _describe shows it: a backslash there escapes the next character, so each is doubled. */
function described(text: string): string {
  return text.replace(/\\/g, '\\\\');
}
