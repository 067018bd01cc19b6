// email auth login: the key never comes from argv (it would show in `ps` and
// shell history). It goes to the keychain where one exists, else to the config
// file (0600), and login says which.
import type { Context } from '../../context.js';
import type { KeyStore, Profile } from '../../core/config.js';
import { ApiError, AuthError, CliError, ExitCode, NetworkError, RedirectError, UsageError } from '../../core/errors.js';
import type { KeychainError } from '../../core/keychain.js';
import { neutralize } from '../../core/neutralize.js';
import { defineCommand, switchOption } from '../define.js';

export default defineCommand({
  name: 'login',
  summary: "Store an API key for a profile, in the operating system's keychain where there is one (prompted without echo, or read from stdin with --with-key)",
  options: {
    withKey: switchOption('--with-key', 'read the key from standard input (for CI)'),
    insecureStorage: switchOption('--insecure-storage', "keep the key in the config file (0600), not in the operating system's keychain"),
  },
  records: false,
  examples: [
    'email auth login --base-url https://api.example.com',
    'echo "$EMAIL_KEY" | email auth login --profile ci --base-url https://api.example.com --with-key',
    'echo "$EMAIL_KEY" | email auth login --profile ci --base-url https://api.example.com --with-key --insecure-storage',
  ],
  async run(input, ctx) {
    const [{ checkKey }, { checkBaseUrl, DEFAULT_PROFILE, keyStoreOf, openConfig, profileKeychainEntry }, { readText }, { maskKey }] = await Promise.all([
      import('../../api/account.js'),
      import('../../core/config.js'),
      import('../../core/json-input.js'),
      import('../../core/redact.js'),
    ]);
    const profile = ctx.globals.profile ?? ctx.env.EMAIL_PROFILE ?? DEFAULT_PROFILE;
    // Read only: a login that fails creates no directory and no file.
    const store = await openConfig(ctx.env);
    const data = store.read();
    const existing = data.profiles[profile];
    const rawBaseUrl = ctx.globals.baseUrl ?? existing?.baseUrl ?? ctx.env.EMAIL_BASE_URL;
    if (!rawBaseUrl) throw new UsageError(`--base-url is required: profile "${profile}" has no base URL yet`);
    const baseUrl = checkBaseUrl(rawBaseUrl, ctx.globals.insecureHttp);

    let apiKey: string;
    if (input.withKey) {
      // An endless stdin (`--with-key < /dev/zero`) is refused, not kept.
      apiKey = (await readText(ctx.stdin.stream, { maxBytes: 64 * 1024, limit: '64 KiB, far more than any key', name: 'the key on stdin', signal: ctx.signal })).trim();
    } else if (ctx.stdin.isTTY) {
      apiKey = await ctx.prompt.secret(`API key for ${baseUrl}: `);
    } else {
      throw new UsageError('no terminal to prompt for the key: pipe it in with --with-key');
    }
    if (!apiKey) throw new UsageError('the API key is empty');
    if (/\s/.test(apiKey)) throw new UsageError('the API key contains white space; paste exactly the key');

    // Check before storing, as gh does: only a 2xx answer stores the key.
    const client = await ctx.apiWith({ baseUrl, apiKey });
    let answer;
    try {
      answer = await checkKey(client);
    } catch (err) {
      throw checkFailed(err, baseUrl);
    }
    // The HTTP core refuses a redirect like any non-2xx; checkFailed() says what it means here.
    if (answer.status < 200 || answer.status >= 300) throw new LoginCheckFailed(`could not check the key: ${baseUrl} answered ${answer.status}; ${NOTHING_STORED}`, ExitCode.failure, 'Check the base URL.');

    // When the keychain refuses, nothing is stored (the file is left as it was).
    const fileWhere = `${store.path} (mode 0600)`;
    let where: KeyStore = 'file';
    let noKeychain: string | undefined;
    if (!input.insecureStorage) {
      const { KeychainError, storeKeychainKey } = await import('../../core/keychain.js');
      let stored;
      try {
        stored = await storeKeychainKey(ctx.env, await profileKeychainEntry(ctx.env, profile), apiKey, ctx.signal);
      } catch (err) {
        throw err instanceof KeychainError ? keychainRefused(err, fileWhere) : err;
      }
      if (stored.stored) where = 'keychain';
      else noKeychain = stored.why;
    }
    const was = keyStoreOf(existing);
    const entry: Profile = where === 'keychain' ? { baseUrl, keyStore: 'keychain' } : { baseUrl, apiKey, keyStore: 'file' };
    data.profiles[profile] = entry;
    if (!data.defaultProfile || !data.profiles[data.defaultProfile] || Object.keys(data.profiles).length === 1) data.defaultProfile = profile;
    await store.write(data);
    if (was === 'keychain' && where === 'file') await removeFromKeychain(ctx, profile);

    if (noKeychain) ctx.log.info(`no keychain here (${noKeychain}): the key is stored in ${fileWhere}`);
    const stored = where === 'keychain' ? (was === 'file' ? `moved from ${store.path} to the keychain` : 'stored in the keychain') : `stored in ${fileWhere}`;
    return {
      message: `Logged in for profile "${profile}" at ${baseUrl} (key ${maskKey(apiKey)}, ${stored})${data.defaultProfile === profile ? ', the default profile' : ''}.`,
    };
  },
});

