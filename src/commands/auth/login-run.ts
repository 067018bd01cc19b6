// email auth login: store a key for a profile. The key never comes from argv
// (it would show in `ps` and shell history): a no-echo prompt, or stdin with --with-key.
import { checkKey } from '../../api/account.js';
import type { Context } from '../../context.js';
import { checkBaseUrl, DEFAULT_PROFILE, openConfig } from '../../core/config.js';
import { ApiError, AuthError, CliError, ExitCode, NetworkError, RedirectError, UsageError } from '../../core/errors.js';
import { readText } from '../../core/json-input.js';
import { maskKey } from '../../core/redact.js';

export async function loginCommand(opts: { withKey: boolean }, ctx: Context): Promise<number> {
  const profile = ctx.globals.profile ?? ctx.env.EMAIL_PROFILE ?? DEFAULT_PROFILE;
  // Read only: a login that fails creates no directory and no file.
  const store = await openConfig(ctx.env);
  const data = store.read();
  const existing = data.profiles[profile];
  const rawBaseUrl = ctx.globals.baseUrl ?? existing?.baseUrl ?? ctx.env.EMAIL_BASE_URL;
  if (!rawBaseUrl) throw new UsageError(`--base-url is required: profile "${profile}" has no base URL yet`);
  const baseUrl = checkBaseUrl(rawBaseUrl, ctx.globals.insecureHttp);

  let apiKey: string;
  if (opts.withKey) {
    // A key is a few dozen characters: an endless stdin (`--with-key < /dev/zero`) is refused, not kept.
    apiKey = (await readText(ctx.io.stdin, { maxBytes: 64 * 1024, limit: '64 KiB, far more than any key', name: 'the key on stdin', signal: ctx.signal })).trim();
  } else if (ctx.io.stdinIsTTY) {
    apiKey = await ctx.prompt.secret(`API key for ${baseUrl}: `);
  } else {
    throw new UsageError('no terminal to prompt for the key: pipe it in with --with-key');
  }
  if (!apiKey) throw new UsageError('the API key is empty');
  if (/\s/.test(apiKey)) throw new UsageError('the API key contains white space; paste exactly the key');

  // Check before storing, as gh does (CLI.md "auth login"): only a 2xx
  // answer stores the key; anything else stores nothing and says why.
  const client = await ctx.apiWith({ baseUrl, apiKey });
  let answer;
  try {
    answer = await checkKey(client);
  } catch (err) {
    throw checkFailed(err, baseUrl);
  }
  // A redirect (often http → https, or a moved host) is refused by the HTTP core, like every other
  // non-2xx (CLI.md "redirects"); checkFailed() says what it means here.
  if (answer.status < 200 || answer.status >= 300) throw new LoginCheckFailed(`could not check the key: ${baseUrl} answered ${answer.status}; ${NOTHING_STORED}`, ExitCode.failure, 'Check the base URL.');

  data.profiles[profile] = { baseUrl, apiKey };
  if (!data.profiles[data.defaultProfile] || Object.keys(data.profiles).length === 1) data.defaultProfile = profile;
  await store.write(data);
  ctx.log.info(
    `Logged in for profile "${profile}" at ${baseUrl} (key ${maskKey(apiKey)})${data.defaultProfile === profile ? ', the default profile' : ''}.`,
  );
  return 0;
}

const NOTHING_STORED = 'nothing was stored';

/** The check's failure, saying why in the user's terms and that the key was not stored. */
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
    return new LoginCheckFailed(`could not check the key: ${baseUrl} answered ${err.status} (${err.message}); ${NOTHING_STORED}`, ExitCode.failure, 'Try again later, or check the base URL.');
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
