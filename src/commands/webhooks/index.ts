import { Option, type Command } from 'commander';
import { examples, parseIntOption, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  const webhooks = program.command('webhooks').description("Receive, trigger and replay the service's webhook deliveries");

  webhooks
    .command('listen')
    .description('Run a local receiver for webhook deliveries and print each event')
    .option('--port <n>', 'port to listen on (0 picks a free one)', parseIntOption('--port', 0, 65535), 4020)
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--forward-to <url>', 'relay each delivery, untouched, to this URL')
    .option('--save <dir>', 'write each delivery to its own file in this directory')
    .addHelpText(
      'after',
      examples(
        'email webhooks listen',
        'email webhooks listen --port 0 -o ndjson | jq .EmailAddress',
        'email webhooks listen --forward-to http://localhost:3000/hooks --save deliveries/',
      ),
    )
    .action(lazy(() => import('./listen.js')));

  webhooks
    .command('replay')
    .description('Send saved deliveries again')
    .argument('<saved-file...>', 'files written by `webhooks listen --save`')
    .requiredOption('--to <url>', 'receiver URL')
    .option('--interval <ms>', 'wait between requests (the service waits 10000)', parseIntOption('--interval', 0, 3_600_000), 0)
    .addHelpText('after', examples('email webhooks replay deliveries/*.json --to http://localhost:3000/hooks'))
    .action(lazy(() => import('./replay.js')));

  webhooks
    .command('trigger')
    .description('Send realistic synthetic deliveries to a receiver, batched like the service')
    .requiredOption('--to <url>', 'receiver URL')
    .addOption(new Option('--type <type>', 'event type').choices(['Subscribe', 'Update', 'Deactivate']).default('Subscribe'))
    .option('--count <n>', 'number of events', parseIntOption('--count', 1, 10_000_000), 1)
    .addOption(new Option('--format <format>', 'body format').choices(['json', 'xml']).default('json'))
    .option('--list <id>', 'ListID to put in the deliveries (default: a random id)')
    .option('--batch-size <n>', 'events per request (the service sends at most 1000)', parseIntOption('--batch-size', 1, 1000), 1000)
    .option('--interval <ms>', 'wait between requests (the service waits 10000)', parseIntOption('--interval', 0, 3_600_000), 0)
    .addHelpText(
      'after',
      examples(
        'email webhooks trigger --to http://localhost:3000/hooks --type Update --count 2500',
        'email webhooks trigger --to http://localhost:3000/hooks --format xml --json',
      ),
    )
    .action(lazy(() => import('./trigger.js')));
}
