import type { Command } from 'commander';
import { examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  program
    .command('completion')
    .description('Print the shell completion script')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText('after', examples('email completion bash > /etc/bash_completion.d/email', 'email completion zsh > "${fpath[1]}/_email"', 'email completion fish > ~/.config/fish/completions/email.fish'))
    .action(lazy(() => import('../not-implemented.js')));
}
