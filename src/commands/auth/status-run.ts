// email auth status: every profile with its base URL and masked key, which is
// the default, and one read call to check the key in effect.
import { checkKey } from '../../api/account.js';
import type { Context } from '../../context.js';
import { chooseProfile, openConfig } from '../../core/config.js';
import { ApiError, AuthError, ExitCode } from '../../core/errors.js';
import { maskKey } from '../../core/redact.js';

interface ProfileStatus {
  profile: string;
  default: boolean;
  inEffect: boolean;
  baseUrl: string | null;
  key: string | null;
  check: string;
}

export async function statusCommand(ctx: Context): Promise<number> {
  const store = await openConfig(ctx.env);
  const data = store.read();
  const rows: ProfileStatus[] = [];
  const envKey = ctx.env.EMAIL_API_KEY;
  const chosen = chooseProfile({ env: ctx.env, profileFlag: ctx.globals.profile, insecureHttp: false }, data);
  if (envKey) {
    rows.push({
      profile: '(env EMAIL_API_KEY)',
      default: false,
      inEffect: true,
      baseUrl: ctx.globals.baseUrl ?? ctx.env.EMAIL_BASE_URL ?? null,
      key: maskKey(envKey),
      check: 'not checked',
    });
  }
  for (const [name, p] of Object.entries(data.profiles)) {
    rows.push({
      profile: name,
      default: name === data.defaultProfile,
      inEffect: !envKey && name === chosen.name,
      baseUrl: p.baseUrl ?? null,
      key: p.apiKey ? maskKey(p.apiKey) : null,
      check: 'not checked',
    });
  }
  let exitCode: number = ExitCode.ok;
  const active = rows.find((r) => r.inEffect);
  if (!active) {
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
      if (err instanceof AuthError) {
        active.check = err.status === 403 ? 'account suspended or out of credits (403)' : err.status === 401 ? 'refused (401)' : err.message;
        exitCode = ExitCode.auth;
      } else if (err instanceof ApiError || err instanceof Error) {
        active.check = `could not check: ${err.message}`;
        exitCode = err instanceof ApiError || 'exitCode' in err ? ExitCode.failure : ExitCode.failure;
      }
    }
  }
  await ctx.out.print(rows, {
    columns: [
      { key: 'profile', header: 'Profile' },
      { key: 'default', header: 'Default', format: (v) => (v ? 'yes' : '') },
      { key: 'inEffect', header: 'In effect', format: (v) => (v ? 'yes' : '') },
      { key: 'baseUrl', header: 'Base URL' },
      { key: 'key', header: 'Key' },
      { key: 'check', header: 'Check' },
    ],
  });
  return exitCode;
}
