// email config list: the profile's stored defaults, one row a setting (only those set).
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'list',
  summary: "List the profile's stored defaults",
  records: { fields: ['Key', 'Value', 'Name'], list: true },
  examples: ['email config list', 'email config list --profile staging --json'],
  async run(_input, ctx) {
    const [{ DEFAULT_KEYS }, { profileInEffect }] = await Promise.all([import('../../core/profile-defaults.js'), import('./profile.js')]);
    const { data, name } = await profileInEffect(ctx);
    const defaults = data.profiles[name]?.defaults ?? {};
    // Name: the default list's, as given to `config set list --name`; null for the other settings.
    const rows = DEFAULT_KEYS.filter((k) => defaults[k] !== undefined).map((k) => ({ Key: k, Value: defaults[k], Name: k === 'list' ? (defaults.listName ?? null) : null }));
    return {
      data: rows,
      people: async (data, out) => {
        await out.table(data, [{ key: 'Key', header: 'Setting' }, { key: 'Value', header: 'Value' }, { key: 'Name', header: 'Name' }]);
        out.note(rows.length ? `Profile "${name}".` : `Profile "${name}" has no stored defaults.`);
      },
    };
  },
});
