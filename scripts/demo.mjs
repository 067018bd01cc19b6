// `npm run demo`: the import, end to end, on your own machine. Starts the
// sandbox (the service, locally), imports examples/subscribers.csv (3,000
// rows with the usual mess) into its Newsletter list, shows the summary and
// the failures file, and stops the sandbox. The import exits 3 because some
// rows are broken on purpose; the demo exits 0 when everything happened as
// it should.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'email');
const csv = join('examples', 'subscribers.csv');
const work = mkdtempSync(join(tmpdir(), 'email-demo-'));
const failures = join(work, 'failures.csv');
const env = { ...process.env, EMAIL_CONFIG_DIR: join(work, 'config') };
for (const key of ['EMAIL_PROFILE', 'EMAIL_BASE_URL', 'EMAIL_API_KEY']) delete env[key];

// Bold headings only where the tool itself would colour (CLI.md "colour"):
// FORCE_COLOR wins, then NO_COLOR, then whether stdout is a terminal.
const color = process.env.FORCE_COLOR !== undefined ? !['0', 'false'].includes(process.env.FORCE_COLOR) : process.env.NO_COLOR === undefined && Boolean(process.stdout.isTTY);
const say = (text) => process.stdout.write(color ? `\n\x1b[1m${text}\x1b[0m\n` : `\n${text}\n`);

say('1. Starting the sandbox: email sandbox --port 0 --json');
// With --json the sandbox's notices are JSON lines for scripts: kept, and shown only if it fails.
const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
let sandboxSaid = '';
sandbox.stderr.on('data', (chunk) => (sandboxSaid += chunk));
const sandboxExited = new Promise((resolve) => sandbox.on('close', resolve));
const ready = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: sandbox.stdout });
  lines.once('line', (line) => resolve(JSON.parse(line)));
  sandbox.once('close', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready:\n${sandboxSaid}`)));
});
const list = ready.lists[0];
process.stdout.write(`   listening on ${ready.baseUrl}; importing into list "${list.Name}" (${list.ListID})\n`);

let ok = false;
try {
  say(`2. email subscribers import ${csv} --list ${list.ListID} --failures ${failures}`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'subscribers', 'import', csv, '--list', list.ListID, '--failures', failures], {
      cwd: root,
      env: { ...env, EMAIL_BASE_URL: ready.baseUrl, EMAIL_API_KEY: ready.apiKey },
      stdio: 'inherit',
    });
    child.on('close', resolve);
  });
  process.stdout.write(`   exit code ${code} (3: imported, except the rows listed in the failures file)\n`);

  say(`3. The failures file: every row not imported, with its columns, Line, Outcome, Code and Message`);
  const text = readFileSync(failures, 'utf8').replace(/^\uFEFF/, '');
  process.stdout.write(text);
  const rows = text.trim().split('\r\n').length - 1;
  // The import's last line counts these rows too: the failed and rejected ones, and the duplicates and partial rows the file also lists.
  const outcome = (name) => text.split('\r\n').filter((line) => new RegExp(`,\\d+,${name},`).test(line)).length;
  process.stdout.write(
    `   ${rows} rows: ${outcome('failed')} failed, ${outcome('rejected')} rejected, ${outcome('duplicate')} duplicates ` +
      '(an address imported from an earlier row; importing this file again after fixing it skips them), ' +
      `${outcome('partial')} partial (imported without a value the service cannot take; fixed, they are sent whole)\n`,
  );
  ok = code === 3 && rows > 0;
  if (!ok) process.stderr.write(`\nThe demo did not go as intended: exit ${code}, ${rows} rows in the failures file.\n`);
} finally {
  say('4. Stopping the sandbox');
  sandbox.kill('SIGINT');
  await sandboxExited;
  rmSync(work, { recursive: true, force: true });
}
if (ok) process.stdout.write('\nDone. Try it yourself: email sandbox, then email subscribers import <file.csv> --list <id> --dry-run\n');
process.exitCode = ok ? 0 : 1;
