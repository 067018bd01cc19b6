// The one way files are written beside the user's data (ENGINEERING.md habit
// 16): never through a link, exclusively under an unpredictable name, 0600,
// whole or not at all; appends go on through the descriptor, and reading
// follows no link.
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PrivateFile, readRegularFile, UnsafePathError, writePrivateFile } from '../../src/core/private-file.js';
import { tempDir } from '../helpers/import-files.js';

/** "Another user's file": any file we make, outside the folder written to. */
function victim(): string {
  const path = join(tempDir(), 'victim');
  writeFileSync(path, 'precious\n', { mode: 0o600 });
  return path;
}

describe('PrivateFile', () => {
  it('is invisible at its path until committed, then there whole, 0600 whatever the umask, nothing else left', async () => {
    const dir = tempDir();
    const path = join(dir, 'out.txt');
    const umask = process.umask(0);
    try {
      const file = await PrivateFile.create(path);
      await file.write('one\n');
      expect(readdirSync(dir)).toHaveLength(1);
      expect(readdirSync(dir)[0]).toMatch(new RegExp(`^\\.out\\.txt\\.${process.pid}\\.[0-9a-f]{16}\\.tmp$`));
      await file.commit();
      await file.close();
    } finally {
      process.umask(umask);
    }
    expect(readdirSync(dir)).toEqual(['out.txt']);
    expect(readFileSync(path, 'utf8')).toBe('one\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('appends after the commit go through the descriptor: a link planted at the path later is not followed', async () => {
    const dir = tempDir();
    const path = join(dir, 'journal');
    const target = victim();
    const file = await PrivateFile.create(path);
    await file.write('header\n');
    await file.commit();
    // The path is swapped for a link after the file was put in place.
    renameSync(path, join(dir, 'moved'));
    symlinkSync(target, path);
    await file.write('batch\n');
    await file.close();
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(dir, 'moved'), 'utf8')).toBe('header\nbatch\n');
  });

  it('refuses a symbolic link at the target, or replaces it without following it when asked', async () => {
    const dir = tempDir();
    const target = victim();
    symlinkSync(target, join(dir, 'out'));
    await expect(PrivateFile.create(join(dir, 'out'))).rejects.toThrow(UnsafePathError);
    expect(readlinkSync(join(dir, 'out'))).toBe(target);
    await writePrivateFile(join(dir, 'out'), 'mine\n', { symlink: 'replace' });
    expect(lstatSync(join(dir, 'out')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('mine\n');
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
  });

  it("existing: 'refuse' leaves a file, a link or a dangling link at the target as it is (EEXIST), and removes its temporary file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'theirs\n');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    await expect(writePrivateFile(join(dir, 'file'), 'mine\n', { existing: 'refuse' })).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(writePrivateFile(join(dir, 'dangling'), 'mine\n', { existing: 'refuse', symlink: 'replace' })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(join(dir, 'file'), 'utf8')).toBe('theirs\n');
    expect(readdirSync(dir).sort()).toEqual(['dangling', 'file']);
    await writePrivateFile(join(dir, 'new'), 'mine\n', { existing: 'refuse' });
    expect(readFileSync(join(dir, 'new'), 'utf8')).toBe('mine\n');
    expect(statSync(join(dir, 'new')).mode & 0o777).toBe(0o600);
  });

  it('discard() removes the temporary file of a file not committed', async () => {
    const dir = tempDir();
    const file = await PrivateFile.create(join(dir, 'out'));
    await file.write('partial');
    await file.discard();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('readRegularFile', () => {
  it('reads a file, says undefined for none, and refuses a link, a FIFO or a directory', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'data');
    symlinkSync(victim(), join(dir, 'link'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect((await readRegularFile(join(dir, 'file')))!.toString()).toBe('data');
    expect(await readRegularFile(join(dir, 'none'))).toBeUndefined();
    await expect(readRegularFile(join(dir, 'link'))).rejects.toThrow(/link is a symbolic link$/);
    await expect(readRegularFile(join(dir, 'fifo'))).rejects.toThrow(/fifo is a FIFO$/);
    await expect(readRegularFile(dir)).rejects.toThrow(/is a directory$/);
  });
});
