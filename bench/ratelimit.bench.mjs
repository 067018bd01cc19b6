// Riding the rate limit (issue 12, CLI.md "flow control"), measured through
// bin/email as users run it, against the built sandbox with --rate-limit
// (fixed one-second windows; X-RateLimit-* on every answer):
// - import: 50,000 rows in batches of 1000 (50 requests) at --rate-limit 5:
//   ideal 10 s;
// - `campaigns unsubscribes --all --page-size 100`: 2,500 records (25 pages)
//   at --rate-limit 2: ideal 12.5 s;
// each at --concurrency 1, 4 and 8, against the sandbox answering at once and
// with --latency 200. Efficiency = ideal ÷ elapsed (wall time of the process,
// start-up included), where ideal = requests needed ÷ allowed rate; the share
// of requests answered 429 is counted from the sandbox's request log.
// Bars, at --concurrency 4 and 8: efficiency ≥ 0.9, ≤ 15 % of requests
// answered 429, every row or record exactly once. One run per case (each is
// ~10 s; about two and a half minutes in all). Loopback only.
//
// Then the case of issue 19: an import of 40 batches of 1000 at
// --concurrency 8 against a token bucket of 4 requests a second holding 4,
// that states its limit only on the 429 (the sandbox's startSandbox option
// rateLimit: { style: 'bucket', burst: 4, headers: 'on-429' }). Bar: at most
// two 429s (the slow start's round that crosses the bucket), every row once.
//
// And the walk alike: `campaigns unsubscribes --all --page-size 100` over 60
// pages against a token bucket of 10 a second holding 10, limit stated only
// on the 429. Bar: at most two 429s, every record once. BENCH_BASELINE=<checkout>
// (built) runs that checkout's bin/email in the same run; BENCH_RATELIMIT_ONLY=all-bucket
// runs this case alone.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, SEED_LIST_IDS, SEED_SENT_CAMPAIGN } from '../dist/sandbox.cjs';

const bin = fileURLToPath(new URL('../bin/email', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'email-ratelimit-bench-'));
const ROWS = Number(process.env.BENCH_RATELIMIT_ROWS ?? 50_000);
const BATCH = 1000;
const IMPORT_RATE = 5;
const RECORDS = 2_500;
const PAGE_SIZE = 100;
const ALL_RATE = 2;
const CONCURRENCIES = [1, 4, 8];
const LATENCIES = [0, 200];
const EFFICIENCY_BAR = 0.9;
const SHARE_BAR = 0.15;
const LIST = SEED_LIST_IDS.newsletter;

const csv = join(work, 'people.csv');
let text = 'email,name\n';
for (let i = 0; i < ROWS; i++) text += `person${i}@example.com,Person ${i}\n`;
writeFileSync(csv, text);

function email(args, env, program = bin) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [program, ...args], { cwd: work, env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: join(work, 'config'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ms: performance.now() - started, stdout, stderr }));
  });
}

const BUCKET_ROWS = 40_000;
const BUCKET_RATE = 4;
const BUCKET_BAR = 2;
const bucketCsv = join(work, 'bucket.csv');
let bucketText = 'email,name\n';
for (let i = 0; i < BUCKET_ROWS; i++) bucketText += `bucket${i}@example.com,Bucket ${i}\n`;
writeFileSync(bucketCsv, bucketText);

const rows = [];
const bars = [];
let exactlyOnce = true;
let runs = 0;

async function measure(kind, concurrency, latencyMs) {
  const rate = kind === 'import' ? IMPORT_RATE : ALL_RATE;
  const sandbox = await startSandbox({ port: 0, rateLimitPerSecond: rate, latencyMs, unsubscribesPerCampaign: RECORDS });
  const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
  let r;
  let needed;
  let once;
  if (kind === 'import') {
    r = await email(['subscribers', 'import', 'people.csv', '--list', LIST, '--batch-size', String(BATCH), '--concurrency', String(concurrency), '--consent', 'yes', '--journal', `run-${++runs}.journal`, '--json'], env);
    needed = Math.ceil(ROWS / BATCH);
    const summary = r.code === 0 ? JSON.parse(r.stdout) : undefined;
    const listed = Object.keys(sandbox.state().lists[LIST.toLowerCase()].Subscribers).filter((a) => a.startsWith('person')).length;
    once = summary?.rows === ROWS && summary.new === ROWS && listed === ROWS;
  } else {
    r = await email(['campaigns', 'unsubscribes', SEED_SENT_CAMPAIGN.CampaignID, '--all', '--page-size', String(PAGE_SIZE), '--concurrency', String(concurrency), '-o', 'ndjson', '--quiet'], env);
    needed = Math.ceil(RECORDS / PAGE_SIZE);
    const lines = r.stdout.trim().split('\n');
    once = r.code === 0 && lines.length === RECORDS && new Set(lines).size === RECORDS;
  }
  const requests = sandbox.requests.filter((q) => (kind === 'import' ? /\/import$/.test(q.path) : /\/unsubscribes$/.test(q.path)));
  const refused = requests.filter((q) => q.status === 429).length;
  await sandbox.stop();
  if (r.code !== 0) console.log(`  ${kind} --concurrency ${concurrency} --latency ${latencyMs}: exit ${r.code}: ${r.stderr.slice(-400)}`);
  if (!once) exactlyOnce = false;
  const ideal = (needed / rate) * 1000;
  const row = { kind, concurrency, latencyMs, ms: r.ms, efficiency: ideal / r.ms, requests: requests.length, refused, share: refused / requests.length, once };
  rows.push(row);
  console.log(
    `${kind.padEnd(6)} --concurrency ${concurrency} ${latencyMs ? `--latency ${latencyMs}` : 'at once    '}: ${(r.ms / 1000).toFixed(1)} s (ideal ${(ideal / 1000).toFixed(1)} s), efficiency ${row.efficiency.toFixed(2)}; ` +
      `${refused} of ${requests.length} requests answered 429 (${(100 * row.share).toFixed(0)} %)${once ? '' : '; NOT every row or record exactly once'}`,
  );
  return row;
}

