// The journal: atomic creation, appends that survive a torn last line,
// refusal of a journal that belongs to another file, other options or another
// service, of one that is damaged, and never a write through a planted link.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  JournalError,
  journalDoesNotFit,
  journalMismatch,
  loadJournal,
  type BatchRecord,
  type JournalHeader,
  type JournalOptions,
} from '../../src/import/journal-format.js';
import { MacChain } from '../../src/import/journal-mac.js';
import { journalService, serviceMismatch, serviceUrl } from '../../src/import/journal-service.js';
import { JournalWriter as Writer } from '../../src/import/journal-writer.js';
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
const service = { baseUrl: 'http://127.0.0.1:4311', keySalt: '0123456789abcdef0123456789abcdef', keyDigest: 'd'.repeat(64) };
const header: JournalHeader = { kind: 'email-import-journal', version: 3, input: { name: 'people.csv', ...identity }, options, service, createdAt: '2024-01-01T00:00:00.000Z' };
/** The key of the MACs, as journal-mac.ts journalMacKey() would derive it. */
const macKey = Buffer.alloc(32, 7);
const JournalWriter = { create: (path: string, h: JournalHeader, earlier?: Iterable<BatchRecord>) => Writer.create(path, h, macKey, earlier) };
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
    const loaded = await load(path);
    expect(loaded.header).toEqual(header);
    expect([...loaded.batches.keys()]).toEqual([1, 0, 3]);
    expect(loaded.batches.get(0)!.failures).toEqual([[3, '206', 'Address in the unsubscribed list; not added.']]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('drops a line torn by a crash, and the resumed journal is written again without it before appending', async () => {
    const dir = tempDir();
    const path = join(dir, 'j');
    const writer = await JournalWriter.create(path, header);
    writer.record(batch(0));
    await writer.close();
    appendFileSync(path, '{"batch":1,"rows":10');
    const loaded = await load(path);
    expect([...loaded.batches.keys()]).toEqual([0]);
    const again = await JournalWriter.create(path, loaded.header, loaded.batches.values());
    again.record(batch(2));
    await again.close();
    expect([...(await load(path)).batches.keys()]).toEqual([0, 2]);
    expect(readFileSync(path, 'utf8').split('\n').every((line) => line === '' || JSON.parse(line))).toBe(true);
    expect(readdirSync(dir)).toEqual(['j']);
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

  it('names --date-only when one run has it and the other not, and a journal without it fits a run without it', () => {
    expect(journalMismatch(header, identity, { ...options, dateOnly: true })).toEqual(['--date-only was not given, now true']);
    expect(journalMismatch({ ...header, options: { ...options, dateOnly: true } }, identity, options)).toEqual(['--date-only was true, now not given']);
  });

  it('groups appends that arrive during a sync into the next one', async () => {
    const path = join(tempDir(), 'j');
    const writer = await JournalWriter.create(path, header);
    for (let i = 0; i < 200; i++) writer.record(batch(i));
    await writer.flush();
    writer.record(batch(200));
    await writer.close();
    expect((await load(path)).batches.size).toBe(201);
  });
});

/** A journal that records batches (not undefined, not 'empty'). */
async function load(path: string) {
  const loaded = await loadJournal(path);
  if (loaded === undefined || loaded === 'empty') throw new Error(`no batches in ${path}`);
  return loaded;
}

/** Journal lines, each sealed with the next MAC of the chain, as the writer seals them. */
const lines = (...values: unknown[]) => {
  const chain = new MacChain(macKey);
  return values.map((v) => `${JSON.stringify({ ...(v as object), mac: chain.next(v) })}\n`).join('');
};

describe('a journal read back is checked', () => {
  it('a header alone, or with a torn line only, records nothing acknowledged, whatever its version', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a'), lines(header));
    writeFileSync(join(dir, 'b'), `${lines({ ...header, version: 1, options: {} })}{"batch":0,`);
    expect(await loadJournal(join(dir, 'a'))).toBe('empty');
    expect(await loadJournal(join(dir, 'b'))).toBe('empty');
  });

  it('refuses, naming the line and the field, what this version does not write', async () => {
    const dir = tempDir();
    const cases: [unknown[], RegExp][] = [
      [[{ ...header, version: 1 }, batch(0)], /was written by another version of this tool \(journal version 1\)/],
      [[{ ...header, service: undefined }, batch(0)], /is damaged: line 1: service/],
      [[header, { ...batch(0), failures: 7 }], /is damaged: line 2: failures: expected an array, got 7/],
      [[header, { ...batch(0), service: null }], /is damaged: line 2: service/],
      [[header, { ...batch(0), batch: 1.5 }], /is damaged: line 2: batch: expected a whole number/],
      [[header, { ...batch(0), new: -1, existing: 1001 }], /is damaged: line 2: new: expected a whole number, 0 or more/],
      [[header, batch(0), batch(1), batch(0)], /is damaged: line 4: batch 1 is recorded twice/],
      [[header, { ...batch(0), new: 1000, failed: 1, failures: [[3, '1', 'x']] }], /line 2: batch 1: new \+ existing \+ failed is 1001, not its 1000 rows/],
      [[header, { ...batch(0), new: 999, failed: 1 }], /line 2: batch 1: 1 rows failed, but 0 failures are listed/],
      [[header, batch(0, [[3, '1', 'x'], [3, '1', 'x']])], /batch 1: failure position 3 is listed twice/],
      [[header, batch(0, [[1000, '1', 'x']])], /batch 1: failure position 1000 is not a row of the batch/],
      [[header, { ...batch(0), rows: 1001, new: 1001 }], /batch 1 has 1001 rows; --batch-size is 1000/],
    ];
    for (const [content, message] of cases) {
      writeFileSync(join(dir, 'j'), lines(...content));
      await expect(loadJournal(join(dir, 'j')), message.source).rejects.toThrow(message);
    }
    writeFileSync(join(dir, 'j'), `${lines(header)}not json\n${lines(batch(0))}`);
    await expect(loadJournal(join(dir, 'j'))).rejects.toThrow(/is damaged: line 2 is not JSON/);
  });

  it('refuses batches the file cannot have produced: beyond its rows, or short but not the last', () => {
    const map = (...records: BatchRecord[]) => new Map(records.map((r) => [r.batch, r]));
    expect(journalDoesNotFit(map(batch(0), batch(4)), 1000, 5000)).toBeUndefined();
    expect(journalDoesNotFit(map(batch(0), batch(5)), 1000, 5000)).toBe('it records batch 6, but the file holds at most 5 batches of 1000 rows');
    expect(journalDoesNotFit(map(batch(0), batch(1)), 1000, 1500)).toBe('its batches hold 2000 rows, but the file holds at most 1500');
    expect(journalDoesNotFit(map({ ...batch(0), rows: 10, new: 10, service: [10, 0, 10] }, batch(1)), 1000, 5000)).toBe('batch 1 has 10 rows, but only the last batch can have fewer than 1000');
    expect(journalDoesNotFit(map(batch(0), { ...batch(1), rows: 10, new: 10 }), 1000, 5000)).toBeUndefined();
  });

  it('reads neither through a symbolic link nor from anything but a regular file (a FIFO would hang)', async () => {
    const dir = tempDir();
    const victim = join(dir, 'victim');
    writeFileSync(victim, lines(header, batch(0)));
    symlinkSync(victim, join(dir, 'link'));
    await expect(loadJournal(join(dir, 'link'))).rejects.toThrow(/the journal \S+link is a symbolic link/);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    await expect(loadJournal(join(dir, 'fifo'))).rejects.toThrow(/is a FIFO/);
    await expect(loadJournal(dir)).rejects.toThrow(JournalError);
  });
});

