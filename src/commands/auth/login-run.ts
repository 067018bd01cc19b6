// email auth login: store a key for a profile. The key never comes from argv
// (it would show in `ps` and shell history): a no-echo prompt, or stdin with --with-key.
import { checkKey } from '../../api/account.js';
import type { Context } from '../../context.js';
import { checkBaseUrl, DEFAULT_PROFILE, openConfig } from '../../core/config.js';
import { ApiError, AuthError, NetworkError, UsageError } from '../../core/errors.js';
import { readText } from '../../core/json-input.js';
import { maskKey } from '../../core/redact.js';

export async function loginCommand(opts: { withKey: boolean }, ctx: Context): Promise<number> {
  const profile = ctx.globals.profile ?? ctx.env.EMAIL_PROFILE ?? DEFAULT_PROFILE;
  const store = await openConfig(ctx.env);
  const data = store.read();
  const existing = data.profiles[profile];
  const rawBaseUrl = ctx.globals.baseUrl ?? existing?.baseUrl ?? ctx.env.EMAIL_BASE_URL;
  if (!rawBaseUrl) throw new UsageError(`--base-url is required: profile "${profile}" has no base URL yet`);
  const baseUrl = checkBaseUrl(rawBaseUrl, ctx.globals.insecureHttp);

  let apiKey: string;
  if (opts.withKey) {
    apiKey = (await readText(ctx.io.stdin)).trim();
  } else if (ctx.io.stdinIsTTY) {
    apiKey = await ctx.prompt.secret(`API key for ${baseUrl}: `);
  } else {
    throw new UsageError('no terminal to prompt for the key: pipe it in with --with-key');
  }
  if (!apiKey) throw new UsageError('the API key is empty');
  if (/\s/.test(apiKey)) throw new UsageError('the API key contains white space; paste exactly the key');

  // Check before storing, as gh does: a refused key is never saved.
  const client = await ctx.apiWith({ baseUrl, apiKey });
  let verified = true;
  try {
    await checkKey(client);
  } catch (err) {
    if (err instanceof AuthError) throw err;
    if (err instanceof NetworkError || (err instanceof ApiError && err.status >= 500)) {
      verified = false;
      ctx.log.warn(`could not check the key (${err.message}); stored it anyway`);
    } else if (!(err instanceof ApiError)) {
      throw err;
    }
  }

  data.profiles[profile] = { baseUrl, apiKey };
  if (!data.profiles[data.defaultProfile] || Object.keys(data.profiles).length === 1) data.defaultProfile = profile;
  store.write(data);
  ctx.log.info(
    `${verified ? 'Logged in' : 'Stored the key'} for profile "${profile}" at ${baseUrl} (key ${maskKey(apiKey)})${data.defaultProfile === profile ? ', the default profile' : ''}.`,
  );
  return 0;
}
