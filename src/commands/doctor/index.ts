import type { Command } from 'commander';
import { examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  program
    .command('doctor')
    .description('Check configuration, permissions, reachability, key validity and clock skew')
    .addHelpText('after', examples('email doctor', 'email doctor --profile staging --json'))
    .addHelpText(
      'after',
      '\nEach check prints ok, warn, fail or skip (not run because an earlier check failed), with a hint\nwhere there is something to do. Exits 1 when a check fails, 4 when the key is missing or refused.\n',
    )
    .action(lazy(() => import('./doctor.js')));
}