describe('a journal is never written through a planted link', () => {
  it('the predictable temporary name of old, and the journal path itself: the files they point to are not written', async () => {
    const dir = tempDir();
    const outside = tempDir();
    const path = join(dir, 'people.csv.11111111.import-journal');
    // "Another user's file": any file we make, 0600, outside the folder.
    const victim = join(outside, 'victim');
    writeFileSync(victim, 'precious\n', { mode: 0o600 });
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    const writer = await JournalWriter.create(path, header);
    writer.record(batch(0));
    await writer.close();
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect((await load(path)).batches.size).toBe(1);

    // A link at the journal's own path is refused, not replaced or followed.
    const linked = join(dir, 'other.import-journal');
    symlinkSync(victim, linked);
    await expect(JournalWriter.create(linked, header)).rejects.toThrow(/is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp') && name !== `people.csv.11111111.import-journal.${process.pid}.tmp`)).toEqual([]);
  });
});

describe('the service a journal belongs to', () => {
  const client = (baseUrl: string, key: string) => ({
    baseUrl: new URL(baseUrl),
    keyDigest: async (salt: string) => (await import('node:crypto')).createHmac('sha256', salt).update(key).digest('hex'),
  });

  it('normalises the base URL: scheme and host in lower case, no default port, no credentials, no trailing slash', () => {
    expect(serviceUrl('HTTP://Example.COM:80/')).toBe('http://example.com');
    expect(serviceUrl('https://user:pw@api.example.com:443/v3.3//')).toBe('https://api.example.com/v3.3');
    expect(serviceUrl('http://127.0.0.1:4311')).toBe('http://127.0.0.1:4311');
  });

  it('records a salted digest of the key, never the key, and names what differs', async () => {
    const recorded = await journalService(client('http://127.0.0.1:4311/', 'secret-key-1234'));
    expect(JSON.stringify(recorded)).not.toContain('secret-key-1234');
    expect(recorded.baseUrl).toBe('http://127.0.0.1:4311');
    expect(await serviceMismatch('j', recorded, client('http://127.0.0.1:4311', 'secret-key-1234'))).toBeUndefined();
    expect(await serviceMismatch('j', recorded, client('HTTP://127.0.0.1:4311//', 'secret-key-1234'))).toBeUndefined();
    expect(await serviceMismatch('j', recorded, client('http://127.0.0.1:4312', 'secret-key-1234'))).toBe('the journal j was written for http://127.0.0.1:4311; this run talks to http://127.0.0.1:4312');
    expect(await serviceMismatch('j', recorded, client('http://127.0.0.1:4311', 'other-key-5678'))).toBe('the journal j was written with another API key');
    // Another journal of the same key: another salt, another digest.
    expect((await journalService(client('http://127.0.0.1:4311', 'secret-key-1234'))).keyDigest).not.toBe(recorded.keyDigest);
    expect(existsSync('j')).toBe(false);
  });
});
