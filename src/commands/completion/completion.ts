// `email completion bash|zsh|fish`: prints the completion script, generated
// from the same commander tree the program runs on. The program hands its
// root in (program.ts adds this command last), as gh's completion command
// reads cmd.Root(): no import of the program from here.
import type { Command } from 'commander';
import { defineCommand, requiredArg } from '../define.js';

export function completionCommand(root: () => Command) {
  return defineCommand({
    name: 'completion',
    summary: 'Print the shell completion script',
    args: { shell: requiredArg('shell', 'bash, zsh or fish', { choices: ['bash', 'zsh', 'fish'] }) },
    examples: [
      'email completion bash > /etc/bash_completion.d/email',
      'email completion zsh > "${fpath[1]}/_email"',
      'email completion fish > ~/.config/fish/completions/email.fish',
      'source <(email completion bash)',
    ],
    async run({ shell }, ctx) {
      const { completionScript } = await import('../../completion/index.js');
      // Written as is: the script is code, not untrusted text to neutralise.
      ctx.io.stdout.write(completionScript(shell, root()));
    },
  });
}
