// email config set <key> <value>: stores a default for the profile in effect,
// checked first (exit 2, nothing stored). A profile not stored yet is created
// with the default alone, so defaults can precede `auth login`.
import { defineCommand, requiredArg } from '../define.js';
import { DEFAULT_KEYS } from '../../core/profile-defaults.js';

export default defineCommand({
  name: 'set',
  summary: 'Store a default for the profile (list)',
  description: 'A flag always wins over a stored default: --list given, or the id as the argument.',
  args: { key: requiredArg('key', `the setting: ${DEFAULT_KEYS.join(', ')}`), value: requiredArg('value', 'its value: a list id') },
  records: { fields: ['Profile', 'Key', 'Value'] },
  examples: ['email config set list <id>', 'email config set list <id> --profile staging'],
  async run({ key, value }, ctx) {
    const [{ checkDefaultKey, normalizeDefault }, { profileInEffect }] = await Promise.all([import('../../core/profile-defaults.js'), import('./profile.js')]);
    const setting = checkDefaultKey(key);
    const stored = normalizeDefault(setting, value);
    const { store, data, name } = await profileInEffect(ctx);
    const profile = data.profiles[name] ?? {};
    data.profiles[name] = { ...profile, defaults: { ...profile.defaults, [setting]: stored } };
    await store.write(data);
    return { data: { Profile: name, Key: setting, Value: stored }, action: true, message: `Profile "${name}": ${setting} is now ${stored}.` };
  },
});
