// `email completion bash|zsh|fish`: prints the completion script, generated
// from the same command definitions the program runs on.
import { defineCommand, requiredArg } from '../define.js';

export default defineCommand({
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
    const [{ completionScript }, { buildProgram }] = await Promise.all([import('../../completion/index.js'), import('../../program.js')]);
    // Written as is: the script is code, not untrusted text to neutralise.
    ctx.io.stdout.write(completionScript(shell, buildProgram()));
  },
});
