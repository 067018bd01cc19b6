// The profile `email config` acts on: the one in effect, chosen as every
// command chooses it (--profile, EMAIL_PROFILE, the stored default).
import type { Context } from '../../context.js';
import type { ConfigData, ConfigStore } from '../../core/config.js';

export async function profileInEffect(ctx: Context): Promise<{ store: ConfigStore; data: ConfigData; name: string }> {
  const [{ openConfig }, { chooseProfile }] = await Promise.all([import('../../core/config.js'), import('../../core/settings.js')]);
  const store = await openConfig(ctx.env);
  const data = store.read();
  const { name } = chooseProfile({ env: ctx.env, profileFlag: ctx.globals.profile }, data);
  return { store, data, name };
}
