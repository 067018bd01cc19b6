// The lists a profile used, remembered for `--list <TAB>` since the service has
// no endpoint that lists them. Never fails the command.
import type { Context } from '../../context.js';

export async function rememberLists(ctx: Context, lists: readonly (string | { id: string; name: string })[]): Promise<void> {
  if (!lists.length) return;
  const seen = lists.map((l) => (typeof l === 'string' ? { id: l } : l));
  try {
    const { cacheIdentity, IdCache } = await import('../../core/id-cache.js');
    const identity = cacheIdentity(ctx.env, ctx.globals.profile, ctx.globals.baseUrl);
    const cache = identity && (await IdCache.open(ctx.env, identity));
    if (cache?.rememberLists(seen, ctx.now().getTime(), ctx.maskKeys)) await cache.save();
  } catch (error) {
    ctx.log.debug(`lists not remembered for completion: ${error instanceof Error ? error.message : String(error)}`);
  }
}
