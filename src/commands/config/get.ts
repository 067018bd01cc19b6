// email config get <key>: the profile's stored default, alone on stdout; nothing when none is set.
import { defineCommand, requiredArg } from '../define.js';
import { DEFAULT_KEYS } from '../../core/profile-defaults.js';

export default defineCommand({
  name: 'get',
  summary: "Print one of the profile's defaults",
  args: { key: requiredArg('key', `the setting: ${DEFAULT_KEYS.join(', ')}`) },
  records: { fields: [] },
  examples: ['email config get list'],
  async run({ key }, ctx) {
    const [{ checkDefaultKey }, { profileInEffect }] = await Promise.all([import('../../core/profile-defaults.js'), import('./profile.js')]);
    const setting = checkDefaultKey(key);
    const { data, name } = await profileInEffect(ctx);
    const value = data.profiles[name]?.defaults?.[setting];
    return value === undefined ? {} : { data: value };
  },
});
