// `email doctor`: one line per check, `ok|warn|fail|skip  <check>: <detail>`,
// with a `hint:` line where there is something to do. --json gives the same
// as an array of {check, status, detail, hint}. Exit 1 when a check fails,
// 4 when the failure is the key (none, 401, 403), as CLI.md's exit codes say.
import type { Context } from '../../context.js';
import type { Result } from '../define.js';
import { ExitCode } from '../../core/errors.js';
import { neutralize } from '../../output/sanitize.js';
import { runChecks, type CheckResult, type CheckStatus } from './checks.js';

export async function doctorCommand(ctx: Context): Promise<Result> {
  const { results, authProblem } = await runChecks(ctx);
  // People read one line per check; scripts get the records (the renderer decides which).
  const data = { data: results, display: await checkLines(ctx, results), view: { columns: ['check', 'status', 'detail', 'hint'], text: true } };
  if (!results.some((r) => r.status === 'fail')) return data;
  return { ...data, exitCode: authProblem ? ExitCode.auth : ExitCode.failure };
}

async function checkLines(ctx: Context, results: CheckResult[]): Promise<string> {
  let paint: (status: CheckStatus, text: string) => string = (_s, t) => t;
  if (ctx.globals.color) {
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    const styles: Record<CheckStatus, (t: string) => string> = { ok: chalk.green, warn: chalk.yellow, fail: chalk.red, skip: chalk.dim };
    paint = (s, t) => styles[s](t);
  }
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${paint(r.status, r.status.padEnd(4))}  ${r.check}: ${neutralize(r.detail)}`);
    if (r.hint) lines.push(`      hint: ${neutralize(r.hint)}`);
  }
  return `${lines.join('\n')}\n`;
}
