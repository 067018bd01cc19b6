import { Option, type Command } from 'commander';
import { collect, examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  program
    .command('api')
    .description('Make a raw authenticated request to any path of the service')
    .argument('<path>', 'path below the base URL, e.g. /email/clients/campaigns')
    .addOption(new Option('-X, --method <method>', 'HTTP method').choices(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']))
    .option('-d, --data <json>', 'request body: JSON, @file, or @- for stdin')
    .option('-q, --query <key=value>', 'query parameter (repeat)', collect)
    .addHelpText(
      'after',
      examples(
        'email api /email/clients/campaigns',
        'email api /email/campaigns/<id>/unsubscribes -q pagesize=10 -q orderfield=email',
        'email api -X POST /email/segments/<list-id> -d \'{"Title":"VIPs"}\'',
        'email api -X PUT "/email/subscribers/<list-id>?email=ada@example.com" -d @body.json',
      ),
    )
    .action(lazy(() => import('./api.js')));
}
