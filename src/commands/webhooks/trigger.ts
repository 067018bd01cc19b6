// `email webhooks trigger`: the definition; the sending is trigger-run.ts.
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events.js';
import { type Input, choiceOption, defineCommand, intOption, textOption } from '../define.js';

const options = {
  to: textOption('--to', '<url>', 'receiver URL', { required: true, what: 'the receiver URL' }),
  type: choiceOption('--type', '<type>', 'event type', WEBHOOK_EVENT_TYPES, { default: 'Subscribe' }),
  count: intOption('--count', '<n>', 'number of events', { min: 1, max: 10_000_000, default: 1 }),
  format: choiceOption('--format', '<format>', 'body format', ['json', 'xml'], { default: 'json' }),
  list: textOption('--list', '<id>', 'ListID to put in the deliveries (default: a random id)', { check: 'uuid' }),
  // service-spec.md "Webhooks": at most 1000 events a delivery.
  batchSize: intOption('--batch-size', '<n>', 'events per request (the service sends at most 1000)', { min: 1, max: 1000, default: 1000 }),
  interval: intOption('--interval', '<ms>', 'wait between requests (the service waits 10000)', { min: 0, max: 3_600_000, default: 0 }),
};

/** What the command's run module receives. */
export type TriggerInput = Input<{}, typeof options>;

export default defineCommand({
  name: 'trigger',
  summary: 'Send realistic synthetic deliveries to a receiver, batched like the service',
  options,
  records: { fields: ['request', 'events', 'status', 'elapsedMs', 'error'] },
  examples: [
    'email webhooks trigger --to http://localhost:3000/hooks --type Update --count 2500',
    'email webhooks trigger --to http://localhost:3000/hooks --format xml --json',
  ],
  async run(input, ctx) {
    const { triggerCommand } = await import('./trigger-run.js');
    return { exitCode: await triggerCommand(input, ctx) };
  },
});
