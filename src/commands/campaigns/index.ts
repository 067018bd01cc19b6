import { Option, type Command } from 'commander';
import { collect, examples, type Lazy } from '../../program.js';
import { listValues } from '../../validation/option-checks.js';
import { ORDER_DIRECTIONS, ORDER_FIELDS } from '../../validation/query-params.js';

// Options that the service's rules make compulsory are checked in run() (not
// with commander's requiredOption) so a missing one is refused with the
// service's own code (319, 304, 305, 308, 310, 370…), like the service would.

export function register(program: Command, lazy: Lazy): void {
  const campaigns = program.command('campaigns').description('Create, preview, unschedule and report on campaigns');

  campaigns
    .command('create')
    .description('Create a draft campaign for lists or segments')
    .option('--name <name>', 'campaign name (required, unique)')
    .option('--subject <subject>', 'subject line (required)')
    .option('--from-name <name>', 'sender name (required)')
    .option('--from-email <addr>', 'sender address (required)')
    .option('--reply-to <addr>', 'reply-to address (required)')
    .option('--html-url <url>', 'URL of the HTML content (required)')
    .option('--text-url <url>', 'URL of the text content (generated from the HTML when omitted)')
    .option('--list <id>', 'target list (repeat; or --segment)', collect)
    .option('--segment <id>', 'target segment (repeat; or --list)', collect)
    .addHelpText(
      'after',
      examples(
        'email campaigns create --name "June news" --subject "News" --from-name Ada --from-email ada@example.com --reply-to ada@example.com --html-url https://example.com/june.html --list <id>',
        'email campaigns create --name "Pro offer" --subject "For Pro users" --from-name Ada --from-email ada@example.com --reply-to ada@example.com --html-url https://example.com/pro.html --segment <id> --json',
      ),
    )
    .action(lazy(() => import('./create.js')));

  campaigns
    .command('preview')
    .description('Send a preview of a campaign to up to 15 addresses (never repeated automatically)')
    .requiredOption('--campaign <id>', 'campaign id')
    .option('--to <addr>', 'recipient (repeat, 1 to 15)', collect)
    .addHelpText('after', examples('email campaigns preview --campaign <id> --to ada@example.com --to bo@example.com'))
    .action(lazy(() => import('./preview.js')));

  campaigns
    .command('unschedule')
    .description('Return a scheduled campaign to drafts, cancelling its sending')
    .requiredOption('--campaign <id>', 'campaign id')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .addHelpText('after', examples('email campaigns unschedule --campaign <id>', 'email campaigns unschedule --campaign <id> --yes'))
    .action(lazy(() => import('./unschedule.js')));

  campaigns
    .command('unsubscribes')
    .description('List the addresses that unsubscribed through a campaign')
    .requiredOption('--campaign <id>', 'campaign id')
    .option('--since <"YYYY-MM-DD HH:MM">', 'only unsubscribes on or after this moment')
    .option('--page <n>', 'page number (from 1)')
    .option('--page-size <n>', 'records per page (10..1000; with --all, default 1000)')
    .addOption(listValues(new Option('--order-field <field>', 'sort field'), ORDER_FIELDS))
    .addOption(listValues(new Option('--order-direction <dir>', 'sort direction'), ORDER_DIRECTIONS))
    .option('--all', 'walk every page and print all records as one stream')
    .addHelpText(
      'after',
      examples(
        'email campaigns unsubscribes --campaign <id>',
        'email campaigns unsubscribes --campaign <id> --all --json | jq length',
        'email campaigns unsubscribes --campaign <id> --since "2024-06-01 00:00" --all -o ndjson',
      ),
    )
    .action(lazy(() => import('./unsubscribes.js')));

  campaigns
    .command('summary')
    .description('Show the summary of a sent campaign')
    .requiredOption('--campaign <id>', 'campaign id')
    .addHelpText('after', examples('email campaigns summary --campaign <id>', 'email campaigns summary --campaign <id> --json'))
    .action(lazy(() => import('./summary.js')));

  campaigns
    .command('scheduled')
    .description('List scheduled campaigns')
    .addHelpText('after', examples('email campaigns scheduled', 'email campaigns scheduled --json'))
    .action(lazy(() => import('./scheduled.js')));

  campaigns
    .command('sent')
    .description('List sent campaigns')
    .addHelpText('after', examples('email campaigns sent', 'email campaigns sent -o csv > sent.csv'))
    .action(lazy(() => import('./sent.js')));
}
