// `email completion bash|zsh|fish`: prints the completion script, generated
// from the same command definitions the program runs on.
import { defineCommand, requiredArg, type AnyCommand } from '../define.js';

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
    const [{ completionScript }, { buildProgram }, { COMMANDS }, { fieldNames }] = await Promise.all([
      import('../../completion/index.js'),
      import('../../program.js'),
      import('../index.js'),
      import('../../output/shape.js'),
    ]);
    // --fields completes the record's field names: read from each command's
    // schema here, where generating the script may load them (help never does).
    const fields = new Map<AnyCommand, readonly string[]>();
    const commands = COMMANDS.flatMap((entry) => ('commands' in entry ? entry.commands : [entry]));
    for (const def of commands) if (def.records?.schema) fields.set(def, fieldNames(await def.records.schema()));
    // Written as is: the script is code, not untrusted text to neutralise.
    ctx.io.stdout.write(completionScript(shell, buildProgram(undefined, fields)));
  },
});
