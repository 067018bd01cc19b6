// Consent values are listed for help and completions but checked in run(),
// where the service's codes 214/215 can be given (commander's .choices()
// cannot carry a code).
import { Option, type Command } from 'commander';
import { collect, examples, parseIntOption, type Lazy } from '../../program.js';
import { listValues } from '../../validation/option-checks.js';

export function register(program: Command, lazy: Lazy): void {
  const subscribers = program.command('subscribers').description('Add, update, import and inspect subscribers');

  subscribers
    .command('add')
    .description('Add a subscriber to a list (an existing address is updated)')
    .requiredOption('--list <id>', 'list id')
    .requiredOption('--email <addr>', 'email address')
    .requiredOption('--name <n>', 'subscriber name')
    .option('--field <Key=Value>', 'custom field value; repeat a Key to set several options of a MultiSelectMany field', collect)
    .addOption(listValues(new Option('--consent <yes|no>', 'consent to track (required by the service)'), ['yes', 'no']))
    .option('--resubscribe', 're-add the address even if it is unsubscribed, inactive or suppressed')
    .option('--restart-autoresponders', 'restart subscription-based automated emails for a resubscribed address')
    .addHelpText(
      'after',
      examples(
        'email subscribers add --list <id> --email ada@example.com --name "Ada Lovelace" --consent yes',
        'email subscribers add --list <id> --email bo@example.com --name Bo --field Interests=Jazz --field Interests=Blues --consent yes',
      ),
    )
    .action(lazy(() => import('./add.js')));

  subscribers
    .command('update')
    .description("Update a subscriber's address, name, custom fields or consent")
    .requiredOption('--list <id>', 'list id')
    .requiredOption('--email <current>', 'current email address')
    .option('--new-email <addr>', 'new email address')
    .option('--name <n>', 'the name (required: the update replaces it; give the current one to keep it)')
    .option('--field <Key=Value>', 'custom field value; repeat a Key for MultiSelectMany (replaces all options)', collect)
    .option('--clear-field <Key[=Value]>', 'clear a field, or one option of a MultiSelectMany field', collect)
    .addOption(listValues(new Option('--consent <yes|no>', 'consent to track (required by the service)'), ['yes', 'no']))
    .option('--resubscribe', 're-add the subscriber if inactive')
    .addHelpText(
      'after',
      examples(
        'email subscribers update --list <id> --email ada@example.com --new-email ada@new.example.com --name "Ada Lovelace" --consent yes',
        'email subscribers update --list <id> --email ada@example.com --name "Ada Lovelace" --clear-field Interests=Jazz --consent yes',
      ),
    )
    .action(lazy(() => import('./update.js')));

  subscribers
    .command('import')
    .description('Import subscribers from a CSV file (or - for stdin), in batches, resumably')
    .argument('<file>', 'CSV file, or - for standard input')
    .requiredOption('--list <id>', 'list id')
    .option('--map <Column=Target>', 'map a column to EmailAddress, Name, ConsentToTrack, a custom field key, or - to ignore', collect)
    .addOption(listValues(new Option('--consent <yes|no|unchanged>', 'ConsentToTrack for rows that have none'), ['yes', 'no', 'unchanged']))
    .option('--resubscribe', 're-add unsubscribed, inactive or suppressed addresses')
    .option('--queue-autoresponders', 'send date-based automated emails to imported subscribers')
    .option('--restart-autoresponders', 'restart subscription-based automated emails for resubscribed addresses')
    .option('--batch-size <n>', 'subscribers per request (1..1000)', parseIntOption('--batch-size', 1, 1000), 1000)
    .option('--concurrency <n>', 'batches in flight at once', parseIntOption('--concurrency', 1, 32), 4)
    .option('--delimiter <c>', 'field delimiter: a character, or tab (default: detected among , ; and tab)')
    .option('--encoding <name>', 'text encoding of the file when it has no BOM: utf8, latin1, windows-1252, utf16le (default utf8)')
    .option('--multi-separator <s>', 'split a cell into several values of one MultiSelectMany key')
    .option('--dry-run', 'parse, map and validate everything; send nothing')
    .option('--failures <file.csv>', 'write every row that was not imported, with Line, Code and Message')
    .option('--journal <file>', 'journal of acknowledged batches (default: next to the input file)')
    .option('--resume', 'skip the batches the journal shows done')
    .option('--progress', 'print a progress line every few seconds even when stderr is not a terminal')
    .addHelpText(
      'after',
      examples(
        'email subscribers import people.csv --list <id>',
        'email subscribers import people.csv --list <id> --map "E-mail=EmailAddress" --map "Notes=-" --dry-run',
        'email subscribers import people.csv --list <id> --failures failed.csv --json',
        'email subscribers import people.csv --list <id> --resume',
      ),
    )
    .action(lazy(() => import('./import.js')));

  subscribers
    .command('history')
    .description("Show a subscriber's campaign history on a list")
    .requiredOption('--list <id>', 'list id')
    .requiredOption('--email <addr>', 'email address')
    .addHelpText('after', examples('email subscribers history --list <id> --email ada@example.com'))
    .action(lazy(() => import('./history.js')));

  subscribers
    .command('lists')
    .description('Show the lists an address is on, with its state on each')
    .requiredOption('--email <addr>', 'email address')
    .addHelpText('after', examples('email subscribers lists --email ada@example.com', 'email subscribers lists --email ada@example.com --json'))
    .action(lazy(() => import('./lists.js')));
}
