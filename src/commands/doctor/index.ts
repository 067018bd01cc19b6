import type { Command } from 'commander';
import { examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  program
    .command('doctor')
    .description('Check configuration, permissions, reachability, key validity and clock skew')
    .addHelpText('after', examples('email doctor', 'email doctor --profile staging --json'))
    .action(lazy(() => import('../not-implemented.js')));
}
