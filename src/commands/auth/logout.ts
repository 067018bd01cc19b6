// email auth logout: removes a profile's key.
import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'logout',
  summary: "Remove a profile's key",
  examples: ['email auth logout', 'email auth logout --profile staging'],
  async run(_input, ctx) {
    const { chooseProfile, openConfig } = await import('../../core/config.js');
    const store = await openConfig(ctx.env);
    const data = store.read();
    const { name } = chooseProfile({ env: ctx.env, profileFlag: ctx.globals.profile, insecureHttp: false }, data);
    if (!data.profiles[name]) {
      const known = Object.keys(data.profiles);
      throw new UsageError(`no profile named "${name}"${known.length ? ` (profiles: ${known.join(', ')})` : ''}`);
    }
    delete data.profiles[name];
    if (data.defaultProfile === name) {
      // Keep a usable default when other profiles remain.
      const next = Object.keys(data.profiles)[0];
      if (next) data.defaultProfile = next;
    }
    await store.write(data);
    ctx.log.info(`Removed the key of profile "${name}".`);
  },
});
