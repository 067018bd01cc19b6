// email config unset <key>: forgets a default of the profile in effect; one not set is no error.
import { messageOnly, defineCommand, requiredArg } from '../define.js';
import { DEFAULT_KEYS } from '../../core/profile-defaults.js';

export default defineCommand({
  name: 'unset',
  summary: 'Forget one of the profile\'s defaults',
  args: { key: requiredArg('key', 'the setting', { choices: DEFAULT_KEYS }) },
  records: { fields: ['Profile', 'Key', 'Value'] },
  examples: ['email config unset list'],
  // The key's declared choices: parsing has matched it, in any case, to one of DEFAULT_KEYS.
  async run({ key: setting }, ctx) {
    const { profileInEffect } = await import('./profile.js');
    const { store, data, name } = await profileInEffect(ctx);
    const profile = data.profiles[name];
    const unset = { Profile: name, Key: setting, Value: null };
    if (profile?.defaults?.[setting] === undefined) return { data: unset, people: messageOnly, message: `Profile "${name}" has no ${setting} set.` };
    const rest = { ...profile.defaults };
    delete rest[setting];
    // The list's name goes with its id.
    if (setting === 'list') delete rest.listName;
    data.profiles[name] = { ...profile, defaults: rest };
    if (Object.keys(rest).length === 0) delete data.profiles[name]!.defaults;
    await store.write(data);
    return { data: unset, people: messageOnly, message: `Profile "${name}": ${setting} unset.` };
  },
});
