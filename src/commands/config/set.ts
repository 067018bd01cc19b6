// email config set <key> <value>: stores a default for the profile in effect,
// checked first (exit 2, nothing stored). A profile not stored yet is created
// with the default alone, so defaults can precede `auth login`.
import { defineCommand, requiredArg } from '../define.js';
import { DEFAULT_KEYS } from '../../core/profile-defaults.js';

export default defineCommand({
  name: 'set',
  summary: 'Store a default for the profile (list, output, pager)',
  description: 'A flag or an environment variable always wins over a stored default: --list, -o/--json, EMAIL_PAGER/PAGER and --no-pager.',
  args: { key: requiredArg('key', `the setting: ${DEFAULT_KEYS.join(', ')}`), value: requiredArg('value', 'its value: a list id, a format (table, json, ndjson, csv), a pager command') },
  records: false,
  examples: ['email config set list <id>', 'email config set output json', "email config set pager 'less -R'"],
  async run({ key, value }, ctx) {
    const [{ checkDefaultKey, normalizeDefault }, { profileInEffect }] = await Promise.all([import('../../core/profile-defaults.js'), import('./profile.js')]);
    const setting = checkDefaultKey(key);
    const stored = normalizeDefault(setting, value);
    const { store, data, name } = await profileInEffect(ctx);
    const profile = data.profiles[name] ?? {};
    data.profiles[name] = { ...profile, defaults: { ...profile.defaults, [setting]: stored } };
    await store.write(data);
    ctx.log.info(`Profile "${name}": ${setting} is now ${stored}.`);
  },
});
