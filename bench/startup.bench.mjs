// Start-up on each Node line users run (issue 18): whole-process wall time of
// `email --help`, `email --version`, a group's help (rendered by the
// program: issue 12 ruled out prebuilt help per group) and two reads (one request each to a loopback
// server), each against `node -e 0` of the same Node. Paired and interleaved: every round runs, for each line, `node -e 0`
// and then each case once; a case's ratio is taken against the `node -e 0`
// of its own line and round, and the figure quoted is the median of those
// ratios, so drift in the machine's speed hits both sides of a pair alike.
// stdout and stderr are pipes, as in `email … | jq`.
//
// Lines: BENCH_NODE_LINES (default 22,24,26), each the official build that
// scripts/with-node.mjs fetches from the npm registry into .cache/node/; a
// line that cannot be had is skipped with the reason. Node's compile cache
// lives in a fresh directory (XDG_CACHE_HOME) per build, filled by the
// warm-up runs, as a user's is after their first run.
// BENCH_BASELINE=<checkout>[,<checkout>…] (each built with `npm run build`)
// also runs that checkout's bin/email in the same rounds, and prints its
// ratios and this build's over it: a change's before and after, in one run.
// The bars (issue 18) are Node 24's.
//
// Where a key lives (issue 21): the same read with its key in a profile of
// the config file and in the keychain (gnome-keyring on a private session
// bus, test/helpers/keyring-session.mjs), this build only; the figure is the
// median over rounds of the difference of the pair, in ms, and the bar is at
// most 10 ms. Without dbus and gnome-keyring those two cases are skipped, with the reason.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKeyringSession } from '../test/helpers/keyring-session.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 31);
const LINES = (process.env.BENCH_NODE_LINES ?? '22,24,26').split(',').map((s) => s.trim()).filter(Boolean);
const BAR_LINE = '24';

const builds = [{ name: 'this build', bin: join(root, 'bin', 'email') }];
for (const dir of (process.env.BENCH_BASELINE ?? '').split(',').filter(Boolean)) builds.push({ name: basename(resolve(dir)), bin: join(resolve(dir), 'bin', 'email') });
for (const build of builds) build.cacheHome = mkdtempSync(join(tmpdir(), 'email-bench-cache-'));

/** The node binary of each line, through scripts/with-node.mjs (which fetches it once). */
const lines = [];
for (const major of LINES) {
  const got = spawnSync(process.execPath, [join(root, 'scripts', 'with-node.mjs'), major, '--', 'node', '-p', 'process.execPath + " " + process.version'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (got.status !== 0) {
    console.log(`Node ${major}: skipped (${(got.stderr || got.error?.message || `exit ${got.status}`).trim().split('\n').at(-1)})`);
    continue;
  }
  const [node, version] = got.stdout.trim().split(' ');
  lines.push({ major, node, version });
}

const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end('[]');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const baseEnv = { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'email-bench-home-')), EMAIL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'email-bench-')), EMAIL_API_KEY: 'bench-key', EMAIL_BASE_URL: baseUrl };
delete baseEnv.NODE_COMPILE_CACHE;
delete baseEnv.NODE_DISABLE_COMPILE_CACHE;
delete baseEnv.NODE_OPTIONS;

