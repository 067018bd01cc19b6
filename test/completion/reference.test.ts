// docs/reference.md is generated from the command definitions (src/completion/reference.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandReference } from '../../src/completion/reference.js';

describe('docs/reference.md', () => {
  it('is generated from the command definitions (regenerate: npm run build && node scripts/gen-completions.mjs)', async () => {
    expect(readFileSync(fileURLToPath(new URL('../../docs/reference.md', import.meta.url)), 'utf8')).toBe(await commandReference());
  });

  it('names every command with its summary, arguments, options and examples', async () => {
    const doc = await commandReference();
    expect(doc).toContain('| [`email campaigns summary`](#email-campaigns-summary) | Show the summary of a sent campaign |');
    expect(doc).toContain('email campaigns summary [campaign]');
    expect(doc).toContain('| `--batch-size <n>` | subscribers per request (1..1000) (default 1000; refused with code 209) |');
    expect(doc).toMatch(/## email completion\n/);
  });
});
