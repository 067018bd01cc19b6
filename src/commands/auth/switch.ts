// email auth switch <profile>: sets the default profile.
import { UsageError } from '../../core/errors.js';
import { defineCommand, requiredArg } from '../define.js';

export default defineCommand({
  name: 'switch',
  summary: 'Set the default profile',
  args: { profile: requiredArg('profile', 'profile name', { complete: 'profile' }) },
  records: false,
  examples: ['email auth switch staging'],
  async run({ profile: name }, ctx) {
    const { openConfig } = await import('../../core/config.js');
    const store = await openConfig(ctx.env);
    const data = store.read();
    if (!data.profiles[name]) {
      const known = Object.keys(data.profiles);
      throw new UsageError(`no profile named "${name}"${known.length ? ` (profiles: ${known.join(', ')})` : '; log in with `email auth login --profile ' + name + '`'}`);
    }
    data.defaultProfile = name;
    await store.write(data);
    return { message: `Default profile is now "${name}".` };
  },
});
