import { Option, type Command } from 'commander';
import { collect, examples, parseIntOption, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  const campaigns = program.command('campaigns').description('Create, preview, unschedule and report on campaigns');

  campaigns
    .command('create')
    .description('Create a draft campaign for lists or segments')
    .requiredOption('--name <name>', 'campaign name (unique)')
    .requiredOption('--subject <subject>', 'subject line')
    .requiredOption('--from-name <name>', 'sender name')
    .requiredOption('--from-email <addr>', 'sender address')
    .requiredOption('--reply-to <addr>', 'reply-to address')
    .requiredOption('--html-url <url>', 'URL of the HTML content')
    .option('--text-url <url>', 'URL of the text content (generated from the HTML when omitted)')
    .option('--list <id>', 'target list (repeat)', collect)
    .option('--segment <id>', 'target segment (repeat; instead of --list)', collect)
    .addHelpText(
      'after',
      examples(
        'email campaigns create --name "June news" --subject "News" --from-name Ada --from-email ada@example.com --reply-to ada@example.com --html-url https://example.com/june.html --list <id>',
      ),
    )
    .action(lazy(() => import('../not-implemented.js')));

  campaigns
    .command('preview')
    .description('Send a preview of a campaign to up to 15 addresses')
    .requiredOption('--campaign <id>', 'campaign id')
    .requiredOption('--to <addr>', 'recipient (repeat, 1 to 15)', collect)
    .addHelpText('after', examples('email campaigns preview --campaign <id> --to ada@example.com --to bo@example.com'))
    .action(lazy(() => import('../not-implemented.js')));

  campaigns
    .command('unschedule')
    .description('Return a scheduled campaign to drafts, cancelling its sending')
    .requiredOption('--campaign <id>', 'campaign id')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .addHelpText('after', examples('email campaigns unschedule --campaign <id>', 'email campaigns unschedule --campaign <id> --yes'))
    .action(lazy(() => import('../not-implemented.js')));

  campaigns
    .command('unsubscribes')
    .description('List the addresses that unsubscribed through a campaign')
    .requiredOption('--campaign <id>', 'campaign id')
    .option('--since <"YYYY-MM-DD HH:MM">', 'only unsubscribes on or after this moment')
    .option('--page <n>', 'page number', parseIntOption('--page', 1))
    .option('--page-size <n>', 'records per page (10..1000)', parseIntOption('--page-size', 10, 1000))
    .addOption(new Option('--order-field <field>', 'sort field').choices(['email', 'name', 'date']))
    .addOption(new Option('--order-direction <dir>', 'sort direction').choices(['asc', 'desc']))
    .option('--all', 'walk every page and print all records as one stream')
    .addHelpText(
      'after',
      examples(
        'email campaigns unsubscribes --campaign <id>',
        'email campaigns unsubscribes --campaign <id> --all --json | jq length',
        'email campaigns unsubscribes --campaign <id> --since "2024-06-01 00:00" --all -o ndjson',
      ),
    )
    .action(lazy(() => import('../not-implemented.js')));

  campaigns
    .command('summary')
    .description('Show the summary of a sent campaign')
    .requiredOption('--campaign <id>', 'campaign id')
    .addHelpText('after', examples('email campaigns summary --campaign <id>'))
    .action(lazy(() => import('../not-implemented.js')));

  campaigns
    .command('scheduled')
    .description('List scheduled campaigns')
    .addHelpText('after', examples('email campaigns scheduled', 'email campaigns scheduled --json'))
    .action(lazy(() => import('../not-implemented.js')));

  campaigns
    .command('sent')
    .description('List sent campaigns')
    .addHelpText('after', examples('email campaigns sent', 'email campaigns sent -o csv > sent.csv'))
    .action(lazy(() => import('../not-implemented.js')));
}