/** A keychain that said no or did not answer: exit 4, nothing stored. Never the file instead: plain text is the user's choice. */
function keychainRefused(err: KeychainError, fileWhere: string): Error {
  const hung = err.reason === 'unresponsive';
  const refused = new LoginKeychainRefused(`the keychain ${hung ? 'did not answer when asked' : 'refused'} to store the key (${err.message}); ${NOTHING_STORED}`);
  refused.hint = hung
    ? `Check that the keychain's service is running (on Linux: gnome-keyring or KWallet) and try again, or pass --insecure-storage to keep the key in ${fileWhere}.`
    : `Unlock the keychain and try again, or pass --insecure-storage to keep the key in ${fileWhere}.`;
  return refused;
}

/** The key now lives in the file: the keychain's copy goes, or the user is told where it stays. */
async function removeFromKeychain(ctx: Context, profile: string): Promise<void> {
  const [{ deleteKeychainKey }, { profileKeychainEntry }] = await Promise.all([import('../../core/keychain.js'), import('../../core/config.js')]);
  const entry = await profileKeychainEntry(ctx.env, profile);
  try {
    await deleteKeychainKey(ctx.env, entry, ctx.signal);
  } catch (err) {
    ctx.log.warn(
      `the key stored earlier in the keychain for profile "${profile}" could not be removed (${(err as Error).message}): remove the entry "${entry.account}" of "${entry.service}" there`,
    );
  }
}

class LoginKeychainRefused extends CliError {
  readonly exitCode = ExitCode.auth;
  constructor(message: string) {
    super(message);
    this.name = 'LoginKeychainRefused';
  }
}

const NOTHING_STORED = 'nothing was stored';

function checkFailed(err: unknown, baseUrl: string): Error {
  if (err instanceof AuthError) {
    const refused = new AuthError({
      status: err.status,
      code: err.code,
      method: err.method,
      path: err.path,
      message:
        err.status === 403
          ? `${baseUrl} refused the key (403: the account is suspended or out of credits); ${NOTHING_STORED}`
          : `${baseUrl} refused the key (${err.status || 401}: ${err.message}); ${NOTHING_STORED}`,
    });
    refused.hint = err.status === 403 ? 'Check the account in the web app, then log in again.' : 'Copy the key again from the web app (and check the profile and base URL), then log in again.';
    return refused;
  }
  if (err instanceof RedirectError) {
    // Not followed: the key would go where it points.
    const refused = new RedirectError({ status: err.status, method: err.method, path: err.path, message: `could not check the key: ${err.message}; ${NOTHING_STORED}` }, err.location);
    refused.hint = err.location ? 'If that address is the service, log in with it as --base-url.' : 'Check the base URL.';
    return refused;
  }
  if (err instanceof ApiError && err.status === 404) {
    return new LoginCheckFailed(
      `no service at this base URL: ${baseUrl} answered 404 to ${err.method} ${err.path}; ${NOTHING_STORED}`,
      ExitCode.failure,
      "Check the base URL, including any path prefix the service's address has.",
    );
  }
  if (err instanceof ApiError) {
    // The service's message stays one line, so it cannot pass for a line of ours.
    return new LoginCheckFailed(`could not check the key: ${baseUrl} answered ${err.status} (${neutralize(err.message)}); ${NOTHING_STORED}`, ExitCode.failure, 'Try again later, or check the base URL.');
  }
  if (err instanceof NetworkError) {
    return new LoginCheckFailed(`could not check the key: ${err.message}; ${NOTHING_STORED}`, ExitCode.failure, 'Check the base URL and that the service is reachable (`email doctor --base-url <url>`).');
  }
  return err as Error;
}

class LoginCheckFailed extends CliError {
  constructor(
    message: string,
    readonly exitCode: number,
    hint: string,
  ) {
    super(message);
    this.name = 'LoginCheckFailed';
    this.hint = hint;
  }
}
