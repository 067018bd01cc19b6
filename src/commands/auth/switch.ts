import type { Context } from '../../context.js';
import { openConfig } from '../../core/config.js';
import { UsageError } from '../../core/errors.js';

export async function run(_opts: Record<string, unknown>, ctx: Context, args: string[]): Promise<number> {
  const name = args[0]!;
  const store = await openConfig(ctx.env);
  const data = store.read();
  if (!data.profiles[name]) {
    const known = Object.keys(data.profiles);
    throw new UsageError(`no profile named "${name}"${known.length ? ` (profiles: ${known.join(', ')})` : '; log in with `email auth login --profile ' + name + '`'}`);
  }
  data.defaultProfile = name;
  await store.write(data);
  ctx.log.info(`Default profile is now "${name}".`);
  return 0;
}
