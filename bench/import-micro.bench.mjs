// A hot-path trick of the import against its plain alternative
// (ENGINEERING.md habit 13: a trick stays only with the figure that pays for
// it): address fingerprints (src/import/address-set.ts) folded and hashed two
// ASCII characters at a time (SWAR) vs one character at a time. The shipped
// function is bundled from src/ with esbuild; the plain alternative is
// written out here. Both run over a million addresses shaped like those of
// bench/import.bench.mjs (one in ten with capitals), alternating, medians of ROUNDS.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROUNDS = Number(process.env.BENCH_MICRO_ROUNDS ?? 7);
const N = 1_000_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'email-import-micro-'));
await build({
  entryPoints: { 'address-set': join(root, 'src/import/address-set.ts') },
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});
const { fingerprint } = await import(pathToFileURL(join(out, 'address-set.js')).href);
rmSync(out, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- fingerprints --------------------------------------------------------------------
const addresses = Array.from({ length: N }, (_, i) => (i % 10 === 0 ? `Person.Number${i}@Example.COM` : `person${i}@example.com`));

/** The plain alternative: one character at a time, folded with a compare (same hashes and finish as address-set.ts). */
function fingerprintPlain(address, out, at) {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < address.length; i++) {
    let c = address.charCodeAt(i);
    if (c > 127) return false; // non-ASCII: the shipped code's toLowerCase() path, the same in both
    if (c >= 65 && c <= 90) c |= 32;
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 13;
  }
  out[at] = fmix32(h1 ^ address.length) >>> 0;
  out[at + 1] = fmix32(h2 ^ Math.imul(address.length, 0x9e3779b9)) >>> 0 || 1;
  return true;
}
function fmix32(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

// ---- the runs ------------------------------------------------------------------------
const slots = new Uint32Array(2 * N);
const cases = {
  'fingerprint, two characters at a time (shipped)': () => {
    for (let i = 0; i < N; i++) fingerprint(addresses[i], slots, 2 * i);
  },
  'fingerprint, one character at a time': () => {
    for (let i = 0; i < N; i++) fingerprintPlain(addresses[i], slots, 2 * i);
  },
};
// Different hashes (pairs vs characters), the same job: both fold case, so an address and its lower-cased form match.
const probe = new Uint32Array(4);
for (const f of [fingerprint, fingerprintPlain]) {
  f('Person.Number0@Example.COM', probe, 0);
  f('person.number0@example.com', probe, 2);
  if (probe[0] !== probe[2] || probe[1] !== probe[3]) throw new Error(`${f.name} does not fold case`);
}
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < ROUNDS + 1; round++) {
  for (const [name, run] of Object.entries(cases)) {
    const started = performance.now();
    run();
    if (round > 0) times[name].push(performance.now() - started); // round 0 warms up
  }
}
for (const [name, ms] of Object.entries(times)) {
  console.log(`${name}: median ${((median(ms) * 1e6) / N).toFixed(1)} ns a value (${ms.map((x) => x.toFixed(0)).join(', ')} ms per ${N.toLocaleString('en-US')})`);
}
