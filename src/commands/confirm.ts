// Confirmation before undoing work (CLI.md "confirmation": `campaigns
// unschedule`, `segments clear-rules` ask on a TTY; without a TTY they need --yes).
import type { Context } from '../context.js';
import { AuthError, UsageError } from '../core/errors.js';

/**
 * Returns true when the operation may go ahead: --yes given, or the user
 * answered yes on the terminal. Off a terminal without --yes it refuses with
 * a UsageError (exit 2, nothing sent): a script must say --yes explicitly.
 * The question may be a function: what it reads to name the object (CLI.md
 * "prompts": the campaign's or segment's name) is read only when it is asked.
 * Ctrl-C or Ctrl-D at the question rejects with Cancelled (src/prompt.ts).
 */
export async function confirmDestructive(ctx: Context, question: string | (() => Promise<string>), yesFlag: boolean, action: string): Promise<boolean> {
  if (yesFlag) return true;
  if (!ctx.interactive) {
    throw new UsageError(`refusing to ${action} without --yes when not on a terminal`);
  }
  return ctx.prompt.confirm(typeof question === 'string' ? question : await question());
}

/**
 * `“Spring sale” (id)` when one read learns the object's name, else the id
 * alone: a name is a courtesy, and a read that fails for any reason but the
 * key (which the action itself would meet next) must not stop the user
 * from answering. The name is the service's text: the prompt neutralises it.
 */
export async function namedObject(ctx: Context, id: string, readName: () => Promise<string | null | undefined>): Promise<string> {
  try {
    const name = await readName();
    return name ? `“${name}” (${id})` : id;
  } catch (err) {
    if (err instanceof AuthError) throw err;
    ctx.log.debug(`could not read the name of ${id}: ${err instanceof Error ? err.message : String(err)}`);
    return id;
  }
}

/** Ids compared as the service issues them: with or without dashes, in any letter case (CLI.md "identifiers"). */
export function sameId(a: string, b: string): boolean {
  return a.replace(/-/g, '').toLowerCase() === b.replace(/-/g, '').toLowerCase();
}
