import type { Context } from '../context.js';
import { AuthError, UsageError } from '../core/errors.js';

/** Off a terminal without --yes it refuses (exit 2): a script must say --yes. A function question is read only when asked. */
export async function confirmDestructive(ctx: Context, question: string | (() => Promise<string>), yesFlag: boolean, action: string): Promise<boolean> {
  if (yesFlag) return true;
  if (!ctx.interactive) {
    throw new UsageError(`refusing to ${action} without --yes when not on a terminal`);
  }
  return ctx.prompt.confirm(typeof question === 'string' ? question : await question());
}

/** A name is a courtesy: a read that fails (but for the key) must not stop the user from answering. */
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

/** With or without dashes, in any letter case. */
export function sameId(a: string, b: string): boolean {
  return a.replace(/-/g, '').toLowerCase() === b.replace(/-/g, '').toLowerCase();
}
