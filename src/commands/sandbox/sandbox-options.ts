// The flags of `email sandbox`, for its definition (sandbox.ts) and for the
// type of the input serve.ts takes.
import { choiceOption, intOption, listOption, numberOption, textOption } from '../define.js';

export const options = {
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
