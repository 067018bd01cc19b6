// Runs every bench/*.bench.mjs in turn. Each prints its own figures (medians
// and ratios measured in one run) and `BAR <name>: PASS|FAIL (...)` lines;
// this runner collects the BAR lines into a closing summary.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const bars = [];
for (const file of files) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const child = spawn(process.execPath, [`${dir}${file}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    for (const line of String(chunk).split('\n')) if (line.startsWith('BAR ')) bars.push(`${file}: ${line}`);
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) bars.push(`${file}: BAR (bench itself): FAIL (exit ${code})`);
}
process.stdout.write(`\n=== bars ===\n${bars.join('\n') || '(none)'}\n`);
