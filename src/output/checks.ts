// How people read doctor's checks: one line per check, a `hint:` line where
// there is something to do; scripts get the check records themselves.
import { neutralize } from './sanitize.js';

type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

interface CheckRow {
  check: string;
  status: string;
  detail: string;
  hint?: string;
}

export async function checkLines(rows: readonly CheckRow[], color: boolean): Promise<string> {
  let paint: (status: string, text: string) => string = (_s, t) => t;
  if (color) {
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: 1 });
    const styles: Record<CheckStatus, (t: string) => string> = { ok: chalk.green, warn: chalk.yellow, fail: chalk.red, skip: chalk.dim };
    paint = (s, t) => (styles[s as CheckStatus] ?? ((x: string) => x))(t);
  }
  const lines: string[] = [];
  for (const r of rows) {
    lines.push(`${paint(r.status, r.status.padEnd(4))}  ${r.check}: ${neutralize(r.detail)}`);
    if (r.hint) lines.push(`      hint: ${neutralize(r.hint)}`);
  }
  return `${lines.join('\n')}\n`;
}
