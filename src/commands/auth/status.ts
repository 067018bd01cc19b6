// email auth status: the definition; status-run.ts lists the profiles and checks the key in effect.
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'status',
  summary: 'Show every profile with its base URL, masked key and where the key is stored, and check the key in effect',
  records: { fields: ['profile', 'default', 'inEffect', 'baseUrl', 'key', 'keyStore', 'check'] },
  examples: ['email auth status', 'email auth status --json'],
  async run(_input, ctx) {
    const { statusCommand } = await import('./status-run.js');
    return statusCommand(ctx);
  },
});
