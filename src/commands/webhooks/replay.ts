// `email webhooks replay`: the definition; the sending is replay-run.ts.
import { type Input, defineCommand, intOption, textOption, variadicArg } from '../define.js';

const args = { savedFile: variadicArg('saved-file', 'files written by `webhooks listen --save`', { complete: 'file' }) };
const options = {
  to: textOption('--to', '<url>', 'receiver URL', { required: true, what: 'the receiver URL' }),
  interval: intOption('--interval', '<ms>', 'wait between requests (the service waits 10000)', { min: 0, max: 3_600_000, default: 0 }),
};

/** What the command's run module receives. */
export type ReplayInput = Input<typeof args, typeof options>;

export default defineCommand({
  name: 'replay',
  summary: 'Send saved deliveries again',
  args,
  options,
  records: { fields: ['file', 'events', 'status', 'elapsedMs', 'error'] },
  examples: ['email webhooks replay deliveries/*.json --to http://localhost:3000/hooks'],
  async run(input, ctx) {
    const { replayCommand } = await import('./replay-run.js');
    return { exitCode: await replayCommand(input, ctx) };
  },
});
