// Subscriber codes the commands' declarations carry (the checks live in
// src/validation/subscriber-fields.ts), and what add and update say around them.
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../core/errors.js';

/** "1 invalid email address" (the current address). */
export const EMAIL_INVALID = 1;
/** "211 invalid new email address" (update's --new-email). */
export const NEW_EMAIL_INVALID = 211;
/** "214 consent to track value missing". */
export const CONSENT_MISSING = 214;
/** "215 invalid consent value" (import's --consent). */
export const CONSENT_INVALID = 215;

export const CONSENT_HELP = 'consent to track: yes or no (required by the service)';
export const CONSENT_WHAT = 'yes or no; the service refuses a subscriber without ConsentToTrack';
export const CONSENT_HINT =
  'ConsentToTrack has no default on add and update (docs/reference.md, "email subscribers add" and "email subscribers update"); say --consent yes or --consent no.';
export const ALLOW_EMPTY_NAME_HELP = 'send an empty --name, which empties the stored name';
export const RESTART_HELP = 'restart subscription-based automated emails for a resubscribed address';

/** What is sent replaces a stored name, so an empty one is sent only when asked (--allow-empty-name, or yes at a terminal). */
export async function nameToSend(ctx: Context, name: string, allowEmpty: boolean, address: string): Promise<string> {
  if (allowEmpty || name.trim() !== '') return name;
  const what = `--name is empty: the service replaces the stored name of ${address} with what is sent, so it would be emptied`;
  if (ctx.interactive) {
    if (await ctx.prompt.confirm(`${what}. Send an empty name?`)) return name;
    throw new UsageError('cancelled: nothing was sent');
  }
  const error = new UsageError(`${what}; nothing was sent`);
  error.hint = 'Give the name to keep, or --allow-empty-name to send it empty.';
  throw error;
}

/** service-spec.md "States and transitions": Resubscribe re-adds an address these codes refuse (206: unsubscribed). */
export const RESUBSCRIBE_CODES: ReadonlySet<number> = new Set([204, 205, 206, 207]);
export const RESUBSCRIBE_HINT = '--resubscribe re-adds it (only if the person asked to be added again).';

export function withResubscribeHint(err: unknown): unknown {
  if (err instanceof ApiError && err.code !== undefined && RESUBSCRIBE_CODES.has(err.code) && !err.hint) err.hint = RESUBSCRIBE_HINT;
  return err;
}
