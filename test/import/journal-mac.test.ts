// Every line of a journal is bound to the import that wrote it: a chained MAC
// under a key from the API key and the journal's salt. Edited, added, moved,
// removed or foreign lines are refused naming the line; only a shorter tail
// passes, which counts fewer rows as sent, never more.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadJournal, type BatchRecord, type JournalHeader, type LoadedJournal } from '../../src/import/journal-format.js';
import { canonical, journalMacKey, verifyJournal } from '../../src/import/journal-mac.js';
import { journalService } from '../../src/import/journal-service.js';
import { JournalWriter } from '../../src/import/journal-writer.js';
import { tempDir } from '../helpers/import-files.js';

const API_KEY = 'secret-key-1234';
const client = (key = API_KEY) => ({
  baseUrl: new URL('http://127.0.0.1:4311'),
  keyDigest: async (salt: string) => createHmac('sha256', salt).update(key).digest('hex'),
});
const batch = (n: number, rows = 500): BatchRecord => ({ batch: n, rows, new: rows, existing: 0, failed: 0, retries: 0, service: [rows, 0, rows], failures: [] });

/** A journal of batches 0-3 written by the writer, as text lines, with its header and key. */
async function written(key = API_KEY) {
  const service = await journalService(client(key));
  const header: JournalHeader = {
    kind: 'email-import-journal',
    version: 3,
    input: { name: 'people.csv', size: 1234, mtimeMs: 1, sha256: 'a'.repeat(64), hashed: 'head' },
    options: { list: 'l', batchSize: 500, consent: null, resubscribe: false, queueAutoresponders: false, restartAutoresponders: false, delimiter: ',', encoding: 'utf8', multiSeparator: null, mapping: ['EmailAddress'] },
    service,
    createdAt: '2024-01-01T00:00:00.000Z',
  };
  const path = join(tempDir(), 'j');
  const writer = await JournalWriter.create(path, header, await journalMacKey(client(key), service.keySalt));
  for (let n = 0; n < 4; n++) writer.record(batch(n));
  await writer.close();
  return { path, header, lines: readFileSync(path, 'utf8').split('\n').filter(Boolean) };
}

async function verify(path: string, text: string[], key = API_KEY): Promise<LoadedJournal> {
  writeFileSync(path, text.map((l) => `${l}\n`).join(''));
  const loaded = await loadJournal(path);
  if (loaded === undefined || loaded === 'empty') throw new Error('no batches');
  verifyJournal(path, loaded, await journalMacKey(client(key), loaded.header.service.keySalt));
  return loaded;
}

const edit = (line: string, change: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(line), ...change });

describe('the MAC chain of a journal', () => {
  it('passes what the writer wrote, and a journal whose tail was cut off (fewer batches taken as sent)', async () => {
    const { path, lines } = await written();
    expect([...(await verify(path, lines)).batches.keys()]).toEqual([0, 1, 2, 3]);
    expect([...(await verify(path, lines.slice(0, 3))).batches.keys()]).toEqual([0, 1]);
  });

  it('refuses, naming the line: records appended for batches never sent, even carrying a genuine MAC', async () => {
    const { path, lines } = await written();
    const mac = JSON.parse(lines.at(-1)!).mac as string;
    const forged = [4, 5, 6].map((n) => JSON.stringify({ ...batch(n), mac }));
    await expect(verify(path, [...lines, ...forged])).rejects.toThrow(/the journal \S+ was altered: line 6 is not what this import wrote/);
  });

  it('refuses an edited record whose counts still add up, an added field, and an edited header', async () => {
    const { path, lines } = await written();
    await expect(verify(path, [lines[0]!, lines[1]!, edit(lines[2]!, { new: 0, existing: 500, service: [500, 500, 0] }), ...lines.slice(3)])).rejects.toThrow(/line 3 /);
    await expect(verify(path, [lines[0]!, edit(lines[1]!, { note: 'x' }), ...lines.slice(2)])).rejects.toThrow(/line 2 /);
    await expect(verify(path, [edit(lines[0]!, { createdAt: '2025-01-01T00:00:00.000Z' }), ...lines.slice(1)])).rejects.toThrow(/line 1 /);
  });

  it('refuses reordered records and a record removed from the middle', async () => {
    const { path, lines } = await written();
    await expect(verify(path, [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)])).rejects.toThrow(/line 2 /);
    await expect(verify(path, [lines[0]!, lines[1]!, ...lines.slice(3)])).rejects.toThrow(/line 3 /);
  });

  it('refuses records of another journal of the same key, or of another key, under this header', async () => {
    const { path, lines } = await written();
    const same = await written();
    await expect(verify(path, [lines[0]!, ...same.lines.slice(1)])).rejects.toThrow(/line 2 /);
    const other = await written('other-key-5678');
    await expect(verify(path, [lines[0]!, ...other.lines.slice(1)])).rejects.toThrow(/line 2 /);
    // And a whole journal checked with another key than its own.
    await expect(verify(path, lines, 'other-key-5678')).rejects.toThrow(/line 1 /);
  });

  it('a resumed journal, written again from what was read, makes the same MACs and goes on from them', async () => {
    const { path, lines, header } = await written();
    const loaded = await verify(path, lines.slice(0, 3));
    const writer = await JournalWriter.create(path, loaded.header, await journalMacKey(client(), header.service.keySalt), loaded.batches.values());
    writer.record(batch(2));
    writer.record(batch(3));
    await writer.close();
    const again = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(again).toEqual(lines);
    expect([...(await verify(path, again)).batches.keys()]).toEqual([0, 1, 2, 3]);
  });

  it('its key is neither the key nor the digest the header shows, and differs by salt and by key', async () => {
    const salt = '0123456789abcdef0123456789abcdef';
    const key = await journalMacKey(client(), salt);
    expect(key.length).toBe(32);
    expect(key.toString('hex')).not.toBe(await client().keyDigest(salt));
    expect((await journalMacKey(client(), `${salt}0`)).equals(key)).toBe(false);
    expect((await journalMacKey(client('other-key-5678'), salt)).equals(key)).toBe(false);
    const { lines } = await written();
    expect(lines.join('\n')).not.toContain(API_KEY);
  });

  it('covers a value whatever the order of its keys', () => {
    expect(canonical({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: null } })).toBe(canonical({ a: { c: null, d: [1, { y: 1, z: 0 }] }, b: 1 }));
    expect(canonical({ a: 1, b: undefined })).toBe('{"a":1}');
  });
});
