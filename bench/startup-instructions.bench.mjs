// Start-up counted in instructions, not timed: each case of bench/startup.bench.mjs
// (a group's help and two one-request reads; the bare --help and --version are
// the same code in every build) run once under valgrind's callgrind, whole
// process, on each Node line, after two runs that fill Node's compile cache.
// On a shared machine the paired wall times of startup.bench.mjs spread by
// several per cent between builds that run the same code; these counts repeat
// within about 0.5 %, so a change of 1-3 % can be read. V8 runs single-threaded
// (its background compile and collection would otherwise be counted in an
// order that varies), and its hash-seed prime search, whose length is random,
// is left out.
//
// BENCH_BASELINE=<checkout>[,<checkout>…] (each built) is counted too, and this
// build's count over each is printed. BENCH_NODE_LINES as in startup.bench.mjs
// (default 24,22). Without valgrind it says so and exits 0.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const LINES = (process.env.BENCH_NODE_LINES ?? '24,22').split(',').map((s) => s.trim()).filter(Boolean);
const CASES = {
  'email campaigns --help': ['campaigns', '--help'],
  'email campaigns sent --json (one request)': ['campaigns', 'sent', '--json'],
  'email api /email/clients/scheduled (one request)': ['api', '/email/clients/scheduled'],
};

if (spawnSync('valgrind', ['--version']).status !== 0 || spawnSync('callgrind_annotate', ['--version']).error) {
  console.log('skipped: valgrind (callgrind, callgrind_annotate) is not installed (Debian: apt-get install valgrind)');
  process.exit(0);
}

const builds = [{ name: 'this build', dir: root }, ...(process.env.BENCH_BASELINE ?? '').split(',').filter(Boolean).map((d) => ({ name: basename(resolve(d)), dir: resolve(d) }))];
const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end('[]');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const home = mkdtempSync(join(tmpdir(), 'email-bench-home-'));
const env = { ...process.env, HOME: home, EMAIL_CONFIG_DIR: home, EMAIL_API_KEY: 'bench-key', EMAIL_BASE_URL: `http://127.0.0.1:${server.address().port}` };
for (const k of ['NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'NODE_OPTIONS']) delete env[k];

/** The child runs while this process serves it, so spawn asynchronously. */
function run(command, args, runEnv) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env: runEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} exited ${code}: ${err.slice(-500)}`))));
  });
}

/** Instructions of one whole run, in millions, without V8's hash-seed prime search. */
async function count(node, build, args, cacheHome) {
  const runEnv = { ...env, XDG_CACHE_HOME: cacheHome };
  const argv = ['--single-threaded', join(build.dir, 'bin', 'email'), ...args];
  // Under valgrind V8 sees another processor, and Node 22 keys its compile cache by that: fill it there.
  for (let i = 0; i < 2; i++) await run('valgrind', ['--tool=none', node, ...argv], runEnv);
  const out = join(cacheHome, 'callgrind.out');
  await run('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, node, ...argv], runEnv);
  const annotated = spawnSync('callgrind_annotate', ['--threshold=100', out], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;
  rmSync(out);
  let total = 0;
  let seed = 0;
  for (const line of annotated.split('\n')) {
    const n = Number(/^\s*([\d,]+) /.exec(line)?.[1].replaceAll(',', ''));
    if (line.includes('PROGRAM TOTALS')) total = n;
    else if (line.includes('detail::sprp')) seed += n;
  }
  return (total - seed) / 1e6;
}

for (const major of LINES) {
  const got = spawnSync(process.execPath, [join(root, 'scripts', 'with-node.mjs'), major, '--', 'node', '-p', 'process.execPath + " " + process.version'], { encoding: 'utf8' });
  if (got.status !== 0) {
    console.log(`Node ${major}: skipped (${(got.stderr || `exit ${got.status}`).trim().split('\n').at(-1)})`);
    continue;
  }
  const [node, version] = got.stdout.trim().split(' ');
  console.log(`\nNode ${version}: millions of instructions, whole process, warm compile cache`);
  for (const [name, args] of Object.entries(CASES)) {
    const counts = [];
    for (const build of builds) counts.push(await count(node, build, args, mkdtempSync(join(tmpdir(), 'email-bench-cache-'))));
    const cells = builds.map((b, i) => `${b.name}: ${counts[i].toFixed(1)}M`);
    for (let i = 1; i < builds.length; i++) cells.push(`÷ ${builds[i].name} ${(counts[0] / counts[i]).toFixed(3)}`);
    console.log(`  ${name.padEnd(50)} ${cells.join('   ')}`);
  }
}
server.close();
