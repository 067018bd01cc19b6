// email auth logout: removes a profile and its key, and says which profile is the default afterwards.
import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'logout',
  summary: 'Remove a profile (its base URL, and its key from the keychain or the config file), and say which profile is the default after',
  records: false,
  examples: ['email auth logout', 'email auth logout --profile staging'],
  async run(_input, ctx) {
    const { DEFAULT_PROFILE, keyStoreOf, openConfig, profileKeychainEntry } = await import('../../core/config.js');
    const { chooseProfile } = await import('../../core/settings.js');
    const store = await openConfig(ctx.env);
    const data = store.read();
    const { name } = chooseProfile({ env: ctx.env, profileFlag: ctx.globals.profile }, data);
    if (!data.profiles[name]) {
      const known = Object.keys(data.profiles);
      throw new UsageError(`no profile named "${name}"${known.length ? ` (profiles: ${known.join(', ')})` : ''}`);
    }
    const removed = data.profiles[name]!;
    let from = '';
    if (keyStoreOf(removed) === 'keychain') {
      // A locked keychain stops the logout (exit 4, nothing removed) rather than leave its key behind.
      const { deleteKeychainKey, KeychainError } = await import('../../core/keychain.js');
      const entry = await profileKeychainEntry(ctx.env, name);
      try {
        from = (await deleteKeychainKey(ctx.env, entry, ctx.signal)) ? ', from the keychain' : '; the key was already gone from the keychain';
      } catch (err) {
        if (!(err instanceof KeychainError)) throw err;
        if (err.reason === 'refused') {
          const refused = new KeychainError('refused', `the keychain refused to remove the key of profile "${name}" (${err.detail}); nothing was removed`, err.detail);
          refused.hint = 'Unlock the keychain and try again.';
          throw refused;
        }
        if (err.reason === 'unresponsive') {
          const hung = new KeychainError('unresponsive', `the keychain did not answer when asked to remove the key of profile "${name}" (${err.detail}); nothing was removed`, err.detail);
          hung.hint = "Check that the keychain's service is running (on Linux: gnome-keyring or KWallet), and try again.";
          throw hung;
        }
        // No keychain here (ssh, module absent): the profile goes; the user is told where its key stays.
        ctx.log.warn(`the keychain cannot be reached here (${err.detail}): the key of profile "${name}" stays there, as entry "${entry.account}" of "${entry.service}"`);
      }
    }
    delete data.profiles[name];
    const wasDefault = (data.defaultProfile ?? DEFAULT_PROFILE) === name;
    // Another profile may be another account: a default that changes is said, never silent.
    const next = wasDefault ? Object.keys(data.profiles)[0] : undefined;
    // The last profile gone, no default is left behind to name a profile that no longer exists.
    if (wasDefault) data.defaultProfile = next;
    await store.write(data);
    const what = `Removed profile "${name}" (${removed.baseUrl ?? 'no base URL'} and its key${from}).`;
    if (!wasDefault) return { message: `${what} The default profile is still "${data.defaultProfile ?? DEFAULT_PROFILE}".` };
    if (next) return { message: `${what}\nThe default profile is now "${next}" (${data.profiles[next]!.baseUrl ?? 'no base URL'}); \`email auth switch <profile>\` changes it.` };
    return { message: `${what}\nNo profile is left, so there is no default profile: \`email auth login\` stores one, and makes it the default.` };
  },
});