const only = process.env.BENCH_RATELIMIT_ONLY;
if (!only) {
console.log(`import: ${ROWS.toLocaleString('en-US')} rows in batches of ${BATCH} at --rate-limit ${IMPORT_RATE}; --all: ${RECORDS.toLocaleString('en-US')} records, --page-size ${PAGE_SIZE}, at --rate-limit ${ALL_RATE}`);
for (const latencyMs of LATENCIES) {
  for (const kind of ['import', 'all']) {
    for (const concurrency of CONCURRENCIES) await measure(kind, concurrency, latencyMs);
  }
}
{
  const sandbox = await startSandbox({ port: 0, rateLimitPerSecond: BUCKET_RATE, rateLimit: { style: 'bucket', burst: BUCKET_RATE, headers: 'on-429' } });
  const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
  const r = await email(['subscribers', 'import', 'bucket.csv', '--list', LIST, '--batch-size', String(BATCH), '--concurrency', '8', '--consent', 'yes', '--journal', 'bucket.journal', '--json'], env);
  const requests = sandbox.requests.filter((q) => /\/import$/.test(q.path));
  const refused = requests.filter((q) => q.status === 429).length;
  const summary = r.code === 0 ? JSON.parse(r.stdout) : undefined;
  const listed = Object.keys(sandbox.state().lists[LIST.toLowerCase()].Subscribers).filter((a) => a.startsWith('bucket')).length;
  const once = summary?.rows === BUCKET_ROWS && summary.new === BUCKET_ROWS && listed === BUCKET_ROWS;
  await sandbox.stop();
  const ideal = (BUCKET_ROWS / BATCH / BUCKET_RATE) * 1000;
  console.log(
    `import --concurrency 8, token bucket ${BUCKET_RATE}/s holding ${BUCKET_RATE}, limit stated only on the 429: ${(r.ms / 1000).toFixed(1)} s (ideal ${(ideal / 1000).toFixed(1)} s); ` +
      `${refused} of ${requests.length} requests answered 429${once ? '' : '; NOT every row exactly once'}`,
  );
  bars.push(`BAR token-bucket import (limit stated only on the 429) answered 429 at most ${BUCKET_BAR} times: ${refused <= BUCKET_BAR && once ? 'PASS' : 'FAIL'} (${refused} of ${requests.length})`);
}
}
{
  const [pages, rate] = [60, 10];
  const builds = [['this build', bin], ...(process.env.BENCH_BASELINE ?? '').split(',').filter(Boolean).map((dir) => [dir, join(dir, 'bin/email')])];
  for (const [name, program] of builds) {
    const sandbox = await startSandbox({ port: 0, rateLimitPerSecond: rate, rateLimit: { style: 'bucket', burst: rate, headers: 'on-429' }, unsubscribesPerCampaign: pages * PAGE_SIZE });
    const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
    const r = await email(['campaigns', 'unsubscribes', SEED_SENT_CAMPAIGN.CampaignID, '--all', '--page-size', String(PAGE_SIZE), '-o', 'ndjson', '--quiet'], env, program);
    const requests = sandbox.requests.filter((q) => /\/unsubscribes$/.test(q.path));
    const refused = requests.filter((q) => q.status === 429).length;
    await sandbox.stop();
    const lines = r.stdout.trim().split('\n');
    const once = r.code === 0 && lines.length === pages * PAGE_SIZE && new Set(lines).size === lines.length;
    console.log(`--all (${name}), token bucket ${rate}/s holding ${rate}, limit stated only on the 429: ${(r.ms / 1000).toFixed(1)} s (ideal ${(pages / rate).toFixed(1)} s); ${refused} of ${requests.length} requests answered 429${once ? '' : '; NOT every record exactly once'}`);
    if (name === 'this build') bars.push(`BAR token-bucket --all (limit stated only on the 429) answered 429 at most ${BUCKET_BAR} times: ${refused <= BUCKET_BAR && once ? 'PASS' : 'FAIL'} (${refused} of ${requests.length})`);
  }
}
rmSync(work, { recursive: true, force: true });

for (const kind of only ? [] : ['import', 'all']) {
  const barred = rows.filter((r) => r.kind === kind && r.concurrency >= 4);
  const worstEfficiency = Math.min(...barred.map((r) => r.efficiency));
  const worstShare = Math.max(...barred.map((r) => r.share));
  const name = kind === 'import' ? 'rate-limited import' : 'rate-limited --all';
  bars.push(`BAR ${name} efficiency at --concurrency 4 and 8: ${worstEfficiency >= EFFICIENCY_BAR ? 'PASS' : 'FAIL'} (lowest ${worstEfficiency.toFixed(2)} vs ≥ ${EFFICIENCY_BAR})`);
  bars.push(`BAR ${name} share answered 429 at --concurrency 4 and 8: ${worstShare <= SHARE_BAR ? 'PASS' : 'FAIL'} (highest ${(100 * worstShare).toFixed(0)} % vs ≤ ${100 * SHARE_BAR} %)`);
}
if (!only) bars.push(`BAR rate-limited runs: every row or record exactly once: ${exactlyOnce ? 'PASS' : 'FAIL'}`);
for (const line of bars) console.log(line);
