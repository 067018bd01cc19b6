// email auth status: every profile, where its key is stored, its defaults, and
// one read call to check the key in effect. Help reads this file, so run loads the rest.
import type { KeyStore } from '../../core/config.js';
import { AuthError, CliError, ExitCode, ExitOnly, Interrupted } from '../../core/errors.js';
import type { ProfileDefaults } from '../../core/profile-defaults.js';
import { defineCommand } from '../define.js';

interface ProfileStatus {
  profile: string;
  default: boolean;
  inEffect: boolean;
  baseUrl: string | null;
  key: string | null;
  /** Where the key is: the keychain, the config file, or the environment (EMAIL_API_KEY). */
  keyStore: KeyStore | 'env' | null;
  /** Null for the key from the environment, which is no profile. */
  defaults: ProfileDefaults | null;
  check: string;
}

export default defineCommand({
  name: 'status',
  summary: 'Show every profile with its base URL, masked key and where the key is stored, its stored defaults, and check the key in effect',
  records: { fields: ['profile', 'default', 'inEffect', 'baseUrl', 'key', 'keyStore', 'defaults', 'check'] },
  examples: ['email auth status', 'email auth status --json'],
  async run(_input, ctx) {
    const [{ checkKey }, { keyStoreOf, openConfig, readProfileKey }, { chooseProfile, profileChoiceWords }, { maskKey }, { describeDefaults }] = await Promise.all([
      import('../../api/account.js'),
      import('../../core/config.js'),
      import('../../core/settings.js'),
      import('../../core/redact.js'),
      import('../../core/profile-defaults.js'),
    ]);
    const store = await openConfig(ctx.env);
    const data = store.read();
    const rows: ProfileStatus[] = [];
    const envKey = ctx.env.EMAIL_API_KEY;
    const chosen = chooseProfile({ env: ctx.env, profileFlag: ctx.globals.profile }, data);
    if (envKey) {
      rows.push({
        profile: '(env EMAIL_API_KEY)',
        default: false,
        inEffect: true,
        baseUrl: ctx.globals.baseUrl ?? ctx.env.EMAIL_BASE_URL ?? null,
        key: maskKey(envKey),
        keyStore: 'env',
        defaults: null,
        check: 'not checked',
      });
    }
    for (const [name, p] of Object.entries(data.profiles)) {
      const inEffect = !envKey && name === chosen.name;
      let key: string | undefined;
      try {
        key = await readProfileKey(ctx.env, name, p, ctx.signal);
      } catch (err) {
        // The key in effect is checked below; another profile's problem is said here.
        if (!(err instanceof CliError) || err instanceof Interrupted) throw err;
        if (!inEffect) ctx.log.warn(err.message);
      }
      rows.push({
        profile: name,
        default: name === data.defaultProfile,
        inEffect,
        baseUrl: p.baseUrl ?? null,
        key: key ? maskKey(key) : null,
        keyStore: keyStoreOf(p) ?? null,
        defaults: p.defaults ?? {},
        check: 'not checked',
      });
    }
    let exitCode: number = ExitCode.ok;
    const active = rows.find((r) => r.inEffect);
    if (!active && rows.length && chosen.chosenBy !== 'default') {
      // A name given by --profile or EMAIL_PROFILE that is not stored: a usage error, as every command says it.
      ctx.log.warn(`no profile named "${chosen.name}" (${profileChoiceWords(chosen.chosenBy)}); profiles: ${Object.keys(data.profiles).join(', ')}`);
      exitCode = ExitCode.usage;
    } else if (!active) {
      ctx.log.warn(
        rows.length
          ? `profile "${chosen.name}" does not exist; run \`email auth login --profile ${chosen.name}\``
          : 'not logged in: run `email auth login --base-url <url>`, or set EMAIL_API_KEY and EMAIL_BASE_URL',
      );
      exitCode = ExitCode.auth;
    } else {
      try {
        await checkKey(await ctx.api());
        active.check = 'valid';
      } catch (err) {
        // Ctrl-C or a reader gone away is no verdict on the key.
        if (err instanceof Interrupted || ctx.signal.aborted) throw err;
        if (err instanceof AuthError) {
          active.check = err.status === 403 ? 'account suspended or out of credits (403)' : err.status === 401 ? 'refused (401)' : err.message;
          exitCode = ExitCode.auth;
        } else if (err instanceof CliError && err.exitCode === ExitCode.auth) {
          // The keychain could not give the key: the check says why, the hint what to do.
          active.check = err.message;
          if (err.hint) ctx.log.info(`hint: ${err.hint}`);
          exitCode = ExitCode.auth;
        } else if (err instanceof Error) {
          active.check = `could not check: ${err.message}`;
          exitCode = ExitCode.failure;
        }
      }
    }
    return {
      data: rows,
      error: exitCode === ExitCode.ok ? undefined : new ExitOnly(exitCode),
      columns: [
        { key: 'profile', header: 'Profile' },
        { key: 'default', header: 'Default', format: (v) => (v ? 'yes' : '') },
        { key: 'inEffect', header: 'In effect', format: (v) => (v ? 'yes' : '') },
        { key: 'baseUrl', header: 'Base URL' },
        { key: 'key', header: 'Key' },
        { key: 'keyStore', header: 'Stored', format: (v) => (v === 'keychain' ? 'in the keychain' : v === 'file' ? `in ${store.path} (0600)` : v === 'env' ? 'in the environment' : '') },
        { key: 'defaults', header: 'Defaults', format: (v) => (v ? (describeDefaults(v as ProfileDefaults) ?? '') : '') },
        { key: 'check', header: 'Check' },
      ],
    };
  },
});
