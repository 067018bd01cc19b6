// `email doctor`: exit 1 when a check fails, 4 when the failure is the key.
// The checks are loaded inside run: help reads this file.
import { ExitCode } from '../../core/errors.js';
import { defineCommand } from '../define.js';

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
    const data = { data: results, view: { columns: ['check', 'status', 'detail', 'hint'], text: true, checks: true } };
    if (!results.some((r) => r.status === 'fail')) return data;
    return { ...data, exitCode: authProblem ? ExitCode.auth : ExitCode.failure };
  },
});
