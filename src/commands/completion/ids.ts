// `email __ids campaign|smart-email|list` (hidden): the ids the completion
// scripts offer, one a line, each with a tab and its name when known (zsh and
// fish show the name; bash the id alone). Asked of the service with a short
// time limit and cached for a minute (src/core/id-cache.ts); lists are the
// ones this profile used. A completion must never print an error into the
// user's command line nor make them wait: whatever goes wrong prints nothing.
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
      // Nothing to offer: the shell completes nothing, silently (--debug, run by hand, says why).
      ctx.log.debug(`no ids to offer: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Written as is, whatever the output format: a completion script reads these lines.
    return { data: text, view: { raw: true } };
  },
});
