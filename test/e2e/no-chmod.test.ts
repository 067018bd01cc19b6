// Files the tool writes (core/private-file.ts) on a file system that sets no
// modes (FAT through fusefat answers chmod with ENOSYS; the kernel's vfat
// with EPERM for another owner): the journal, its lock, the failures file and
// saved deliveries were refused there. Where the folder is the user's own and
// no one else may write to it, and no one else can read the file, they go on.
// The real case runs on a FAT image mounted with fusefat in a private mount
// namespace (root, with fusefat and dosfstools installed); the refusal of a
// folder others can read runs anywhere strace works, with fchmod made to fail.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { BIN, requireBuild, tempConfigDir } from '../helpers/cli.js';
import { runFaulty, straceWorks } from '../helpers/faults.js';
import { importRequests, tempDir, writeFile } from '../helpers/import-files.js';
import { sandboxPerTest } from '../helpers/sandbox.js';
import { post, waitUntil } from '../helpers/webhooks.js';

const LIST = SEED_LIST_IDS.customers;
const CSV = 'email,name\nada@example.com,Ada\nnot-an-address,Bad\ngrace@example.com,Grace\n';

/** Whether a FAT image can be made and mounted with fusefat in a private mount namespace here. */
const fatWorks: boolean = (() => {
  if (process.getuid?.() !== 0) return false;
  const tools = ['unshare', 'fusefat', 'mkfs.vfat', 'mountpoint', 'fusermount'].every((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status === 0);
  return tools && spawnSync('unshare', ['-m', 'true']).status === 0 && spawnSync('test', ['-c', '/dev/fuse']).status === 0;
})();
if (!fatWorks) console.warn('no root, unshare, fusefat or mkfs.vfat here: the tests on a real FAT file system are skipped (apt-get install fusefat dosfstools)');

/**
 * Runs `argv` (bin/email) with its working folder the root of a fresh FAT
 * image mounted with fusefat, in a mount namespace of its own, `files`
 * copied there first; returns the run and what the folder held after it
 * (names, and the text of `keep`).
 */
async function onFat(argv: string[], o: { env: Record<string, string>; files: Record<string, string>; keep?: string[]; during?: (url: string) => Promise<void> }) {
  requireBuild();
  const work = tempDir('email-fat-');
  const image = join(work, 'fat.img');
  const mnt = join(work, 'mnt');
  const out = join(work, 'out');
  mkdirSync(mnt);
  mkdirSync(out);
  expect(spawnSync('truncate', ['-s', '16M', image]).status).toBe(0);
  expect(spawnSync('mkfs.vfat', [image]).status).toBe(0);
  for (const [name, text] of Object.entries(o.files)) writeFile(out, name, text);
  const script = [
    'img=$1 mnt=$2 out=$3; shift 3',
    'fusefat -f -o rw+ "$img" "$mnt" >/dev/null 2>&1 & fp=$!',
    'i=0; until mountpoint -q "$mnt"; do i=$((i+1)); if [ $i -gt 200 ]; then kill $fp; exit 97; fi; sleep 0.05; done',
    `for f in ${Object.keys(o.files).join(' ')}; do cp "$out/$f" "$mnt/$f"; done`,
    'cd "$mnt"; "$@"; rc=$?',
    'ls -A "$mnt" > "$out/.listing"',
    `for f in ${(o.keep ?? []).join(' ')}; do [ -e "$mnt/$f" ] && cp -r "$mnt/$f" "$out/kept-$f"; done`,
    'cd /; fusermount -u "$mnt" || umount "$mnt"; wait $fp; exit $rc',
  ].join('\n');
  const child = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', image, mnt, out, process.execPath, BIN, ...argv], {
    env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_RETRY_BASE_MS: '5', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    if (o.during) {
      await waitUntil(() => /Listening on [^\s"]+/.test(stderr) || /error/.test(stderr), 'the listener to start', 20_000);
      if (!/Listening on/.test(stderr)) return { code: await exited, stdout, stderr, listing: [], kept: {} };
      await o.during(/Listening on ([^\s"]+)/.exec(stderr)![1]!);
      // The listener's own end (the first signal): it is the shell's child, known by its pid.
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
      const email = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(BIN));
      if (email) process.kill(email, 'SIGINT');
    }
    const code = await exited;
    // fusefat (an alpha FUSE driver) at times keeps a removed file under a short name `~N`: not a name the tool writes.
    const listing = readFileSync(join(out, '.listing'), 'utf8').split('\n').filter((name) => name && !/^~\d+$/.test(name)).sort();
    // A file's text, or a folder's files' texts.
    const read = (path: string): string => (statSync(path).isDirectory() ? readdirSync(path).map((n) => read(join(path, n))).join('\n') : readFileSync(path, 'utf8'));
    const kept = Object.fromEntries((o.keep ?? []).filter((f) => existsSync(join(out, `kept-${f}`))).map((f) => [f, read(join(out, `kept-${f}`))]));
    return { code, stdout, stderr, listing, kept };
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!fatWorks)('an import on a FAT file system (fusefat: no chmod, no hard links)', () => {
  const t = sandboxPerTest();

  it('writes its journal, lock and failures file in the user\'s own private folder', async () => {
    const r = await onFat(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--batch-size', '1', '--concurrency', '1', '--failures', 'failed.csv'], {
      env: t.env,
      files: { 'people.csv': CSV },
      keep: ['failed.csv'],
    });
    expect(r.code, r.stderr).toBe(3);
    // No refusal of the journal, its lock or the failures file (the 206 hint's "refused as unsubscribed" is the service's).
    expect(r.stderr).not.toMatch(/cannot|refusing|sets no file modes/);
    expect(r.kept['failed.csv']).toContain('not-an-address,Bad,3,rejected');
    // The journal and its lock were written (a refusal is exit 2) and, every batch acknowledged, removed.
    expect(r.listing).toEqual(['failed.csv', 'people.csv']);
    expect(importRequests(t.sandbox).length).toBeGreaterThan(0);
  }, 90_000);
});

describe.skipIf(!fatWorks)('webhooks listen --save on a FAT file system', () => {
  it('saves every delivery it answers 200', async () => {
    const body = JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-03-04 05:06:07', EmailAddress: 'a@example.com', Name: 'A', CustomFields: [] }], ListID: LIST });
    let status = 0;
    const r = await onFat(['webhooks', 'listen', '--port', '0', '-o', 'ndjson', '--save', 'saved'], {
      env: {},
      files: {},
      keep: ['saved'],
      during: async (url) => {
        status = (await post(url, body, 'application/json')).status;
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(status, r.stderr).toBe(200);
    expect(r.stderr).toMatch(/1 saved/);
    expect(r.listing).toEqual(['saved']);
    // Copied to its name where links are refused: read back through its own descriptor, not the one that
    // wrote it (fusefat returns zeros there), so the file holds the delivery, not zeros.
    expect(r.kept.saved).toBe(body);
  }, 90_000);
});

describe.skipIf(!straceWorks)('where chmod is refused and the folder is not private', () => {
  const t = sandboxPerTest();
  beforeEach(() => {
    writeFile(t.dir, 'people.csv', CSV);
  });
  const argv = ['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--failures', 'failed.csv'];

  it('goes on in a folder of the user\'s that others cannot write to', async () => {
    chmodSync(t.dir, 0o755);
    const r = await runFaulty(['fchmod,chmod,fchmodat:error=ENOSYS'], argv, { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(3);
    expect(readdirSync(t.dir).sort()).toEqual(['failed.csv', 'people.csv']);
  }, 60_000);

  it('refuses, before anything is sent, a folder others can write to, naming why', async () => {
    chmodSync(t.dir, 0o777);
    const r = await runFaulty(['fchmod,chmod,fchmodat:error=ENOSYS'], argv, { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/the file system of \S+ sets no file modes \(chmod: ENOSYS\), and others can write to that folder/);
    expect(importRequests(t.sandbox)).toHaveLength(0);
    expect(readdirSync(t.dir)).toEqual(['people.csv']);
  }, 60_000);
});
