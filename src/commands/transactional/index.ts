import { Option, type Command } from 'commander';
import { examples, type Lazy } from '../../program.js';
import { listValues } from '../../validation/option-checks.js';
import { SMART_EMAIL_STATUSES, STATS_TIME_ZONES } from '../../validation/query-params.js';

// --status and --timezone list their values for help and completions, but are
// checked in run() so a wrong one is refused with the service's code (932, 923).

export function register(program: Command, lazy: Lazy): void {
  const transactional = program.command('transactional').description('Inspect smart transactional emails and their statistics');

  transactional
    .command('list')
    .description('List smart emails')
    .addOption(listValues(new Option('--status <status>', 'filter by status'), SMART_EMAIL_STATUSES))
    .addHelpText('after', examples('email transactional list', 'email transactional list --status active --json'))
    .action(lazy(() => import('./list.js')));

  transactional
    .command('get')
    .description('Show the details of a smart email')
    .requiredOption('--smart-email <id>', 'smart email id')
    .addHelpText('after', examples('email transactional get --smart-email <id>'))
    .action(lazy(() => import('./get.js')));

  transactional
    .command('stats')
    .description('Show delivery and engagement statistics of transactional email')
    .option('--group <name>', 'classic email group name (not with --smart-email)')
    .option('--smart-email <id>', 'smart email id (not with --group)')
    .option('--from <YYYY-MM-DD>', 'start date (default: 29 days before today)')
    .option('--to <YYYY-MM-DD>', 'end date (default: today)')
    .addOption(listValues(new Option('--timezone <tz>', 'time zone of the dates (default: the client time zone)'), STATS_TIME_ZONES))
    .addHelpText('after', examples('email transactional stats', 'email transactional stats --smart-email <id> --from 2024-06-01 --to 2024-06-30 --timezone utc'))
    .action(lazy(() => import('./stats.js')));
}
