// Campaign unsubscribes paging over 100,000 generated records, per order field
// and direction and with a date filter: the first request of an order field
// pays for one sort; every later page must stay within the 1,000-record page
// bar (≤ 5 ms median, loopback round trip). The sandbox is the build's
// dist/sandbox.cjs, like sandbox.bench.mjs.
import { request, Agent } from 'node:http';
import { startSandbox } from '../dist/sandbox.cjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const RECORDS = 100_000;
const PAGE_BAR_MS = 5;

const sandbox = await startSandbox({ port: 0, unsubscribesPerCampaign: RECORDS, onInternalError: (e) => console.error(e) });
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const { hostname, port } = new URL(sandbox.url);
const campaign = sandbox.seed.campaigns.find((c) => c.Status === 'Sent').CampaignID;

function get(path) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request({ host: hostname, port, method: 'GET', path, agent, headers: { Authorization: `Bearer ${sandbox.apiKey}` } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let worst = 0;
const cases = [
  ['date asc', 'orderfield=date&orderdirection=asc'],
  ['date desc', 'orderfield=date&orderdirection=desc'],
  ['email asc', 'orderfield=email&orderdirection=asc'],
  ['name desc', 'orderfield=name&orderdirection=desc'],
  ['date filter, date order', 'orderfield=date&date=2024-02-05%2000:00'],
  ['date filter, email order', 'orderfield=email&date=2024-02-05%2000:00'],
];
for (const [label, query] of cases) {
  const base = `/email/campaigns/${campaign}/unsubscribes?pagesize=1000&${query}`;
  const first = await get(`${base}&page=1`);
  if (first.status !== 200) throw new Error(`${label}: ${first.status} ${first.text.slice(0, 200)}`);
  const { TotalNumberOfRecords, NumberOfPages } = JSON.parse(first.text);
  const times = [];
  for (let r = 0; r < ROUNDS + 5; r++) {
    const answer = await get(`${base}&page=${(r % NumberOfPages) + 1}`);
    if (answer.status !== 200) throw new Error(`${label}: ${answer.status}`);
    if (r >= 5) times.push(answer.ms);
  }
  const m = median(times);
  worst = Math.max(worst, m);
  console.log(`${label}: first request ${first.ms.toFixed(1)} ms (${TotalNumberOfRecords} records), then median ${m.toFixed(2)} ms per 1,000-record page`);
}
console.log(`BAR unsubscribes page of 1,000 records over ${RECORDS} <= ${PAGE_BAR_MS} ms median in every order: ${worst <= PAGE_BAR_MS ? 'PASS' : 'FAIL'} (worst ${worst.toFixed(2)} ms)`);

agent.destroy();
await sandbox.stop();
