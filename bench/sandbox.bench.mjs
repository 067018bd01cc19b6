// Sandbox bar (issue 3): a 1,000-entry import is accepted in ≤ 15 ms median,
// measured as a loopback round trip with the request body prepared in
// advance. (The other sandbox bar, the 1,000-record unsubscribes page, is
// measured by unsubscribes-page.bench.mjs.) The sandbox is the build's
// dist/sandbox.cjs (`npm run bench` builds first), the one users run.
import { request, Agent } from 'node:http';
import { startSandbox, SEED_LIST_IDS } from '../dist/sandbox.cjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const IMPORT_BAR_MS = 15;

const sandbox = await startSandbox({ port: 0, recordRequests: false, onInternalError: (e) => console.error(e) });
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const { hostname, port } = new URL(sandbox.url);

function call(method, path, body) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      { host: hostname, port, method, path, agent, headers: { Authorization: `Bearer ${sandbox.apiKey}`, ...(body ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n) => n.toFixed(2);

// --- import ---------------------------------------------------------------
const listId = SEED_LIST_IDS.newsletter;
const bodies = [];
for (let r = 0; r < ROUNDS + 5; r++) {
  const Subscribers = Array.from({ length: 1000 }, (_, i) => ({
    EmailAddress: `bench-${r}-${i}@example.com`,
    Name: `Bench Person ${r}-${i}`,
    CustomFields: [
      { Key: 'Company', Value: `Company ${i % 97}` },
      { Key: 'Interests', Value: 'News' },
      { Key: 'Interests', Value: 'Events' },
      { Key: 'Birthday', Value: '1990/05/17' },
    ],
    ConsentToTrack: 'Yes',
  }));
  bodies.push(JSON.stringify({ Subscribers, Resubscribe: false, QueueSubscriptionBasedAutoResponders: false, RestartSubscriptionBasedAutoresponders: false }));
}
const importTimes = [];
for (let r = 0; r < bodies.length; r++) {
  const answer = await call('POST', `/email/subscribers/${listId}/import`, bodies[r]);
  if (answer.status !== 200) throw new Error(`import answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  if (r >= 5) importTimes.push(answer.ms); // the first rounds warm the JIT
}
const importMedian = median(importTimes);
console.log(`import of 1,000 new subscribers: median ${fmt(importMedian)} ms over ${importTimes.length} rounds (list grew to ${Object.keys(sandbox.state().lists[listId].Subscribers).length})`);

// Re-import of existing subscribers (the update path), for information.
const reimportTimes = [];
for (let r = 0; r < Math.min(20, ROUNDS); r++) reimportTimes.push((await call('POST', `/email/subscribers/${listId}/import`, bodies[r])).ms);
console.log(`re-import of 1,000 existing subscribers: median ${fmt(median(reimportTimes))} ms`);
console.log(`BAR sandbox import 1,000 entries <= ${IMPORT_BAR_MS} ms median: ${importMedian <= IMPORT_BAR_MS ? 'PASS' : 'FAIL'} (${fmt(importMedian)} ms)`);

agent.destroy();
await sandbox.stop();
