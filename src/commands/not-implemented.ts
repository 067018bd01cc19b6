// Registered commands whose capability has not landed yet answer this, so
// `--help` can show the whole contract from the first day.
import type { Context } from '../context.js';
import { NotImplemented } from '../core/errors.js';

export async function run(_opts: Record<string, unknown>, _ctx: Context, _args: string[], name = 'this command'): Promise<number> {
  throw new NotImplemented(name);
}
