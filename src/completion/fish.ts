// fish completion script: one `complete` line per command, option and value,
// guarded by the command path typed so far.
import { allCommands, optionNames, type CommandSpec, type OptionSpec } from './command-tree.js';

export function fishScript(tree: CommandSpec): string {
  const commands = [...allCommands(tree)];
  const key = (c: CommandSpec) => c.path.join(' ');
  const subcommandCases = commands
    .filter((c) => c.subcommands.length)
    .map((c) => `        case ${fishWord(key(c))}\n            printf '%s\\n' ${c.subcommands.map((s) => fishWord(s.name)).join(' ')}`)
    .join('\n');
  const valueOptionCases = commands
    .map((c) => [c, c.options.filter((o) => o.value).flatMap(optionNames)] as const)
    .filter(([, names]) => names.length)
    .map(([c, names]) => `        case ${fishWord(key(c))}\n            printf '%s\\n' ${names.map(fishWord).join(' ')}`)
    .join('\n');

  const lines: string[] = [];
  for (const c of commands) {
    const at = `-n ${fishWord(`__email_at ${fishWord(key(c))}`)}`;
    for (const s of c.subcommands) lines.push(`complete -c email ${at} -a ${fishWord(s.name)} -d ${fishWord(s.description)}`);
    for (const o of c.options) lines.push(`complete -c email ${at} ${fishOption(o)}`);
    if (c.positional?.kind === 'choices') lines.push(`complete -c email ${at} -a ${fishWord(c.positional.values.join(' '))}`);
    if (c.positional?.kind === 'file') lines.push(`complete -c email ${at} -F`);
    if (c.positional?.kind === 'dir') lines.push(`complete -c email ${at} -a '(__fish_complete_directories)'`);
    if (c.positional?.kind === 'profile') lines.push(`complete -c email ${at} -f -a '(command email __profiles 2>/dev/null)'`);
    if (c.positional?.kind === 'ids') lines.push(`complete -c email ${at} -f -a ${idsOf(c.positional.of)}`);
  }

  return `# fish completion for email. Generated from the command tree by
# \`email completion fish\`; do not edit.
# Install: email completion fish > ~/.config/fish/completions/email.fish

function __email_subcommands
    switch "$argv[1]"
${subcommandCases}
    end
end

function __email_value_options
    switch "$argv[1]"
${valueOptionCases}
    end
end

# The command path typed so far, e.g. "campaigns unsubscribes".
function __email_path
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path ""
    set -l expect 0
    for token in $tokens
        if test $expect -eq 1
            set expect 0
            continue
        end
        switch $token
            case '-*=*'
                continue
            case '-*'
                if contains -- $token (__email_value_options "$path")
                    set expect 1
                end
                continue
        end
        if contains -- $token (__email_subcommands "$path")
            set path (string trim -- "$path $token")
        end
    end
    echo $path
end

function __email_at
    test "$(__email_path)" = "$argv[1]"
end

# The profile and base URL typed on the line, which \`email __ids\` is asked with.
function __email_globals
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l owner ""
    for token in $tokens
        if test -n "$owner"
            printf '%s\\n' $owner $token
            set owner ""
            continue
        end
        switch $token
            case --profile --base-url
                set owner $token
            case '--profile=*' '--base-url=*' --insecure-http
                printf '%s\\n' $token
        end
    end
end

complete -c email -f
${lines.join('\n')}
`;
}

function fishOption(o: OptionSpec): string {
  const parts: string[] = [];
  if (o.short) parts.push(`-s ${fishWord(o.short.slice(1))}`);
  if (o.long) parts.push(`-l ${fishWord(o.long.slice(2))}`);
  if (o.value?.kind === 'choices') parts.push(`-x -a ${fishWord(o.value.values.join(' '))}`);
  else if (o.value?.kind === 'file') parts.push('-r -F');
  else if (o.value?.kind === 'dir') parts.push(`-x -a '(__fish_complete_directories)'`);
  else if (o.value?.kind === 'profile') parts.push(`-x -a '(command email __profiles 2>/dev/null)'`);
  else if (o.value?.kind === 'ids') parts.push(`-x -a ${idsOf(o.value.of)}`);
  else if (o.value) parts.push('-x');
  parts.push(`-d ${fishWord(o.description)}`);
  return parts.join(' ');
}

/** Ids from the service (`email __ids`: an id, a tab, its name, which fish shows as the description). */
function idsOf(resource: string): string {
  return fishWord(`(command email __ids ${resource} (__email_globals) 2>/dev/null)`);
}

function fishWord(text: string): string {
  return /^[A-Za-z0-9_@%+=,./-]+$/.test(text) ? text : `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
