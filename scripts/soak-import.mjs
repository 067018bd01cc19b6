// The import's round-trip property (test/e2e/import-roundtrip.test.ts) on
// many more cases than `npm test` runs: run it before calling the import's
// round trip fixed (issue 17), and quote how many cases it ran.
//
//   npm run build && node scripts/soak-import.mjs --runs 500
//
// Case k is the case of seed <first>+k, the same case the test runs for that
// seed, so a failure here is rerun with `--seed <its seed> --runs 1`.
//
//   --runs <n>       cases to run (default 100)
//   --seed <n>       the first seed (default: a random one, printed)
//   --max-rows <n>   rows per file at most (default 40; the test keeps 14)
//   --shrink         after a failure, let fast-check look for a smaller failing
//                    case (each try is a whole round trip)
//   --shrink-minutes <n>  how long shrinking may take per failure (default 5)
//   --path <p>       with --seed and --runs 1: replay the shrunk case a report names
//   --keep           keep the files of failing cases (their folder is printed)
//   --reports <n>    full reports printed (default 3; every failure is listed by seed)
//
// Prints one line per case, then how many ran and which properties failed in
// which seeds. Exit 1 when any case failed.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

// The property is TypeScript (test/helpers/import-roundtrip.ts): bundled here
// with its own modules, its packages left to node_modules, and import.meta.url
// kept as the source's so it finds bin/email and dist/ as in the test.
const source = new URL('../test/helpers/import-roundtrip.ts', import.meta.url);
const bundle = new URL('../node_modules/.cache/email-soak/import-roundtrip.mjs', import.meta.url);
await build({ entryPoints: [fileURLToPath(source)], outfile: fileURLToPath(bundle), bundle: true, platform: 'node', format: 'esm', packages: 'external', define: { 'import.meta.url': JSON.stringify(source.href) }, logLevel: 'error' });
const { checkSeed, PROPERTIES } = await import(bundle.href);

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    seed: { type: 'string' },
    'max-rows': { type: 'string', default: '40' },
    shrink: { type: 'boolean', default: false },
    'shrink-minutes': { type: 'string', default: '5' },
    path: { type: 'string' },
    keep: { type: 'boolean', default: false },
    reports: { type: 'string', default: '3' },
  },
});
const number = (name, value) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a whole number, got "${value}"\n`);
    process.exit(2);
  }
  return n;
};
const runs = number('runs', values.runs);
const firstSeed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : number('seed', values.seed);
const maxRows = number('max-rows', values['max-rows']);
const reports = number('reports', values.reports);

if (!existsSync(fileURLToPath(new URL('../dist/sandbox.cjs', import.meta.url)))) {
  process.stderr.write('dist/ is missing: run `npm run build` first (bin/email and the sandbox run from dist/)\n');
  process.exit(2);
}

process.stdout.write(`import round trip: ${runs} cases, seeds ${firstSeed}…${firstSeed + runs - 1}, at most ${maxRows} rows\n`);
const started = Date.now();
const failures = [];
let ran = 0;
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  process.stdout.write('stopping after this case (Ctrl-C)\n');
});

for (let seed = firstSeed; seed < firstSeed + runs && !interrupted; seed++) {
  const outcome = await checkSeed(seed, {
    limits: { maxRows },
    shrink: values.shrink,
    shrinkTimeMs: values.shrink ? number('shrink-minutes', values['shrink-minutes']) * 60_000 : undefined,
    keepDir: values.keep,
    path: values.path,
  });
  ran++;
  if (outcome.failed) failures.push({ seed, ...outcome });
  process.stdout.write(`seed ${seed}: ${outcome.failed ? `FAILS ${outcome.properties.join(', ')}` : 'holds'}\n`);
}

const seconds = ((Date.now() - started) / 1000).toFixed(0);
process.stdout.write(`\n${ran} cases ran in ${seconds} s; ${ran - failures.length} held, ${failures.length} failed\n`);
for (const [property, text] of Object.entries(PROPERTIES)) {
  const seeds = failures.filter((f) => f.properties.includes(property)).map((f) => f.seed);
  if (seeds.length) process.stdout.write(`  ✗ ${text}: ${seeds.length} cases (seeds ${seeds.slice(0, 12).join(', ')}${seeds.length > 12 ? ', …' : ''})\n`);
}
for (const f of failures.slice(0, reports)) process.stdout.write(`\n${f.report}\n`);
process.exitCode = failures.length ? 1 : 0;
