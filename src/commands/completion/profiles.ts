// `email __profiles` (hidden): a missing or refused config prints nothing, since
// a completion must never print an error into the user's command line.
import { defineCommand } from '../define.js';

export default defineCommand({
  name: '__profiles',
  summary: 'Print the stored profile names, for shell completion',
  hidden: true,
  records: false,
  examples: [],
  async run(_input, ctx) {
    const { openConfig } = await import('../../core/config.js');
    let names: string[];
    try {
      names = Object.keys((await openConfig(ctx.env)).read().profiles).sort();
    } catch {
      names = [];
    }
    // Written as is, whatever the output format: a completion script reads these lines.
    const text = names.map((name) => `${name}\n`).join('');
    return { people: (_, out) => out.text(text) };
  },
});
