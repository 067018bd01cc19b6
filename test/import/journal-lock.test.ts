// The lock of an import's journal (src/import/journal-lock.ts): one import
// holds a journal at a time (CLI.md "--journal / --resume").
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalLock } from '../../src/import/journal-lock.js';
import { tempDir } from '../helpers/import-files.js';

describe('the lock: one import holds a journal at a time', () => {
  const deadPid = () => {
    const child = spawnSync(process.execPath, ['-e', '']);
    return child.pid!;
  };

  it('is created whole, 0600, refused to a second holder naming the first, and removed on release', async () => {
    const path = join(tempDir(), 'j');
    const lock = await JournalLock.acquire(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(statSync(`${path}.lock`).mode & 0o777).toBe(0o600);
    await expect(JournalLock.acquire(path)).rejects.toThrow(`the journal ${path} is in use by another import (pid ${process.pid})`);
    lock.release();
    lock.release();
    expect(existsSync(`${path}.lock`)).toBe(false);
    (await JournalLock.acquire(path)).release();
  });

  it('takes over the lock of a process that is gone, saying so; not one of another host', async () => {
    const dir = tempDir();
    const path = join(dir, 'j');
    const pid = deadPid();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid, host: hostname(), nonce: 'n', createdAt: '' }));
    const notices: string[] = [];
    const lock = await JournalLock.acquire(path, (m) => notices.push(m));
    expect(notices).toEqual([`took over the lock of the journal ${path} left by pid ${pid}, which is no longer running`]);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid, host: 'elsewhere.example', nonce: 'n', createdAt: '' }));
    await expect(JournalLock.acquire(path)).rejects.toThrow(`is in use by another import (pid ${pid} on elsewhere.example)`);
  });

  it('leaves alone a lock that is not its own any more, and refuses a link or a lock naming nobody', async () => {
    const dir = tempDir();
    const path = join(dir, 'j');
    const lock = await JournalLock.acquire(path);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, host: hostname(), nonce: 'someone else', createdAt: '' }));
    lock.release();
    expect(existsSync(`${path}.lock`)).toBe(true);
    writeFileSync(`${path}.lock`, '');
    await expect(JournalLock.acquire(path)).rejects.toThrow(/is locked by \S+\.lock, which does not name the import holding it/);
    const victim = join(tempDir(), 'victim');
    writeFileSync(victim, 'precious\n');
    const other = join(dir, 'k');
    symlinkSync(victim, `${other}.lock`);
    await expect(JournalLock.acquire(other)).rejects.toThrow(/the lock of the journal \S+, \S+\.lock, is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });
});
