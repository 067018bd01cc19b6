// `email webhooks replay`: saved deliveries sent again, untouched, one request per
// file in order. Every file is checked before anything is sent.
import { defineCommand, intOption, textOption, variadicArg } from '../define.js';

const args = { savedFile: variadicArg('saved-file', 'files written by `webhooks listen --save`, or the folder holding them', { complete: 'file' }) };
const options = {
  to: textOption('--to', '<url>', 'receiver URL', { required: true, what: 'the receiver URL' }),
  interval: intOption('--interval', '<ms>', 'wait between requests (the service waits 10000)', { min: 0, max: 3_600_000, default: 0 }),
};

export default defineCommand({
  name: 'replay',
  summary: 'Send saved deliveries again',
  args,
  options,
  records: { fields: ['file', 'events', 'status', 'elapsedMs', 'error'] },
  examples: ['email webhooks replay deliveries/ --to http://localhost:3000/hooks', 'email webhooks replay deliveries/*.json --to http://localhost:3000/hooks'],
  async run(input, ctx) {
    const [{ receiverUrl }, { planReplay, sendSaved }, { RequestTally, requestColumns }] = await Promise.all([
      import('../../webhooks/post.js'),
      import('../../webhooks/send-deliveries.js'),
      import('../../webhooks/sent-requests.js'),
    ]);
    const to = receiverUrl('--to', input.to);
    const plan = await planReplay(input.savedFile, ctx.cwd, ctx.signal);
    const tally = new RequestTally(to.href, (line) => ctx.log.debug(line));
    const sent = sendSaved(to, plan, { signal: ctx.signal, timeoutMs: ctx.globals.timeoutMs, interval: input.interval });
    return {
      data: tally.records(sent),
      columns: requestColumns('file'),
      message: () => tally.summary(),
      error: () => tally.error(ctx.signal.aborted),
    };
  },
});
