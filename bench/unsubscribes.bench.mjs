// Bars of `campaigns unsubscribes --all` (issue 5), against the built sandbox
// with 50 ms of latency per request:
//   1. `--all -o ndjson` over 100,000 records is ≥ 3× faster than fetching the
//      same 1,000-record pages one after another (a child process that walks
//      pages 1..N sequentially with fetch on a keep-alive connection and writes
//      the same NDJSON);
//   2. the peak RSS of that 100,000-record walk is ≤ 1.2× the peak RSS of a
//      10,000-record walk (memory does not grow with the number of records).
// Every run is a child process writing to /dev/null; peak RSS is the child's
// own process.resourceUsage().maxRSS, printed at exit by a preloaded module.
// Runs are interleaved so machine noise hits every case alike.
//
// For reading the RSS figure: a 300,000-record walk (a second sandbox) is
// measured too, without a bar. If the peak stops growing between 100,000 and
// 300,000 records, what grows between 10,000 and 100,000 is the garbage
// collector sizing its heap to a sustained allocation rate, not records held.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox.cjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_MS = 50;
const RECORDS = 100_000;
const SPEED_BAR = 3;
const RSS_BAR = 1.2;
/** Seeded sent campaigns: the first carries every generated record, the second a tenth of them (docs/sandbox.md). */
const FULL_CAMPAIGN = 'c0000000-0000-4000-8000-000000000001';
const TENTH_CAMPAIGN = 'c0000000-0000-4000-8000-000000000002';

const bin = fileURLToPath(new URL('../bin/email', import.meta.url));
const devNull = openSync('/dev/null', 'w');
const RSS_PROBE = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(2, '\\nMAXRSS_KB ' + process.resourceUsage().maxRSS + '\\n'));",
)}`;

const sandbox = await startSandbox({ port: 0, latencyMs: LATENCY_MS, unsubscribesPerCampaign: RECORDS, recordRequests: false });
const bigSandbox = await startSandbox({ port: 0, latencyMs: LATENCY_MS, unsubscribesPerCampaign: 3 * RECORDS, recordRequests: false });
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_'))),
  EMAIL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'email-bench-')),
  EMAIL_BASE_URL: sandbox.url,
  EMAIL_API_KEY: sandbox.apiKey,
};

/** The same pages, one after another, with the same parse-and-print work as the CLI. */
const SEQUENTIAL = `
const [base, key, campaign] = process.argv.slice(1);
const headers = { authorization: 'Bearer ' + key, accept: 'application/json' };
let pages = 1;
for (let page = 1; page <= pages; page++) {
  const res = await fetch(base + '/email/campaigns/' + campaign + '/unsubscribes?page=' + page + '&pagesize=1000', { headers });
  if (res.status !== 200) throw new Error('page ' + page + ': HTTP ' + res.status);
  const body = await res.json();
  pages = body.NumberOfPages;
  process.stdout.write(body.Results.map((r) => JSON.stringify(r) + '\\n').join(''));
}
`;

function run(args, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', RSS_PROBE, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', devNull, 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${args.slice(0, 3).join(' ')} … exited ${code}: ${err.slice(-500)}`));
      const rss = /MAXRSS_KB (\d+)/.exec(err);
      resolve({ ms, rssMb: rss ? Number(rss[1]) / 1024 : NaN });
    });
  });
}

const cases = {
  'email … --all -o ndjson, 100,000 records': [bin, 'campaigns', 'unsubscribes', '--campaign', FULL_CAMPAIGN, '--all', '-o', 'ndjson', '--quiet'],
  'same pages one after another, 100,000 records': ['--input-type=module', '-e', SEQUENTIAL, sandbox.url, sandbox.apiKey, FULL_CAMPAIGN],
  'email … --all -o ndjson, 10,000 records': [bin, 'campaigns', 'unsubscribes', '--campaign', TENTH_CAMPAIGN, '--all', '-o', 'ndjson', '--quiet'],
  'email … --all -o ndjson, 300,000 records (no bar)': [bin, 'campaigns', 'unsubscribes', '--campaign', FULL_CAMPAIGN, '--all', '-o', 'ndjson', '--quiet'],
};
const caseEnv = { 'email … --all -o ndjson, 300,000 records (no bar)': { EMAIL_BASE_URL: bigSandbox.url } };
const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, args] of Object.entries(cases)) results[name].push(await run(args, caseEnv[name]));
}
await sandbox.stop();
await bigSandbox.stop();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const stats = Object.fromEntries(Object.entries(results).map(([k, rs]) => [k, { ms: median(rs.map((r) => r.ms)), rssMb: median(rs.map((r) => r.rssMb)) }]));
console.log(`sandbox latency ${LATENCY_MS} ms per request; medians of ${ROUNDS} interleaved runs`);
for (const [name, s] of Object.entries(stats)) console.log(`  ${name.padEnd(52)} ${s.ms.toFixed(0).padStart(6)} ms   peak RSS ${s.rssMb.toFixed(1)} MB`);

const [all100k, sequential, all10k, all300k] = Object.values(stats);
const speedup = sequential.ms / all100k.ms;
const rssRatio = all100k.rssMb / all10k.rssMb;
console.log(`  speed-up over sequential pages: ${speedup.toFixed(2)}×`);
console.log(`  peak RSS 100,000 / 10,000 records: ${rssRatio.toFixed(3)}×; 300,000 / 100,000 records: ${(all300k.rssMb / all100k.rssMb).toFixed(3)}×`);
console.log(`BAR unsubscribes --all 100,000 records ≥ ${SPEED_BAR}× faster than sequential pages: ${speedup >= SPEED_BAR ? 'PASS' : 'FAIL'} (${speedup.toFixed(2)}× vs ${SPEED_BAR}×)`);
console.log(`BAR unsubscribes --all peak RSS 100,000 ≤ ${RSS_BAR}× 10,000 records: ${rssRatio <= RSS_BAR ? 'PASS' : 'FAIL'} (${rssRatio.toFixed(3)}× vs ${RSS_BAR}×)`);
