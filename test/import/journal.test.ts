// The journal: atomic creation, appends that survive a torn last line, and
// refusal of a journal that belongs to another file or other options.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalError, JournalWriter, journalMismatch, loadJournal, type BatchRecord, type JournalHeader, type JournalOptions } from '../../src/import/journal.js';
import { tempDir } from '../helpers/import-files.js';

const options: JournalOptions = {
  list: '11111111-1111-4111-8111-111111111111',
  batchSize: 1000,
  consent: 'Yes',
  resubscribe: false,
  queueAutoresponders: false,
  restartAutoresponders: false,
  delimiter: ',',
  encoding: 'utf8',
  multiSeparator: null,
  mapping: ['EmailAddress', 'Name', 'field:Company'],
};
const identity = { size: 1234, mtimeMs: 1700000000000, sha256: 'a'.repeat(64), hashed: 'head' as const };
const header: JournalHeader = { kind: 'email-import-journal', version: 1, input: { name: 'people.csv', ...identity }, options, createdAt: '2024-01-01T00:00:00.000Z' };
const batch = (n: number, failures: BatchRecord['failures'] = []): BatchRecord => ({
  batch: n,
  rows: 1000,
  new: 1000 - failures.length,
  existing: 0,
  failed: failures.length,
  retries: 0,
  service: [1000, 0, 1000 - failures.length],
  failures,
});

describe('journal', () => {
  it('records acknowledged batches, out of order, and reads them back', async () => {
    const path = join(tempDir(), 'j');
    const writer = await JournalWriter.create(path, header);
    writer.record(batch(1));
    writer.record(batch(0, [[3, '206', 'Address in the unsubscribed list; not added.']]));
    writer.record(batch(3));
    await writer.close();
    const loaded = await loadJournal(path);
    expect(loaded!.header).toEqual(header);
    expect([...loaded!.batches.keys()]).toEqual([1, 0, 3]);
    expect(loaded!.batches.get(0)!.failures).toEqual([[3, '206', 'Address in the unsubscribed list; not added.']]);
  });

  it('drops a line torn by a crash, and reopening cuts it before appending', async () => {
    const path = join(tempDir(), 'j');
    const writer = await JournalWriter.create(path, header);
    writer.record(batch(0));
    await writer.close();
    appendFileSync(path, '{"batch":1,"rows":10');
    const loaded = await loadJournal(path);
    expect([...loaded!.batches.keys()]).toEqual([0]);
    const again = await JournalWriter.reopen(path, loaded!.validLength);
    again.record(batch(2));
    await again.close();
    expect([...(await loadJournal(path))!.batches.keys()]).toEqual([0, 2]);
    expect(readFileSync(path, 'utf8').split('\n').every((line) => line === '' || JSON.parse(line))).toBe(true);
  });

  it('is undefined when there is none, and an error for a file that is not a journal', async () => {
    const dir = tempDir();
    expect(await loadJournal(join(dir, 'none'))).toBeUndefined();
    writeFileSync(join(dir, 'people.csv'), 'email\na@x.io\n');
    await expect(loadJournal(join(dir, 'people.csv'))).rejects.toThrow(JournalError);
  });

  it('names every difference of file and options that changes what is sent', () => {
    expect(journalMismatch(header, identity, options)).toEqual([]);
    const differences = journalMismatch(header, { ...identity, size: 1300, mtimeMs: 1700000000001, sha256: 'b'.repeat(64) }, { ...options, batchSize: 500, list: '22222222-2222-4222-8222-222222222222', mapping: ['EmailAddress', '-', 'field:Company'] });
    expect(differences).toEqual([
      "the input's size changed (1234 → 1300 bytes)",
      'the input file was modified since',
      "the input's content differs (SHA-256 of the first 64 KiB)",
      '--list was "11111111-1111-4111-8111-111111111111", now "22222222-2222-4222-8222-222222222222"',
      '--batch-size was 1000, now 500',
      'the column mapping (--map) changed',
    ]);
  });

  it('groups appends that arrive during a sync into the next one', async () => {
    const path = join(tempDir(), 'j');
    const writer = await JournalWriter.create(path, header);
    for (let i = 0; i < 200; i++) writer.record(batch(i));
    await writer.flush();
    writer.record(batch(200));
    await writer.close();
    expect((await loadJournal(path))!.batches.size).toBe(201);
  });
});
