// The hostile cases of issue 19 points 2 and 7 and issue 27 points 5 and 8, against the built bin/email,
// on loopback only; prints each case's peak resident memory (VmHWM, Linux).
//
//   node scripts/webhooks-hostile.mjs [forward|pipe|endless|fifo-signal|stderr…]
//
// forward  `webhooks listen --forward-to` a target that reads each request and
//          never answers, then 60 deliveries of 8.8 MB, 4 at a time
// pipe     `webhooks listen -o ndjson` with stdout a pipe nobody reads, then
//          40 deliveries of 8.8 MB; pipe-nonblocking: the same pipe made
//          non-blocking by the parent (python3 sets O_NONBLOCK)
// endless  `webhooks trigger` to a receiver that answers 200 and a body that
//          never ends (--timeout 10)
// fifo-signal  `webhooks listen -o ndjson >fifo` with `sleep 300 <fifo` (nobody
//          reads it), 200 deliveries of 50 events, then SIGINT ×3 and SIGTERM:
//          how long until it exits (given up after 30 s)
// stderr   `webhooks listen -o ndjson` with stderr a pipe nobody reads once
//          the address is out, then 60 deliveries whose ListID is 9.9 MiB
//
// Each line gives the statuses the senders got (200 delivered, 503 refused
// while the listener is full) and how long the case took.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, Agent } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/email', import.meta.url));
const LIST = '11111111-1111-4111-8111-111111111111';
const cases = process.argv.slice(2).length ? process.argv.slice(2) : ['forward', 'pipe', 'pipe-nonblocking', 'endless', 'fifo-signal', 'stderr'];

/** 1,000 events with a large Name each: 8.8 MB, under the 10 MiB delivery cap and at the 1,000-event cap. */
function bigDelivery(seq) {
  const name = 'n'.repeat(8_700);
  const events = Array.from({ length: 1000 }, (_, i) => ({ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: `p${seq}-${i}@example.com`, Name: name, CustomFields: [] }));
  return Buffer.from(JSON.stringify({ Events: events, ListID: LIST }));
}

