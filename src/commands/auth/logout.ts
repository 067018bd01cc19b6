import type { Context } from '../../context.js';
import { chooseProfile, openConfig } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';

export async function run(_opts: Record<string, unknown>, ctx: Context): Promise<number> {
  const store = await openConfig(ctx.env);
  const data = store.read();
  const { name } = chooseProfile({ env: ctx.env, profileFlag: ctx.globals.profile, insecureHttp: false }, data);
  if (!data.profiles[name]) {
    const known = Object.keys(data.profiles);
    throw new UsageError(`no profile named "${name}"${known.length ? ` (profiles: ${known.join(', ')})` : ''}`);
  }
  delete data.profiles[name];
  if (data.defaultProfile === name) {
    // Keep a usable default when other profiles remain.
    const next = Object.keys(data.profiles)[0];
    if (next) data.defaultProfile = next;
  }
  await store.write(data);
  ctx.log.info(`Removed the key of profile "${name}".`);
  return 0;
}
