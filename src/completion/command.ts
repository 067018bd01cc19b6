// `email completion bash|zsh|fish`: prints the completion script, generated
// from the same command definitions the program runs on. The program hands in
// its entries and a way to build its tree (program.ts adds this command last),
// as gh's completion command reads cmd.Root(): no import of the program from here.
import type { Command } from 'commander';
import { defineCommand, requiredArg, type AnyCommand, type Entry } from '../commands/define.js';

export function completionCommand(load: () => Promise<readonly Entry[]>, root: (all: readonly Entry[], fields: ReadonlyMap<AnyCommand, readonly string[]>) => Command) {
  return defineCommand({
    name: 'completion',
    summary: 'Print the shell completion script',
    args: { shell: requiredArg('shell', 'bash, zsh or fish', { choices: ['bash', 'zsh', 'fish'] }) },
    records: false,
    examples: [
      'email completion bash > /etc/bash_completion.d/email',
      'email completion zsh > "${fpath[1]}/_email"',
      'email completion fish > ~/.config/fish/completions/email.fish',
      'source <(email completion bash)',
    ],
    async run({ shell }) {
      const [{ completionScript }, { fieldNames }, all] = await Promise.all([import('./index.js'), import('../output/shape.js'), load()]);
      // --fields completes the record's field names: read from each command's
      // schema here, where generating the script may load them (help never does).
      const fields = new Map<AnyCommand, readonly string[]>();
      const commands = all.flatMap((entry) => ('commands' in entry ? entry.commands : [entry]));
      for (const def of commands) {
        if (!def.records) continue;
        const names = def.records.fields ?? (def.records.schema ? fieldNames(await def.records.schema()) : []);
        if (names.length) fields.set(def, names);
      }
      // Written as is: the script is code, not untrusted text to neutralise.
      const script = completionScript(shell, root(all, fields));
      return { people: (_, out) => out.text(script) };
    },
  });
}
