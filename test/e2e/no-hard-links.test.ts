// Files the tool writes (core/private-file.ts) on file systems that refuse
// hard links (FAT and exFAT USB sticks, many SMB and FUSE mounts, where
// operators' CSV exports often sit) or a rename over an existing file: the
// import's journal and lock, the failures file and saved webhook deliveries
// still work there, through the real binary, with the refusals injected into
// its system calls.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { spawnCli } from '../helpers/cli.js';
import { NO_HARD_LINKS, runFaulty, startFaulty, straceWorks } from '../helpers/faults.js';
import { importRequests, peopleCsv, tempDir, writeFile } from '../helpers/import-files.js';
import { sandboxPerTest } from '../helpers/sandbox.js';
import { post, waitUntil } from '../helpers/webhooks.js';

if (!straceWorks) console.warn('strace is missing or may not trace here: the tests of file systems without hard links are skipped');

const LIST = SEED_LIST_IDS.customers;

describe.skipIf(!straceWorks)('an import beside files on a file system without hard links', () => {
  const t = sandboxPerTest();
  beforeEach(() => {
    writeFile(t.dir, 'people.csv', peopleCsv(300));
  });
  const args = (...more: string[]) => ['subscribers', 'import', 'people.csv', '--list', LIST, '--batch-size', '100', '--concurrency', '1', '--consent', 'yes', '--json', ...more];
  const journal = () => join(t.dir, `people.csv.${LIST.slice(0, 8)}.import-journal`);

  it('imports, with its journal and lock beside the file, and leaves nothing behind', async () => {
    const r = await runFaulty([NO_HARD_LINKS], args(), { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 300, new: 300, failed: 0 });
    expect(readdirSync(t.dir)).toEqual(['people.csv']);
  });

  it('keeps the journal of a failed batch, resumes from it where a rename over a file is refused too, and writes the failures file 0600', async () => {
    t.sandbox.failNext({ path: /\/import$/, status: 500, times: 4 });
    const first = await runFaulty([NO_HARD_LINKS], args('--failures', 'failed.csv'), { cwd: t.dir, env: t.env });
    expect(first.code, first.stderr).toBe(3);
    expect(existsSync(journal())).toBe(true);
    expect(statSync(join(t.dir, 'failed.csv')).mode & 0o777).toBe(0o600);
    // The resume writes the journal again over the one there: its first rename is refused. strace counts
    // calls per thread, so file calls go through one thread of the pool for "first" to mean the journal's.
    const resumed = await runFaulty([NO_HARD_LINKS, 'rename,renameat,renameat2:error=EEXIST:when=1'], args('--resume'), {
      cwd: t.dir,
      env: { ...t.env, UV_THREADPOOL_SIZE: '1' },
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toMatch(/journal/);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ failed: 0 });
    expect(readdirSync(t.dir).sort()).toEqual(['failed.csv', 'people.csv']);
  });
});

/** Whether a thread of `pid` is held at the entry of a rename (x86-64 numbers: rename, renameat, renameat2). */
function inRename(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) => {
      const nr = Number(readFileSync(`/proc/${pid}/task/${tid}/syscall`, 'utf8').split(' ')[0]);
      return nr === 82 || nr === 264 || nr === 316;
    });
  } catch {
    return false;
  }
}

const x86Linux = process.platform === 'linux' && process.arch === 'x64';

describe.skipIf(!straceWorks || !x86Linux)('the journal lock on a file system without hard links', () => {
  const t = sandboxPerTest();
  beforeEach(() => {
    writeFile(t.dir, 'people.csv', peopleCsv(10));
  });

  it('a fresh lock moved aside while a stale one is taken over is put back, not dropped', async () => {
    const lock = join(t.dir, `people.csv.${LIST.slice(0, 8)}.import-journal.lock`);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(lock, `${JSON.stringify({ pid: gone, host: hostname(), nonce: 'stale', createdAt: new Date(0).toISOString() })}\n`, { mode: 0o600 });
    // The import's rename of the stale lock is held back 3 s at its entry: in that window another import
    // (this test, alive) takes the stale lock over, so the rename moves that fresh lock aside instead.
    const argv = ['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--json'];
    const run = startFaulty([NO_HARD_LINKS, 'rename,renameat,renameat2:delay_enter=3000000'], argv, { cwd: t.dir, env: t.env });
    try {
      await waitUntil(() => inRename(run.emailPid()), 'the import to reach its rename of the stale lock', 20_000);
      const fresh = `${JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'fresh', createdAt: new Date().toISOString() })}\n`;
      rmSync(lock);
      writeFileSync(lock, fresh, { mode: 0o600 });
      const code = await run.exited;
      expect(code, run.output().stderr).toBe(2);
      expect(run.output().stderr).toMatch(new RegExp(`in use by another import \\(pid ${process.pid}\\)`));
      // The other import's lock is in place again, whole; nothing else is left and nothing was sent.
      expect(readFileSync(lock, 'utf8')).toBe(fresh);
      expect(readdirSync(t.dir).sort()).toEqual([basename(lock), 'people.csv'].sort());
      expect(importRequests(t.sandbox)).toHaveLength(0);
    } finally {
      const pid = run.emailPid();
      if (pid) process.kill(pid, 'SIGKILL');
      run.child.kill('SIGKILL');
    }
  }, 60_000);
});

describe.skipIf(!straceWorks)('webhooks listen --save on a file system without hard links', () => {
  it('saves every delivery it answers 200', async () => {
    const dir = tempDir('email-save-nolinks-');
    const s = startFaulty([NO_HARD_LINKS], ['webhooks', 'listen', '--port', '0', '-o', 'ndjson', '--save', dir]);
    try {
      await waitUntil(() => /Listening on [^\s"]+/.test(s.output().stderr), 'the listener to start');
      const url = /Listening on ([^\s"]+)/.exec(s.output().stderr)![1]!;
      const body = JSON.stringify({ Events: [{ Type: 'Subscribe', Date: '2025-03-04 05:06:07', EmailAddress: 'a@example.com', Name: 'A', CustomFields: [] }], ListID: LIST });
      const answer = await post(url, body, 'application/json');
      // Stopping finishes the saves under way first.
      process.kill(s.emailPid()!, 'SIGINT');
      expect(await s.exited).toBe(0);
      if (answer.status === 200) {
        const saved = readdirSync(dir);
        expect(saved, s.output().stderr).toHaveLength(1);
        expect(readFileSync(join(dir, saved[0]!), 'utf8')).toBe(body);
        expect(statSync(join(dir, saved[0]!)).mode & 0o777).toBe(0o600);
        expect(s.output().stderr).toMatch(/1 saved/);
      } else {
        expect(answer.status).toBeGreaterThanOrEqual(500);
      }
    } finally {
      const pid = s.emailPid();
      if (pid) process.kill(pid, 'SIGKILL');
      s.child.kill('SIGKILL');
    }
  });
});

describe('webhooks listen --save where no file can be made', () => {
  it('is refused before it listens (exit 2), so no delivery is answered 200 and then lost', async () => {
    if (!existsSync('/proc/self')) return console.warn('no /proc here: the test of a --save folder that takes no file is skipped');
    // /proc exists and is a folder, but takes no new file.
    const r = await spawnCli(['webhooks', 'listen', '--port', '0', '--save', '/proc'], { timeoutMs: 10_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--save: cannot save deliveries in \/proc: /);
    expect(r.stderr).not.toMatch(/Listening on/);
  });
});
