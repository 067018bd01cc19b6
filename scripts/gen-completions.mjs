// Regenerates completions/ and docs/reference.md from the built program (run
// `npm run build` first): `email completion <shell>` for each shell, written
// where packagers and users expect them, and the command reference from the
// same definitions. test/completion checks the committed files are current.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const bin = fileURLToPath(new URL('bin/email', root));
const files = { bash: 'email.bash', zsh: '_email', fish: 'email.fish' };
mkdirSync(new URL('completions/', root), { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, [bin, 'completion', shell], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  writeFileSync(new URL(`completions/${file}`, root), script);
  process.stdout.write(`completions/${file}\n`);
}
const { commandReference } = await import(new URL('dist/reference.js', root).href);
writeFileSync(new URL('docs/reference.md', root), await commandReference());
process.stdout.write('docs/reference.md\n');
