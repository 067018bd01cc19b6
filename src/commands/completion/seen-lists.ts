// The lists a profile used, remembered for `--list <TAB>` (the service has no
// endpoint that lists them): the list ids a command that reached the service
// was given (an import, an add, a history), and the lists with their names
// that an answer carried (`subscribers lists`). Called once a command has
// succeeded; the cache module loads only when there is something to remember,
// so other commands pay one look at their input. Never fails the command.
import type { Context } from '../../context.js';
import type { AnyCommand, ArgDecl, OptionDecl } from '../define.js';

interface SeenList {
  id: string;
  name?: string;
}

/** Most records of an answer looked at for list names. */
const MAX_RECORDS = 1_000;

export function listsSeen(definition: AnyCommand, input: Record<string, unknown>, data: unknown): SeenList[] {
  const seen: SeenList[] = [];
  const decls = { ...(definition.args ?? {}), ...(definition.options ?? {}) } as Record<string, ArgDecl | OptionDecl>;
  for (const [key, decl] of Object.entries(decls)) {
    if (!('complete' in decl) || decl.complete !== 'list') continue;
    const value = input[key];
    for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') seen.push({ id });
  }
  if (Array.isArray(data)) {
    for (const record of data.slice(0, MAX_RECORDS) as unknown[]) {
      const { ListID, ListName } = (record ?? {}) as { ListID?: unknown; ListName?: unknown };
      if (typeof ListID === 'string' && typeof ListName === 'string') seen.push({ id: ListID, name: ListName });
    }
  }
  return seen;
}

/** `mask` hides the key in every form (src/core/redact.ts): a list's name is the service's text, kept in a file. */
export async function rememberListsSeen(definition: AnyCommand, input: Record<string, unknown>, data: unknown, ctx: Context, mask: (text: string) => string): Promise<void> {
  const seen = listsSeen(definition, input, data);
  if (!seen.length) return;
  try {
    const { cacheIdentity, IdCache } = await import('../../core/id-cache.js');
    const identity = cacheIdentity(ctx.env, ctx.globals.profile, ctx.globals.baseUrl);
    const cache = identity && (await IdCache.open(ctx.env, identity));
    if (cache?.rememberLists(seen, ctx.now().getTime(), mask)) await cache.save();
  } catch (error) {
    ctx.log.debug(`lists not remembered for completion: ${error instanceof Error ? error.message : String(error)}`);
  }
}
