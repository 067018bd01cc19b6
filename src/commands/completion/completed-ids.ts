// What `email __ids` prints: from the cache while fresh, else from the service
// within the completion's time budget, else nothing.
import type { ApiClient } from '../../core/http.js';
import type { CompletedEntry } from '../../core/id-cache.js';
import { neutralize } from '../../core/neutralize.js';
import type { Context } from '../../context.js';
import type { CompletedId } from '../define.js';

/** Asking ends this long after start: the shell waits for the whole completion before the user sees anything. */
const COMPLETION_BUDGET_MS = 1_350;
const MIN_ASK_MS = 500;
/** Largest answer read: past it nothing is offered (a menu that large would be a guess). */
const MAX_ANSWER_BYTES = 1024 * 1024;

export async function completedIds(resource: CompletedId, ctx: Context): Promise<string> {
  const { cacheIdentity, IdCache, isCompletableId, keptEntries, MAX_IDS, MAX_NAME_CHARS } = await import('../../core/id-cache.js');
  const lines = (entries: readonly CompletedEntry[]) => linesOf(entries.slice(0, MAX_IDS), isCompletableId, MAX_NAME_CHARS);
  // A TAB runs this before Enter: a --base-url on the line is never used.
  const identity = cacheIdentity(ctx.env, ctx.globals.profile);
  if (!identity) return '';
  const cache = await IdCache.open(ctx.env, identity);
  if (resource === 'list') return lines(cache?.lists() ?? []);
  const now = ctx.now().getTime();
  const cached = cache?.answer(resource, now);
  if (cached) return lines(cached);
  const answer = await ask(resource, ctx);
  if (!answer) return '';
  const entries = keptEntries(answer.entries, answer.mask);
  if (cache) {
    cache.setAnswer(resource, entries, now);
    await cache.save().catch(() => undefined);
  }
  return lines(entries);
}

/** None when the answer is too large (cached as such); undefined when not all came in time (not cached). */
async function ask(resource: Exclude<CompletedId, 'list'>, ctx: Context): Promise<{ entries: CompletedEntry[]; mask: (text: string) => string } | undefined> {
  const deadline = AbortSignal.timeout(Math.round(Math.max(MIN_ASK_MS, COMPLETION_BUDGET_MS - performance.now())));
  let client: ApiClient | undefined;
  const work = (async () => {
    const { resolveCredentials } = await import('../../core/settings.js');
    const { globals, env } = ctx;
    // Read only now, with the deadline: a keychain that hangs costs the budget, no more.
    const creds = await resolveCredentials({ env, profileFlag: globals.profile, insecureHttp: globals.insecureHttp, signal: deadline });
    const { AnswerTooLargeError } = await import('../../core/errors.js');
    const api = (client = await ctx.apiWith(creds, { maxBodyBytes: MAX_ANSWER_BYTES }));
    const entries = await (resource === 'campaign' ? campaigns(api) : smartEmails(api)).catch((error: unknown) => {
      if (error instanceof AnswerTooLargeError) return [];
      throw error;
    });
    return { entries, mask: (text: string) => api.redact(text) };
  })();
  const timedOut = new Promise<undefined>((resolve) => deadline.addEventListener('abort', () => resolve(undefined), { once: true }));
  try {
    const entries = await Promise.race([work, timedOut]);
    if (!entries) await (client as ApiClient | undefined)?.destroy();
    return entries;
  } finally {
    work.catch(() => undefined);
  }
}

/** Sent and scheduled campaigns: the ones a campaign command can act on. */
async function campaigns(client: ApiClient): Promise<CompletedEntry[]> {
  const { listScheduledCampaigns, listSentCampaigns } = await import('../../api/campaigns.js');
  const [scheduled, sent] = await Promise.all([listScheduledCampaigns(client), listSentCampaigns(client)]);
  return [...scheduled, ...sent.campaigns].map((c) => entry(c.CampaignID, c.Name));
}

async function smartEmails(client: ApiClient): Promise<CompletedEntry[]> {
  const { listSmartEmails } = await import('../../api/transactional.js');
  return (await listSmartEmails(client, 'all')).map((e) => entry(e.ID, e.Name));
}

function entry(id: string, name: string | null | undefined): CompletedEntry {
  return name ? { id, name } : { id };
}

/** One line an id, a tab and its name: ids are UUIDs only (no word a shell expands); names show controls as escapes. */
function linesOf(entries: readonly CompletedEntry[], isCompletableId: (id: string) => boolean, maxNameChars: number): string {
  const seen = new Set<string>();
  let out = '';
  for (const { id, name } of entries) {
    if (!isCompletableId(id) || seen.has(id.toLowerCase())) continue;
    seen.add(id.toLowerCase());
    const shown = name ? neutralize(name).trim().slice(0, maxNameChars) : '';
    out += shown ? `${id}\t${shown}\n` : `${id}\n`;
  }
  return out;
}