function peakMiB(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmHWM:'));
    return Number(/(\d+)/.exec(line)[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Follows a child's peak memory until it exits (VmHWM only grows, so the last reading is the peak). */
function watchPeak(child) {
  let peak = 0;
  const timer = setInterval(() => {
    const p = peakMiB(child.pid);
    if (Number.isFinite(p)) peak = Math.max(peak, p);
  }, 20);
  child.once('exit', () => clearInterval(timer));
  return () => Math.max(peak, peakMiB(child.pid) || 0);
}

function startListen(args, stdio, { nonBlockingStdout = false } = {}) {
  const argv = [process.execPath, BIN, 'webhooks', 'listen', '--port', '0', ...args];
  // A parent that made the pipe non-blocking (as Node does for its own pipes): python3 sets O_NONBLOCK, then runs the listener.
  const [command, ...rest] = nonBlockingStdout ? ['python3', '-c', 'import os, sys; os.set_blocking(1, False); os.execv(sys.argv[1], sys.argv[1:])', ...argv] : argv;
  const child = spawn(command, rest, {
    env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'email-hostile-')) },
    stdio,
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = new Promise((resolve, reject) => {
    const check = () => {
      const m = /Listening on ([^\s"]+)["\s]/.exec(stderr);
      if (m) resolve(m[1]);
    };
    child.stderr.on('data', check);
    child.once('exit', (code) => reject(new Error(`listen exited ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
function postOnce(url, body) {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    // A listener that stops answering altogether (its event loop blocked) is a result too.
    req.setTimeout(5_000, () => req.destroy(Object.assign(new Error('no answer within 5 s'), { code: 'no answer in 5 s' })));
    req.on('error', (e) => resolve(e.code ?? 'error'));
    req.end(body);
  });
}

async function sendAll(url, count) {
  const statuses = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const seq = next++;
        statuses[seq] = await postOnce(url, bigDelivery(seq));
      }
    }),
  );
  const tally = {};
  for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
  return tally;
}

async function stop(child) {
  if (child.exitCode !== null) return;
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

async function forwardCase() {
  // A forward target that takes each request and never answers.
  const held = [];
  const target = createServer((req) => {
    req.resume();
    held.push(req);
  });
  await new Promise((r) => target.listen(0, '127.0.0.1', r));
  const listen = startListen(['-q', '--forward-to', `http://127.0.0.1:${target.address().port}/hooks`], ['ignore', 'ignore', 'pipe']);
  const peak = watchPeak(listen.child);
  const started = Date.now();
  const tally = await sendAll(await listen.url, 60);
  const ms = Date.now() - started;
  await new Promise((r) => setTimeout(r, 500));
  console.log(`forward (target never answers, 60 × 8.8 MB): peak RSS ${peak().toFixed(0)} MiB; answers ${JSON.stringify(tally)}; ${ms} ms`);
  await stop(listen.child);
  target.closeAllConnections();
  target.close();
}

async function pipeCase(nonBlockingStdout = false) {
  const listen = startListen(['-q', '-o', 'ndjson'], ['ignore', 'pipe', 'pipe'], { nonBlockingStdout });
  listen.child.stdout.pause(); // nobody reads it
  const peak = watchPeak(listen.child);
  const started = Date.now();
  const tally = await sendAll(await listen.url, 40);
  const ms = Date.now() - started;
  await new Promise((r) => setTimeout(r, 500));
  console.log(`pipe${nonBlockingStdout ? '-nonblocking' : ''} (stdout never read, 40 × 8.8 MB): peak RSS ${peak().toFixed(0)} MiB; answers ${JSON.stringify(tally)}; ${ms} ms`);
  await stop(listen.child);
}

async function endlessCase() {
  // A receiver that answers 200 and then a body that never ends, as fast as the client takes it.
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const child = spawn(process.execPath, [BIN, 'webhooks', 'trigger', '--to', `http://127.0.0.1:${receiver.address().port}/hooks`, '--timeout', '10'], {
    env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'email-hostile-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const peak = watchPeak(child);
  const started = Date.now();
  const code = await new Promise((r) => child.once('exit', r));
  console.log(`endless (receiver answers 200 and an endless body): peak RSS ${peak().toFixed(0)} MiB; exit ${code} after ${Date.now() - started} ms; ${out.trim().split('\n').pop()}`);
  receiver.closeAllConnections();
  receiver.close();
}

/** A delivery of one event whose ListID is `bytes` long: what a notice quoting the ListID would repeat. */
function longListIdDelivery(seq, bytes) {
  return Buffer.from(JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: `p${seq}@example.com`, Name: 'n', CustomFields: [] }], ListID: 'L'.repeat(bytes) }));
}

async function fifoSignalCase() {
  const dir = mkdtempSync(join(tmpdir(), 'email-hostile-fifo-'));
  const fifo = join(dir, 'o');
  execFileSync('mkfifo', [fifo]);
  // The reader opens the FIFO and never reads; the listener's stdout is its other end.
  const reader = spawn('sh', ['-c', 'exec sleep 300 <"$0"', fifo], { stdio: 'ignore' });
  const child = spawn('sh', ['-c', 'exec "$@" >"$0"', fifo, process.execPath, BIN, 'webhooks', 'listen', '--port', '0', '-o', 'ndjson'], {
    env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'email-hostile-')) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const peak = watchPeak(child);
  while (!/Listening on (http:\/\/[^\s"]+)/.test(stderr)) await new Promise((r) => setTimeout(r, 50));
  const url = /Listening on (http:\/\/[^\s"]+)/.exec(stderr)[1];
  const tally = {};
  for (let i = 0; i < 200; i++) {
    const s = await postOnce(url, Buffer.from(JSON.stringify({ Events: Array.from({ length: 50 }, (_, j) => ({ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: `p${i}-${j}@example.com`, Name: 'x'.repeat(200), CustomFields: [] })), ListID: LIST })));
    tally[s] = (tally[s] ?? 0) + 1;
  }
  const exited = new Promise((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  const started = Date.now();
  for (const signal of ['SIGINT', 'SIGINT', 'SIGINT', 'SIGTERM']) {
    child.kill(signal);
    await new Promise((r) => setTimeout(r, 300));
  }
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running after 30 s'), 30_000))]);
  console.log(`fifo-signal (stdout a FIFO nobody reads, 200 deliveries, SIGINT ×3 + SIGTERM): exit ${code} ${typeof code === 'number' ? `after ${Date.now() - started} ms` : ''}; peak RSS ${peak().toFixed(0)} MiB; answers ${JSON.stringify(tally)}`);
  await stop(child);
  reader.kill('SIGKILL');
}

async function stderrCase() {
  const listen = startListen(['-o', 'ndjson'], ['ignore', 'ignore', 'pipe']);
  const url = await listen.url;
  listen.child.stderr.pause(); // nobody reads it from now on
  const peak = watchPeak(listen.child);
  const started = Date.now();
  const tally = {};
  for (let i = 0; i < 60; i++) {
    const s = await postOnce(url, longListIdDelivery(i, 9.9 * 1024 * 1024));
    tally[s] = (tally[s] ?? 0) + 1;
  }
  const ms = Date.now() - started;
  const exited = new Promise((r) => listen.child.once('exit', (code, signal) => r(code ?? signal)));
  const stopping = Date.now();
  listen.child.kill('SIGINT');
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running after 30 s'), 30_000))]);
  console.log(`stderr (stderr never read, 60 deliveries with a 9.9 MiB ListID): peak RSS ${peak().toFixed(0)} MiB; answers ${JSON.stringify(tally)}; ${ms} ms; after SIGINT: exit ${code}${typeof code === 'number' ? ` after ${Date.now() - stopping} ms` : ''}`);
  await stop(listen.child);
}

const run = { 'fifo-signal': fifoSignalCase, stderr: stderrCase, forward: forwardCase, pipe: () => pipeCase(false), 'pipe-nonblocking': () => pipeCase(true), endless: endlessCase };
for (const name of cases) {
  if (!run[name]) throw new Error(`unknown case ${name}; the cases are ${Object.keys(run).join(', ')}`);
  await run[name]();
}
agent.destroy();
