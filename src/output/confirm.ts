// Confirmation before undoing work (CLI.md "confirmation": `campaigns
// unschedule`, `segments clear-rules` ask on a TTY; without a TTY they need --yes).
import type { Context } from '../context.js';
import { UsageError } from '../core/errors.js';

/**
 * Returns true when the operation may go ahead: --yes given, or the user
 * answered yes on the terminal. Off a terminal without --yes it refuses with
 * a UsageError (exit 2, nothing sent): a script must say --yes explicitly.
 */
export async function confirmDestructive(ctx: Context, question: string, yesFlag: boolean, action: string): Promise<boolean> {
  if (yesFlag) return true;
  // The prompt reads stdin and writes stderr: both must be the terminal.
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError(`refusing to ${action} without --yes when not on a terminal`);
  }
  return ctx.prompt.confirm(question);
}
