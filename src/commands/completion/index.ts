import { Argument, type Command } from 'commander';
import { examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  program
    .command('completion')
    .description('Print the shell completion script')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      examples(
        'email completion bash > /etc/bash_completion.d/email',
        'email completion zsh > "${fpath[1]}/_email"',
        'email completion fish > ~/.config/fish/completions/email.fish',
        'source <(email completion bash)',
      ),
    )
    .action(lazy(() => import('./completion.js')));
}
