import type { Command } from 'commander';
import { examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  const auth = program.command('auth').description('Manage profiles and API keys');

  auth
    .command('login')
    .description('Store an API key for a profile (prompted without echo, or read from stdin with --with-key)')
    .option('--with-key', 'read the key from standard input (for CI)')
    .addHelpText(
      'after',
      examples(
        'email auth login --base-url https://api.example.com',
        'echo "$EMAIL_KEY" | email auth login --profile ci --base-url https://api.example.com --with-key',
      ),
    )
    .action(lazy(() => import('./login.js')));

  auth
    .command('logout')
    .description("Remove a profile's key")
    .addHelpText('after', examples('email auth logout', 'email auth logout --profile staging'))
    .action(lazy(() => import('./logout.js')));

  auth
    .command('status')
    .description('Show every profile with its base URL and masked key, and check the key in effect')
    .addHelpText('after', examples('email auth status', 'email auth status --json'))
    .action(lazy(() => import('./status.js')));

  auth
    .command('switch')
    .description('Set the default profile')
    .argument('<profile>', 'profile name')
    .addHelpText('after', examples('email auth switch staging'))
    .action(lazy(() => import('./switch.js')));
}
