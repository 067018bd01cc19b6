// Startup, issue 2's bar: median wall time of `email --help`, `email --version`
// and a read command making one request to a loopback server, each against
// `node -e 0`, in interleaved runs so machine noise hits all alike.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/email', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);

const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end('[]');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const env = { ...process.env, EMAIL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'email-bench-')), EMAIL_API_KEY: 'bench-key', EMAIL_BASE_URL: baseUrl };

// The read command runs in a child while this process serves it, so spawn asynchronously.
function time(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const cases = {
  'node -e 0': ['-e', '0'],
  'email --help': [bin, '--help'],
  'email --version': [bin, '--version'],
  'email campaigns sent --help (whole program loaded)': [bin, 'campaigns', 'sent', '--help'],
  'email api /email/clients/scheduled (one request)': [bin, 'api', '/email/clients/scheduled'],
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const args of Object.values(cases)) await time(args); // warm the file cache
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, args] of Object.entries(cases)) samples[name].push(await time(args));
}
server.close();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const base = median(samples['node -e 0']);
console.log(`rounds: ${ROUNDS}, interleaved`);
for (const name of Object.keys(cases)) {
  const m = median(samples[name]);
  console.log(`${name.padEnd(52)} median ${m.toFixed(1)} ms  ratio ${(m / base).toFixed(2)}x`);
}
const bar = (name, label, limit) => {
  const ratio = median(samples[name]) / base;
  console.log(`BAR ${label}: ${ratio <= limit ? 'PASS' : 'FAIL'} (${ratio.toFixed(2)}x vs <= ${limit}x)`);
};
bar('email --help', 'startup --help', 1.35);
bar('email --version', 'startup --version', 1.3);
bar('email api /email/clients/scheduled (one request)', 'startup read command', 2.5);
