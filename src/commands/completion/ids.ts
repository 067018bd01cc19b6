// `email __ids` (hidden): the ids completion offers, each with a tab and its name.
// A completion must never print an error into the command line nor make the
// user wait: whatever goes wrong prints nothing.
import { COMPLETED_IDS, defineCommand, requiredArg } from '../define.js';

export default defineCommand({
  name: '__ids',
  summary: 'Print the ids shell completion offers, with their names',
  hidden: true,
  records: false,
  args: { resource: requiredArg('resource', COMPLETED_IDS.join(', '), { choices: COMPLETED_IDS }) },
  examples: [],
  async run({ resource }, ctx) {
    const { completedIds } = await import('./completed-ids.js');
    let text = '';
    try {
      text = await completedIds(resource, ctx);
    } catch (error) {
      // Silently: --debug, run by hand, says why.
      ctx.log.debug(`no ids to offer: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Whatever the output format: a completion script reads these lines.
    return { people: (_, out) => out.text(text) };
  },
});
