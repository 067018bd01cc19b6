// `email doctor`: the checks' records, {check, status, detail, hint}, which
// people read one line per check (src/output/checks.ts). Exit 1 when a check fails,
// 4 when the failure is the key (none, 401, 403), as CLI.md's exit codes say.
import type { Context } from '../../context.js';
import type { Result } from '../define.js';
import { ExitCode } from '../../core/errors.js';
import { runChecks } from './checks.js';

export async function doctorCommand(ctx: Context): Promise<Result> {
  const { results, authProblem } = await runChecks(ctx);
  // People read one line per check; scripts get the records (the renderer decides which, and the colours).
  const data = { data: results, view: { columns: ['check', 'status', 'detail', 'hint'], text: true, checks: true } };
  if (!results.some((r) => r.status === 'fail')) return data;
  return { ...data, exitCode: authProblem ? ExitCode.auth : ExitCode.failure };
}
