// `email sandbox`: the definition; serve.ts starts the local service
// (src/sandbox, loaded only here), which serves until Ctrl-C.
import { choiceOption, defineCommand, intOption, listOption, numberOption, textOption } from '../define.js';

const options = {
  port: intOption('--port', '<n>', 'port to listen on (0 picks a free port)', { min: 0, max: 65535, default: 4010 }),
  host: textOption('--host', '<h>', 'address to listen on', { default: '127.0.0.1' }),
  state: textOption('--state', '<file>', 'persist everything to this file and continue from it on the next start', { complete: 'file' }),
  apiKey: textOption('--api-key', '<k>', 'the key clients must send (default: sandbox-key)'),
  latency: intOption('--latency', '<ms>', 'delay every answer by this many milliseconds', { min: 0, max: 600_000 }),
  failRate: numberOption('--fail-rate', '<0..1>', 'share of requests answered 500 (repeatable: a seeded choice)', { min: 0, max: 1 }),
  rateLimit: intOption('--rate-limit', '<requests/s>', 'answer 429, with the seconds to wait, beyond this many requests a second', { min: 1 }),
  webhook: listOption('--webhook', '<listId=url>', 'post the events of a list to this URL (repeat)'),
  webhookFormat: choiceOption('--webhook-format', '<format>', 'body format of webhook deliveries', ['json', 'xml'], { default: 'json' }),
  webhookInterval: intOption('--webhook-interval', '<ms>', 'least time between two deliveries to one webhook (the service: 10000)', { min: 1, max: 86_400_000 }),
  webhookTolerance: intOption('--webhook-tolerance', '<ms>', 'deactivate a webhook failing for longer than this (the service: one week)', { min: 0 }),
  unsubscribes: intOption('--unsubscribes', '<n>', 'unsubscribe records generated per sent campaign', { min: 0, max: 10_000_000 }),
};

/** The fields of the ready line (CLI.md `sandbox`): what --fields accepts. */
const SANDBOX_READY_FIELDS = [
  'baseUrl', 'apiKey', 'lists', 'lists.ListID', 'lists.Name', 'campaigns', 'campaigns.CampaignID', 'campaigns.Name', 'campaigns.Status',
  'segments', 'segments.SegmentID', 'segments.ListID', 'segments.Title', 'smartEmails', 'smartEmails.ID', 'smartEmails.Name', 'smartEmails.Status',
];

export default defineCommand({
  name: 'sandbox',
  summary: 'Run a local, stateful implementation of the service (for trying the tool, rehearsing imports and CI)',
  options,
  // The ready line (CLI.md `sandbox`).
  records: { fields: SANDBOX_READY_FIELDS },
  examples: [
    'email sandbox',
    'email sandbox --port 0 --state sandbox.json --json',
    'email sandbox --rate-limit 5 --fail-rate 0.1 --latency 200',
    'email sandbox --webhook 11111111-1111-4111-8111-111111111111=http://127.0.0.1:4020/hooks --webhook-interval 1000',
  ],
  async run(input, ctx) {
    const { sandboxCommand } = await import('./serve.js');
    return sandboxCommand(input, ctx);
  },
});
