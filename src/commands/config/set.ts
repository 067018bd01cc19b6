// email config set <key> <value>: stores a default for the profile in effect,
// checked first (exit 2, nothing stored). A profile not stored yet is created
// with the default alone, so defaults can precede `auth login`.
import { messageOnly, defineCommand, requiredArg, textOption } from '../define.js';
import { DEFAULT_KEYS } from '../../core/profile-defaults.js';

export default defineCommand({
  name: 'set',
  summary: 'Store a default for the profile (list, output, pager)',
  description:
    'A flag or an environment variable always wins over a stored default: --list given (or the id as the ' +
    'argument), -o or --json, EMAIL_PAGER or PAGER (and --no-pager). The service has no read of a ' +
    "list's name: give it with --name, and commands that use the default list say it.",
  args: {
    key: requiredArg('key', 'the setting', { choices: DEFAULT_KEYS }),
    value: requiredArg('value', 'its value: a list id; a format (table, json, ndjson, csv); a pager command, or none'),
  },
  options: { name: textOption('--name', '<name>', "the default list's name, shown when a command uses it", { check: 'nonblank' }) },
  records: { fields: ['Profile', 'Key', 'Value', 'Name'] },
  examples: ['email config set list <id> --name Newsletter', 'email config set output json --profile ci', 'email config set pager "less -S"'],
  // The key's declared choices: parsing has matched it, in any case, to one of DEFAULT_KEYS.
  async run({ key: setting, value, name: listName }, ctx) {
    const [{ defaultProblem, normalizeDefault }, { profileInEffect }, { hinted, UsageError }] = await Promise.all([
      import('../../core/profile-defaults.js'),
      import('./profile.js'),
      import('../../core/errors.js'),
    ]);
    if (listName !== undefined && setting !== 'list') throw new UsageError('--name names a list: it goes with `config set list <id>`');
    const stored = normalizeDefault(setting, value);
    const nameProblem = listName === undefined ? undefined : defaultProblem('listName', listName);
    if (nameProblem) throw hinted(new UsageError(nameProblem), 'Nothing was stored.');
    const { store, data, name } = await profileInEffect(ctx);
    const profile = data.profiles[name] ?? {};
    const defaults = { ...profile.defaults, [setting]: stored };
    // A new list id makes the name given with the old one wrong: it goes unless given again.
    if (setting === 'list') {
      delete defaults.listName;
      if (listName !== undefined) defaults.listName = listName.trim();
    }
    data.profiles[name] = { ...profile, defaults };
    await store.write(data);
    const named = setting === 'list' && defaults.listName ? ` (${defaults.listName})` : '';
    return {
      data: { Profile: name, Key: setting, Value: stored, Name: setting === 'list' ? (defaults.listName ?? null) : null },
      people: messageOnly,
      message: `Profile "${name}": ${setting} is now ${stored}${named}.`,
    };
  },
});
