import { Option, type Command } from 'commander';
import { collect, examples, parseIntOption, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  program
    .command('sandbox')
    .description('Run a local, stateful implementation of the service (for trying the tool, rehearsing imports and CI)')
    .option('--port <n>', 'port to listen on (0 picks a free port)', parseIntOption('--port', 0, 65535), 4010)
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--state <file>', 'persist everything to this file and continue from it on the next start')
    .option('--api-key <k>', 'the key clients must send (default: sandbox-key)')
    .option('--latency <ms>', 'delay every answer by this many milliseconds', parseIntOption('--latency', 0, 600_000))
    .option('--fail-rate <0..1>', 'share of requests answered 500 (repeatable: a seeded choice)')
    .option('--rate-limit <requests/s>', 'answer 429, with the seconds to wait, beyond this many requests a second')
    .option('--webhook <listId=url>', 'post the events of a list to this URL (repeat)', collect)
    .addOption(new Option('--webhook-format <format>', 'body format of webhook deliveries').choices(['json', 'xml']).default('json'))
    .option('--webhook-interval <ms>', 'least time between two deliveries to one webhook (the service: 10000)', parseIntOption('--webhook-interval', 1, 86_400_000))
    .option('--webhook-tolerance <ms>', 'deactivate a webhook failing for longer than this (the service: one week)', parseIntOption('--webhook-tolerance', 0))
    .option('--unsubscribes <n>', 'unsubscribe records generated per sent campaign', parseIntOption('--unsubscribes', 0, 10_000_000))
    .addHelpText(
      'after',
      examples(
        'email sandbox',
        'email sandbox --port 0 --state sandbox.json --json',
        'email sandbox --rate-limit 5 --fail-rate 0.1 --latency 200',
        'email sandbox --webhook 11111111-1111-4111-8111-111111111111=http://127.0.0.1:4020/hooks --webhook-interval 1000',
      ),
    )
    .action(lazy(() => import('./sandbox.js')));
}
