// email config get <key>: the profile's stored default, alone on stdout; nothing when none is set.
import { defineCommand, requiredArg } from '../define.js';
import { DEFAULT_KEYS } from '../../core/profile-defaults.js';

export default defineCommand({
  name: 'get',
  summary: "Print one of the profile's defaults",
  args: { key: requiredArg('key', 'the setting', { choices: DEFAULT_KEYS }) },
  records: { fields: [] },
  examples: ['email config get list'],
  // The key's declared choices: parsing has matched it, in any case, to one of DEFAULT_KEYS.
  async run({ key: setting }, ctx) {
    const { profileInEffect } = await import('./profile.js');
    const { data, name } = await profileInEffect(ctx);
    const value = data.profiles[name]?.defaults?.[setting];
    return value === undefined ? {} : { data: value };
  },
});
