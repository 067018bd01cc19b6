// `email completion <shell>`: the completion scripts committed in
// completions/ are what it prints; another shell is refused.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPLETION_FILES, SHELLS } from '../../../src/completion/index.js';
import { scriptPath } from '../../helpers/completion.js';
import { runCli } from '../../helpers/cli.js';

describe('completion scripts', () => {
  for (const shell of SHELLS) {
    it(`completions/${COMPLETION_FILES[shell]} is what \`email completion ${shell}\` prints (regenerate: npm run build && node scripts/gen-completions.mjs)`, async () => {
      const r = await runCli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(readFileSync(scriptPath(shell), 'utf8')).toBe(r.stdout);
    });
  }

  it('refuses an unknown shell with exit 2', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/<shell> must be one of bash, zsh, fish \(got "tcsh"\)/);
  });
});
