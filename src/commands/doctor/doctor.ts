// `email doctor`: exit 1 when a check fails, 4 when the failure is the key.
// The checks are loaded inside run: help reads this file.
import { ExitCode, ExitOnly } from '../../core/errors.js';
import { defineCommand, type PeopleOut } from '../define.js';

const STATUS_COLORS = { ok: 'green', warn: 'yellow', fail: 'red', skip: 'dim' } as const;

/** One line per check, `ok|warn|fail|skip  <check>: <detail>`, its status coloured, and a `hint:` line where there is something to do. */
async function checkLines(data: unknown, out: PeopleOut): Promise<void> {
  for (const r of data as { check: string; status: string; detail: string; hint?: string }[]) {
    await out.line(`  ${r.check}: ${r.detail}`, { text: r.status.padEnd(4), color: STATUS_COLORS[r.status as keyof typeof STATUS_COLORS] });
    if (r.hint) await out.line(`      hint: ${r.hint}`);
  }
}

export default defineCommand({
  name: 'doctor',
  summary: 'Check configuration, permissions, reachability, key validity and clock skew',
  description:
    'Each check prints ok, warn, fail or skip (not run because an earlier check failed), with a hint where there is something to do. Exits 1 when a check fails, 4 when the key is missing or refused. The last line shows the profile\'s stored defaults (`email config`).',
  records: { fields: ['check', 'status', 'detail', 'hint'] },
  examples: ['email doctor', 'email doctor --profile staging --json'],
  async run(_input, ctx) {
    const { runChecks } = await import('./checks.js');
    const { results, authProblem } = await runChecks(ctx);
    // People read one line per check; scripts get the records (the renderer decides which, and the colours).
    const failed = results.some((r) => r.status === 'fail');
    return { data: results, people: checkLines, error: failed ? new ExitOnly(authProblem ? ExitCode.auth : ExitCode.failure) : undefined };
  },
});
