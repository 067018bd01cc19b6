// core/private-file.ts where the file system refuses what it relies on: hard
// links (FAT, exFAT, many SMB and FUSE mounts) or a rename over an existing
// file (some SMB and FUSE mounts). The refusals are made by the fs module the
// helper uses; every other call reaches the real file system.
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PrivateFile, writePrivateFile } from '../../src/core/private-file.js';
import { tempDir } from '../helpers/import-files.js';

const refuse = { link: undefined as string | undefined, renameOver: undefined as string | undefined };

vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  const failure = (code: string) => Object.assign(new Error(`${code}: refused`), { code });
  return {
    ...real,
    link: async (from: string, to: string) => {
      if (refuse.link) throw failure(refuse.link);
      return real.link(from, to);
    },
    rename: async (from: string, to: string) => {
      const there = await real.lstat(to).then(
        () => true,
        () => false,
      );
      if (refuse.renameOver && there) throw failure(refuse.renameOver);
      return real.rename(from, to);
    },
  };
});

afterEach(() => {
  refuse.link = undefined;
  refuse.renameOver = undefined;
});

describe.each(['EPERM', 'ENOTSUP', 'ENOSYS'])('without hard links (link() fails with %s)', (code) => {
  it("existing: 'refuse' writes the file whole, 0600, leaves no temporary file, and appends go on through the descriptor", async () => {
    refuse.link = code;
    const dir = tempDir();
    const path = join(dir, 'lock');
    const file = await PrivateFile.create(path, { existing: 'refuse' });
    await file.write('x'.repeat(200_000));
    await file.commit();
    await file.write('tail\n');
    await file.close();
    expect(readdirSync(dir)).toEqual(['lock']);
    expect(readFileSync(path, 'utf8')).toBe(`${'x'.repeat(200_000)}tail\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("existing: 'refuse' still leaves a file or a link at the target as it is (EEXIST)", async () => {
    refuse.link = code;
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'theirs\n');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    await expect(writePrivateFile(join(dir, 'file'), 'mine\n', { existing: 'refuse' })).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(writePrivateFile(join(dir, 'dangling'), 'mine\n', { existing: 'refuse', symlink: 'replace' })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(join(dir, 'file'), 'utf8')).toBe('theirs\n');
    expect(readlinkSync(join(dir, 'dangling'))).toBe(join(dir, 'nowhere'));
    expect(readdirSync(dir).sort()).toEqual(['dangling', 'file']);
  });
});

describe.each(['EEXIST', 'EPERM', 'EACCES', 'EBUSY'])('where a rename over an existing file fails with %s', (code) => {
  it('a file replaces the one at its path, 0600, nothing else left', async () => {
    refuse.renameOver = code;
    refuse.link = 'EPERM';
    const dir = tempDir();
    const path = join(dir, 'journal');
    writeFileSync(path, 'old\n');
    const file = await PrivateFile.create(path);
    await file.write('new\n');
    await file.commit();
    await file.write('appended\n');
    await file.close();
    expect(readdirSync(dir)).toEqual(['journal']);
    expect(readFileSync(path, 'utf8')).toBe('new\nappended\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("a link there is replaced, not followed, where asked (symlink: 'replace')", async () => {
    refuse.renameOver = code;
    const dir = tempDir();
    writeFileSync(join(dir, 'victim'), 'precious\n');
    symlinkSync(join(dir, 'victim'), join(dir, 'failures.csv'));
    await writePrivateFile(join(dir, 'failures.csv'), 'rows\n', { symlink: 'replace' });
    expect(lstatSync(join(dir, 'failures.csv')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'failures.csv'), 'utf8')).toBe('rows\n');
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('precious\n');
  });
});