// The read commands run in a child while this process serves them, so spawn asynchronously.
function time(node, args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (code !== 0 || err) return reject(new Error(`${node} ${args.join(' ')} exited ${code}: ${err}`));
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const BASE = 'node -e 0';
const CASES = {
  'email --help': ['--help'],
  'email --version': ['--version'],
  'email campaigns --help': ['campaigns', '--help'],
  'email campaigns sent --json (one request)': ['campaigns', 'sent', '--json'],
  'email api /email/clients/scheduled (one request)': ['api', '/email/clients/scheduled'],
};

// The read again, its key from a profile: in the file, and in the keychain (this build only: a baseline may not know keychains).
const KEY_IN_FILE = 'campaigns sent --json, key in the config file';
const KEY_IN_KEYCHAIN = 'campaigns sent --json, key in the keychain';
const CASE_ENV = {};
const keyring = await startKeyringSession();
if (keyring.ok) {
  process.on('exit', () => keyring.session.stop());
  const profileDir = (profile) => {
    const dir = mkdtempSync(join(tmpdir(), 'email-bench-profile-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ defaultProfile: 'default', profiles: { default: profile } }), { mode: 0o600 });
    return dir;
  };
  const fileDir = profileDir({ baseUrl, apiKey: 'bench-key', keyStore: 'file' });
  const keychainDir = profileDir({ baseUrl, keyStore: 'keychain' });
  // src/core/keychain.ts's entry for a profile of a config directory given by EMAIL_CONFIG_DIR.
  keyring.session.store(`email-cli:${keychainDir}`, 'default', 'bench-key');
  const profileEnv = { EMAIL_API_KEY: undefined, EMAIL_BASE_URL: undefined, DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: undefined };
  CASES[KEY_IN_FILE] = ['campaigns', 'sent', '--json'];
  CASE_ENV[KEY_IN_FILE] = { ...profileEnv, EMAIL_CONFIG_DIR: fileDir };
  CASES[KEY_IN_KEYCHAIN] = ['campaigns', 'sent', '--json'];
  CASE_ENV[KEY_IN_KEYCHAIN] = { ...profileEnv, EMAIL_CONFIG_DIR: keychainDir, ...keyring.session.env };
} else {
  console.log(`the read with its key in the keychain: skipped (${keyring.reason})`);
}
const KEY_CASES = new Set([KEY_IN_FILE, KEY_IN_KEYCHAIN]);
const envOf = (name, build) => {
  const env = { ...baseEnv, XDG_CACHE_HOME: build.cacheHome, ...CASE_ENV[name] };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
};
// A baseline from before keys went to the keychain cannot run those two cases: it is left out of them.
for (const build of builds) {
  build.keychain = keyring.ok && lines.length > 0 && (await time(lines[0].node, [build.bin, ...CASES[KEY_IN_KEYCHAIN]], envOf(KEY_IN_KEYCHAIN, build)).then(() => true, () => false));
  if (keyring.ok && !build.keychain) console.log(`${build.name}: cannot read a key from the keychain; left out of those cases`);
}
/** Every timed run of a round: the line's `node -e 0`, then each case of each build. */
const runs = lines.flatMap((line) => [
  { line, build: undefined, name: BASE, args: ['-e', '0'], env: baseEnv },
  ...builds.flatMap((build) =>
    Object.entries(CASES)
      .filter(([name]) => build.keychain || !KEY_CASES.has(name))
      .map(([name, args]) => ({ line, build, name, args: [build.bin, ...args], env: envOf(name, build) })),
  ),
]);
const samples = new Map(runs.map((run) => [run, []]));

for (let i = 0; i < 2; i++) for (const run of runs) await time(run.line.node, run.args, run.env); // the file cache, and Node's compile cache
for (let i = 0; i < ROUNDS; i++) {
  for (const run of runs) samples.get(run).push(await time(run.line.node, run.args, run.env));
}
server.close();
if (keyring.ok) keyring.session.stop();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const find = (line, build, name) => runs.find((r) => r.line === line && r.build === build && r.name === name);
/** The median over rounds of this run's time over the `node -e 0` of its line and round. */
const ratio = (run, over = find(run.line, undefined, BASE)) => median(samples.get(run).map((ms, i) => ms / samples.get(over)[i]));

console.log(`rounds: ${ROUNDS}, interleaved; ratio = median of each run over the ${BASE} of its line and round`);
for (const line of lines) {
  const base = find(line, undefined, BASE);
  console.log(`\nNode ${line.version}: ${BASE} median ${median(samples.get(base)).toFixed(1)} ms`);
  for (const name of Object.keys(CASES)) {
    const cells = builds.filter((build) => find(line, build, name)).map((build) => {
      const run = find(line, build, name);
      return `${build.name}: ${median(samples.get(run)).toFixed(1)} ms ${ratio(run).toFixed(2)}x`;
    });
    const mine = find(line, builds[0], name);
    if (mine) for (const other of builds.slice(1)) if (find(line, other, name)) cells.push(`÷ ${other.name} ${ratio(mine, find(line, other, name)).toFixed(3)}`);
    console.log(`  ${name.padEnd(50)} ${cells.join('   ')}`);
  }
  for (const build of builds.filter((b) => b.keychain)) {
    const [file, keychain] = [find(line, build, KEY_IN_FILE), find(line, build, KEY_IN_KEYCHAIN)];
    console.log(`  key in the keychain over the file, ${build.name}: ${keychainCost(line, build).toFixed(1)} ms (median of the paired differences), ${ratio(keychain, file).toFixed(3)}x`);
  }
}

/** The median over rounds of (read with its key in the keychain − the same read with it in the file), in ms. */
function keychainCost(line, build = builds[0]) {
  const file = samples.get(find(line, build, KEY_IN_FILE));
  const keychain = samples.get(find(line, build, KEY_IN_KEYCHAIN));
  return median(keychain.map((ms, i) => ms - file[i]));
}

const barLine = lines.find((l) => l.major === BAR_LINE);
const bar = (name, label, limit) => {
  if (!barLine) return console.log(`BAR ${label}: FAIL (Node ${BAR_LINE} could not be run)`);
  const r = ratio(find(barLine, builds[0], name));
  console.log(`BAR ${label}: ${r <= limit ? 'PASS' : 'FAIL'} (Node ${barLine.version}: ${r.toFixed(2)}x vs <= ${limit}x)`);
};
console.log('');
bar('email --help', 'startup --help', 1.1);
bar('email --version', 'startup --version', 1.1);
bar('email campaigns --help', "startup a group's help", 1.25);
bar('email campaigns sent --json (one request)', 'startup read command (campaigns sent --json)', 1.7);
if (builds[0].keychain && barLine) {
  const cost = keychainCost(barLine);
  console.log(`BAR startup read, key in the keychain: ${cost <= 10 ? 'PASS' : 'FAIL'} (Node ${barLine.version}: +${cost.toFixed(1)} ms over the file vs <= 10 ms)`);
}
