// Webhooks bar (issue 6): `email webhooks listen` holds a burst of 50
// concurrent deliveries of 1,000 events each without dropping one (count
// printed = count sent). The built binary runs as a child with -o ndjson,
// stdout a pipe read by this process, as `email webhooks listen | jq` would.
// Figures: time until every delivery was answered 200, each answer's latency,
// and time until every event was printed; JSON bursts and a JSON/XML mix
// (fast-xml-parser reads a 1,000-event, 500 KB XML body in ~60 ms against ~2 ms
// for JSON, so the mix is slower to answer).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DELIVERIES = 50;
const EVENTS = 1000;
const BIN = fileURLToPath(new URL('../bin/email', import.meta.url));

const outdir = fileURLToPath(new URL('../.bench-tmp/', import.meta.url));
mkdirSync(outdir, { recursive: true });
// The encoder and the synthetic events come from src/ (bundled here by esbuild), so the bench sends what `webhooks trigger` sends.
await build({
  stdin: {
    contents: "export { encodeDelivery } from './src/webhooks/encode.ts'; export { syntheticEvents } from './src/webhooks/synthetic.ts';",
    resolveDir: fileURLToPath(new URL('..', import.meta.url)),
    loader: 'ts',
  },
  outfile: `${outdir}webhooks-codec.mjs`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  logLevel: 'warning',
});
const { encodeDelivery, syntheticEvents } = await import(pathToFileURL(`${outdir}webhooks-codec.mjs`).href);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function startListener() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', '-o', 'ndjson', '-q'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let stderr = '';
    const waiters = [];
    child.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      for (const w of [...waiters]) if (lines >= w.n) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /Listening on ([^\s"]+)["\s]/.exec(stderr);
      if (m) resolve({ url: m[1], lines: () => lines, printed: (n) => new Promise((r) => (lines >= n ? r() : waiters.push({ n, resolve: r }))), stop });
    });
    child.on('error', reject);
    const exited = new Promise((r) => child.on('close', (code) => r(code)));
    async function stop() {
      child.kill('SIGINT');
      return exited;
    }
    setTimeout(() => reject(new Error(`listener did not start: ${stderr}`)), 10_000).unref();
  });
}

async function burst(mix) {
  const listener = await startListener();
  const events = [...syntheticEvents({ type: 'Subscribe', count: EVENTS, end: new Date('2025-01-01T00:00:00Z') })];
  const bodies = Array.from({ length: DELIVERIES }, (_, i) =>
    encodeDelivery(mix && i % 2 ? 'xml' : 'json', { Events: events, ListID: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }),
  );
  const started = performance.now();
  const answers = await Promise.all(
    bodies.map(async ({ body, contentType }) => {
      const t = performance.now();
      const res = await fetch(`${listener.url}/hooks`, { method: 'POST', body, headers: { 'content-type': contentType } });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - t };
    }),
  );
  const answeredMs = performance.now() - started;
  const sent = DELIVERIES * EVENTS;
  const ok = answers.every((a) => a.status === 200);
  // Every event must be printed; give the reader up to 60 s (a bounded wait, not a bar).
  let timer;
  await Promise.race([listener.printed(sent), new Promise((r) => (timer = setTimeout(r, 60_000)))]);
  clearTimeout(timer);
  const printedMs = performance.now() - started;
  const code = await listener.stop();
  return { ok, code, sent, printed: listener.lines(), answeredMs, printedMs, latencies: answers.map((a) => a.ms) };
}

let allCounted = true;
for (const [label, mix] of [
  ['json', false],
  ['json+xml', true],
]) {
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await burst(mix));
  for (const r of runs) if (!r.ok || r.code !== 0 || r.printed !== r.sent) allCounted = false;
  const lat = runs.flatMap((r) => r.latencies);
  console.log(
    `${label}: ${DELIVERIES} x ${EVENTS} events, ${ROUNDS} bursts: all answered in median ${median(runs.map((r) => r.answeredMs)).toFixed(0)} ms; ` +
      `answer latency median ${median(lat).toFixed(0)} ms, max ${Math.max(...lat).toFixed(0)} ms; all printed in median ${median(runs.map((r) => r.printedMs)).toFixed(0)} ms; ` +
      `printed/sent per burst: ${runs.map((r) => `${r.printed}/${r.sent}`).join(', ')}; exit codes ${runs.map((r) => r.code).join(',')}`,
  );
}
console.log(`BAR webhooks listen burst: ${allCounted ? 'PASS' : 'FAIL'} (count printed = count sent for every burst of ${DELIVERIES} x ${EVENTS})`);
