// `email doctor`: the definition; doctor-run.ts runs the checks (checks.ts).
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'doctor',
  summary: 'Check configuration, permissions, reachability, key validity and clock skew',
  description:
    'Each check prints ok, warn, fail or skip (not run because an earlier check failed), with a hint\nwhere there is something to do. Exits 1 when a check fails, 4 when the key is missing or refused.',
  records: { fields: ['check', 'status', 'detail', 'hint'] },
  examples: ['email doctor', 'email doctor --profile staging --json'],
  async run(_input, ctx) {
    const { doctorCommand } = await import('./doctor-run.js');
    return doctorCommand(ctx);
  },
});
