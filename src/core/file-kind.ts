import type { Stats } from 'node:fs';

/** What a path holds, in words: "a FIFO", "a character device". */
export function kindOf(info: Stats): string {
  if (info.isFile()) return 'a regular file';
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}
