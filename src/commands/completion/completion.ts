// `email completion bash|zsh|fish`: prints the completion script, generated
// from the same commander tree the program runs on.
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';

export async function run(_opts: Record<string, unknown>, ctx: Context, args: string[]): Promise<number> {
  const shell = args[0];
  const { completionScript, SHELLS } = await import('../../completion/index.js');
  if (!SHELLS.includes(shell as never)) throw new UsageError(`unknown shell "${shell}": choose bash, zsh or fish`);
  const { buildProgram } = await import('../../program.js');
  const program = buildProgram(() => async () => undefined);
  // Written as is: the script is code, not untrusted text to neutralise.
  ctx.io.stdout.write(completionScript(shell as 'bash' | 'zsh' | 'fish', program));
  return 0;
}
