// What `--failures <path>` does with what is already at the path (CLI.md
// "--failures"): a regular file is replaced whole, a character device or a
// FIFO is written through (never replaced: as root, `--failures /dev/null`
// once turned the system's /dev/null into a 0600 file of failed rows), a
// symbolic link, a socket or a directory is refused before anything is sent,
// and `-` is standard output. The journal follows the same rule (core's
// writeTarget), streams refused. Devices are made with mknod in a temporary
// folder, never the machine's own /dev, and only as root.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../src/sandbox/index.js';
import { machineLines, spawnCli, startCli } from '../helpers/cli.js';
import { waitUntil, within } from '../helpers/webhooks.js';
import { importRequests, tempDir, writeFile } from '../helpers/import-files.js';
import { sandboxPerTest } from '../helpers/sandbox.js';

const LIST = SEED_LIST_IDS.customers;
const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn('not root: the --failures tests on a character device made with mknod are skipped');

/** Two good rows and one with an address the service refuses before sending (rejected). */
const CSV = 'email,name\nada@example.com,Ada\nnot-an-address,Bad\ngrace@example.com,Grace\n';

describe('--failures and what is at its path', () => {
  const t = sandboxPerTest();
  beforeEach(() => {
    writeFile(t.dir, 'people.csv', CSV);
  });
  const args = (failures: string, ...more: string[]) => ['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--failures', failures, ...more];
  const run = (failures: string, ...more: string[]) => spawnCli(args(failures, ...more), { cwd: t.dir, env: t.env });

  it.skipIf(!isRoot)('writes through a character device and leaves it one (a null device made with mknod)', async () => {
    const device = join(t.dir, 'null');
    expect(spawnSync('mknod', [device, 'c', '1', '3']).status).toBe(0);
    const r = await run(device);
    expect(r.code, r.stderr).toBe(3);
    const after = lstatSync(device);
    expect(after.isCharacterDevice()).toBe(true);
    expect(after.rdev).toBe(lstatSync('/dev/null').rdev);
    expect(readdirSync(t.dir).sort()).toEqual(['null', 'people.csv']);
  });

  it('writes through a FIFO to its reader, and leaves the FIFO in place', async () => {
    const fifo = join(t.dir, 'failed.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
    let read = '';
    reader.stdout.setEncoding('utf8').on('data', (d: string) => (read += d));
    const readerDone = new Promise<number | null>((resolve) => reader.on('close', resolve));
    // Replaced by a file, the FIFO would never see a writer: the reader is not left waiting after the test.
    const stopReader = setTimeout(() => reader.kill(), 15_000);
    try {
      const r = await run(fifo);
      expect(r.code, r.stderr).toBe(3);
      expect(await readerDone).toBe(0);
    } finally {
      clearTimeout(stopReader);
      reader.kill();
    }
    expect(read).toContain('not-an-address,Bad');
    expect(read).toContain('Line,Outcome,Code,Message');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(t.dir).sort()).toEqual(['failed.fifo', 'people.csv']);
  });

  it('waits for a FIFO\'s reader, saying so, and a Ctrl-C ends the wait at once (exit 130), nothing sent', async () => {
    const fifo = join(t.dir, 'failed.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const run = startCli(args(fifo), { cwd: t.dir, env: t.env });
    try {
      await waitUntil(() => /waiting for a reader/.test(run.output().stderr), 'the import to wait for the FIFO\'s reader', 15_000);
      run.child.kill('SIGINT');
      expect(await within(5_000, run.exited, 'the end after Ctrl-C')).toBe(130);
      expect(importRequests(t.sandbox)).toHaveLength(0);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('refuses a symbolic link, before anything is sent, and leaves the link and its target alone', async () => {
    writeFile(t.dir, 'elsewhere.csv', 'keep me\n');
    symlinkSync(join(t.dir, 'elsewhere.csv'), join(t.dir, 'failed.csv'));
    const r = await run('failed.csv');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--failures .*failed\.csv is a symbolic link/);
    expect(importRequests(t.sandbox)).toHaveLength(0);
    expect(lstatSync(join(t.dir, 'failed.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(t.dir, 'elsewhere.csv'), 'utf8')).toBe('keep me\n');
  });

  describe('a socket', () => {
    let server: Server | undefined;
    afterEach(() => server?.close());
    it('is refused before anything is sent', async () => {
      const path = join(t.dir, 'failed.sock');
      server = createServer();
      await new Promise<void>((resolve) => server!.listen(path, resolve));
      const r = await run('failed.sock');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--failures .*failed\.sock is a socket/);
      expect(importRequests(t.sandbox)).toHaveLength(0);
      expect(lstatSync(path).isSocket()).toBe(true);
    });
  });

  it('refuses a directory before anything is sent', async () => {
    mkdirSync(join(t.dir, 'out'));
    const r = await run('out');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--failures .*out is a directory/);
    expect(importRequests(t.sandbox)).toHaveLength(0);
  });

  it('- writes the failed rows to standard output, the summary to stderr, and creates no file named -', async () => {
    const r = await run('-');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('email,name,Line,Outcome,Code,Message');
    expect(r.stdout).toContain('not-an-address,Bad,3,rejected');
    expect(r.stdout).not.toMatch(/ada@example\.com/);
    expect(r.stderr).toMatch(/^Rows: 3$/m);
    expect(r.stderr).toMatch(/^Failures file: standard output \(2 rows: 1 failed, 1 rejected\)$/m);
    expect(existsSync(join(t.dir, '-'))).toBe(false);
    expect(importRequests(t.sandbox)).toHaveLength(1);
  });

  it('- with --json: standard output is the CSV still, and the summary a notice on stderr', async () => {
    const r = await run('-', '--json');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('email,name,Line,Outcome,Code,Message');
    const lines = machineLines(r.stderr);
    expect(lines.find((l) => l.type === 'notice' && /^Rows: 3$/m.test(l.message))).toBeDefined();
    expect(lines.at(-1)!.error!.kind).toBe('partial');
    expect(existsSync(join(t.dir, '-'))).toBe(false);
  });

  it('- with --dry-run is refused before anything is read: its report is standard output', async () => {
    const r = await run('-', '--dry-run');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--failures - .*--dry-run/);
    expect(r.stdout).toBe('');
  });
});

describe('--journal and what is at its path: the same rule, a stream refused too', () => {
  const t = sandboxPerTest();
  beforeEach(() => {
    writeFile(t.dir, 'people.csv', CSV);
  });

  it('refuses a FIFO as the journal before taking its lock or sending anything', async () => {
    const fifo = join(t.dir, 'journal.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await spawnCli(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--journal', 'journal.fifo'], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/journal .*journal\.fifo is a FIFO/);
    expect(importRequests(t.sandbox)).toHaveLength(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(t.dir).sort()).toEqual(['journal.fifo', 'people.csv']);
  });

  it.skipIf(!isRoot)('refuses a character device as the journal, and creates no lock beside it', async () => {
    const device = join(t.dir, 'null');
    expect(spawnSync('mknod', [device, 'c', '1', '3']).status).toBe(0);
    const r = await spawnCli(['subscribers', 'import', 'people.csv', '--list', LIST, '--consent', 'yes', '--journal', 'null'], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/journal .*null is a character device/);
    expect(importRequests(t.sandbox)).toHaveLength(0);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(readdirSync(t.dir).sort()).toEqual(['null', 'people.csv']);
  });
});

describe('webhooks listen --save and what is at its path: the same rule, a folder wanted', () => {
  it('refuses a FIFO, naming what it is, before it listens', async () => {
    const dir = tempDir('email-save-target-');
    const fifo = join(dir, 'deliveries');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await spawnCli(['webhooks', 'listen', '--port', '0', '--save', fifo], { timeoutMs: 10_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--save \S+deliveries is a FIFO, not a folder/);
    expect(r.stderr).not.toMatch(/Listening on/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it.skipIf(!isRoot)('refuses a character device, naming what it is', async () => {
    const dir = tempDir('email-save-target-');
    const device = join(dir, 'null');
    expect(spawnSync('mknod', [device, 'c', '1', '3']).status).toBe(0);
    const r = await spawnCli(['webhooks', 'listen', '--port', '0', '--save', device], { timeoutMs: 10_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--save \S+null is a character device, not a folder/);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });
});
