// `email webhooks trigger`: synthetic deliveries sent to a receiver the way the
// service sends them, each request's status reported as a record as it is answered.
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events.js';
import { choiceOption, defineCommand, intOption, textOption } from '../define.js';

const options = {
  to: textOption('--to', '<url>', 'receiver URL', { required: true, what: 'the receiver URL' }),
  type: choiceOption('--type', '<type>', 'event type', WEBHOOK_EVENT_TYPES, { default: 'Subscribe' }),
  count: intOption('--count', '<n>', 'number of events', { min: 1, max: 10_000_000, default: 1 }),
  format: choiceOption('--format', '<format>', 'body format', ['json', 'xml'], { default: 'json' }),
  list: textOption('--list', '<id>', "ListID to put in the deliveries (default: the profile's default list, else a random id)", { check: 'uuid', complete: 'list' }),
  // service-spec.md "Webhooks": at most 1000 events a delivery.
  batchSize: intOption('--batch-size', '<n>', 'events per request (the service sends at most 1000)', { min: 1, max: 1000, default: 1000 }),
  interval: intOption('--interval', '<ms>', 'wait between requests (the service waits 10000)', { min: 0, max: 3_600_000, default: 0 }),
};

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
    const [{ receiverUrl }, { sendSynthetic }, { RequestTally, requestColumns }] = await Promise.all([
      import('../../webhooks/post.js'),
      import('../../webhooks/send-deliveries.js'),
      import('../../webhooks/sent-requests.js'),
    ]);
    const to = receiverUrl('--to', input.to);
    const tally = new RequestTally(to.href, (line) => ctx.log.debug(line));
    const sent = sendSynthetic(
      to,
      { type: input.type, count: input.count, format: input.format, list: input.list, batchSize: input.batchSize, end: ctx.now() },
      { signal: ctx.signal, timeoutMs: ctx.globals.timeoutMs, interval: input.interval },
    );
    return {
      data: tally.records(sent),
      columns: requestColumns('request'),
      message: () => tally.summary(),
      error: () => tally.error(ctx.signal.aborted),
    };
  },
});
