// The import pipeline against the sandbox over loopback HTTP: batching,
// per-row outcomes, duplicates, faults in the middle, stops, the journal and
// resuming. Every test checks that the counts add up to the data rows.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthError, UsageError } from '../../src/core/errors.js';
import { ApiClient } from '../../src/core/http.js';
import { runImport, type ImportHooks, type ImportOptions } from '../../src/import/importer.js';
import { openInput } from '../../src/import/input.js';
import { SEED_LIST_IDS, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { expectCountsAddUp, importRequests, listAddresses, peopleCsv, tempDir, writeFile } from '../helpers/import-files.js';
import { serve } from '../helpers/scripted-server.js';

const LIST = SEED_LIST_IDS.newsletter;

let sandbox: RunningSandbox;
let client: ApiClient;
let dir: string;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, onInternalError: (e) => console.error(e) });
  client = new ApiClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: { baseDelayMs: 1 } });
  dir = tempDir();
});
afterEach(async () => {
  await client.close();
  await sandbox.stop();
});

async function importFile(content: string | Buffer, options: Partial<Omit<ImportOptions, 'input'>> = {}, hooks: ImportHooks = {}) {
  // Written only when it changes: a resumed import must meet the same file (size, mtime, head).
  const path = join(dir, 'people.csv');
  if (!existsSync(path) || !readFileSync(path).equals(Buffer.from(content))) writeFile(dir, 'people.csv', content);
  const input = await openInput(path, dir, Readable.from([]), undefined);
  const outcome = await runImport(
    {
      input,
      listId: LIST,
      map: [],
      flags: { Resubscribe: false, QueueSubscriptionBasedAutoResponders: false, RestartSubscriptionBasedAutoresponders: false },
      batchSize: 1000,
      concurrency: 2,
      dryRun: false,
      resume: false,
      timeoutMs: 10_000,
      journalPath: join(dir, 'people.journal'),
      // Rows without a name are these tests' shorthand; the refusal of them is test/e2e/import-rows.test.ts's.
      allowEmptyNames: true,
      ...options,
    },
    { client, ...hooks },
  );
  expectCountsAddUp(outcome.summary);
  return outcome;
}

const failuresOf = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));

describe('batching', () => {
  it('sends 2,500 rows as batches of 1000, 1000 and 500, each row once, with the request booleans', async () => {
    const { summary } = await importFile(peopleCsv(2500), { flags: { Resubscribe: true, QueueSubscriptionBasedAutoResponders: false, RestartSubscriptionBasedAutoresponders: true } });
    const sent = importRequests(sandbox);
    expect(sent.map((s) => s.body.Subscribers.length).sort()).toEqual([1000, 1000, 500]);
    expect(new Set(sent.flatMap((s) => s.body.Subscribers.map((e) => e.EmailAddress))).size).toBe(2500);
    expect(sent[0]!.body).toMatchObject({ Resubscribe: true, QueueSubscriptionBasedAutoResponders: false, RestartSubscriptionBasedAutoresponders: true });
    expect(sent[0]!.body.Subscribers[0]).toEqual({
      EmailAddress: 'person0@example.com',
      Name: 'Person 0',
      CustomFields: [{ Key: 'Company', Value: 'Company 0' }],
      ConsentToTrack: 'Yes',
    });
    expect(summary).toMatchObject({ rows: 2500, new: 2500, existing: 0, failed: 0, rejected: 0, duplicates: 0, batches: 3, complete: true });
    expect(summary.service).toEqual({ TotalUniqueEmailsSubmitted: 2500, TotalExistingSubscribers: 0, TotalNewSubscribers: 2500 });
    expect(listAddresses(sandbox, LIST).has('person2499@example.com')).toBe(true);
  });

  it('never has more batches in flight than --concurrency', async () => {
    await sandbox.stop();
    sandbox = await startSandbox({ port: 0, latencyMs: 30 });
    client = new ApiClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: { baseDelayMs: 1 } });
    let most = 0;
    const { summary } = await importFile(peopleCsv(2000), { batchSize: 100, concurrency: 3 }, { onProgress: (p) => (most = Math.max(most, p.inFlight)) });
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(1);
    expect(summary.batches).toBe(20);
  });

  it('deletes the journal once every batch is acknowledged', async () => {
    await importFile(peopleCsv(10));
    expect(existsSync(join(dir, 'people.journal'))).toBe(false);
  });
});

describe('outcomes of rows', () => {
  it('reports rows the service refused (210) with their code, imports the others, and counts new and existing from the service totals', async () => {
    const csv = [
      'email,name,Consent',
      'ada@example.com,Ada,yes', // existing
      'fresh@example.com,Fresh,yes', // new
      'unsubscribed@example.com,Uma,yes', // 206
      'bounced@example.com,Bo,yes', // 207
      'deleted@example.com,Dee,yes', // 205
    ].join('\n');
    const failures = join(dir, 'failures.csv');
    const { summary } = await importFile(csv, { failuresPath: failures });
    expect(summary).toMatchObject({ rows: 5, new: 1, existing: 1, failed: 3, rejected: 0, duplicates: 0, unacknowledgedBatches: 0 });
    expect(summary.codes).toEqual({ 205: 1, 206: 1, 207: 1 });
    const lines = failuresOf(failures);
    expect(lines[0]).toEqual(['email', 'name', 'Consent', 'Line', 'Outcome', 'Code', 'Message']);
    expect(lines.slice(1).map((l) => [l[0], l[3], l[4], l[5]])).toEqual([
      ['unsubscribed@example.com', '4', 'failed', '206'],
      ['bounced@example.com', '5', 'failed', '207'],
      ['deleted@example.com', '6', 'failed', '205'],
    ]);
    expect(listAddresses(sandbox, LIST).has('fresh@example.com')).toBe(true);
  });

  it('writes the rows the service refused with their own cells and lines, even after quoted line breaks, in line order', async () => {
    const csv = [
      'email,Note,Consent',
      'a@example.com,"two',
      'lines",yes',
      'bounced@example.com,"b, with a comma",yes',
      'c@example.com,"three',
      '',
      'lines",yes',
      'unsubscribed@example.com,u,yes',
    ].join('\r\n');
    const failures = join(dir, 'failures.csv');
    const { summary } = await importFile(csv, { failuresPath: failures, batchSize: 2, concurrency: 2 });
    expect(summary).toMatchObject({ rows: 4, new: 2, failed: 2 });
    expect(readFileSync(failures, 'utf8').split('\r\n').slice(1, 3)).toEqual([
      'bounced@example.com,"b, with a comma",yes,4,failed,207,Address in the bounced list; not added.',
      'unsubscribed@example.com,u,yes,8,failed,206,Address in the unsubscribed list; not added.',
    ]);
  });

  it('rejects rows before sending, with the reason, the service code where it has one, and the line', async () => {
    const csv = [
      'email,name,Company,Birthday,Consent',
      'good@example.com,Good,Acme,1990-05-17,yes', // 2
      'bob@,Bob,,,yes', // 3: invalid address (1)
      ',No Address,,,yes', // 4: no address (1)
      'c@example.com,C,,,TRUE', // 5: consent as exports write it, read as Yes
      'd@example.com,D,,,', // 6: 214 (no --consent)
      `e@example.com,E,${'x'.repeat(251)},,yes`, // 7: too long
      'f@example.com,F,,05/06/2024,yes', // 8: ambiguous date
      'g@example.com,G,,,yes,surplus', // 9: a field more than the header
      'h@example.com,H,,,yes,', // 10: an empty surplus cell is harmless
      ',,,,', // 11: blank, not a row
    ].join('\n');
    const failures = join(dir, 'failures.csv');
    // --strict: a value that cannot be sent refuses its row (without it, the row is sent without the value: partial).
    const { summary } = await importFile(csv, { failuresPath: failures, strict: true });
    expect(summary).toMatchObject({ rows: 9, new: 3, rejected: 6, failed: 0, blankLines: 1 });
    expect(summary.codes).toEqual({ 1: 2, 214: 1, 'too-long': 1, 'ambiguous-date': 1, 'extra-fields': 1 });
    const rows = failuresOf(failures).slice(1);
    expect(rows.map((r) => r[5])).toEqual(['3', '4', '6', '7', '8', '9']);
    const sent = importRequests(sandbox).flatMap((s) => s.body.Subscribers);
    expect(sent.map((e) => e.EmailAddress)).toEqual(['good@example.com', 'c@example.com', 'h@example.com']);
    expect(sent[0]).toMatchObject({ CustomFields: [{ Key: 'Company', Value: 'Acme' }, { Key: 'Birthday', Value: '1990/05/17' }] });
  });

  it('--consent fills rows without consent; a consent cell still wins', async () => {
    const csv = 'email,Consent\na@example.com,\nb@example.com,no\n';
    const { summary } = await importFile(csv, { consent: 'Unchanged' });
    expect(summary).toMatchObject({ rows: 2, new: 2 });
    expect(importRequests(sandbox)[0]!.body.Subscribers.map((e) => (e as { ConsentToTrack?: string }).ConsentToTrack)).toEqual(['Unchanged', 'No']);
  });

  it('sends the first of duplicate addresses (case and spaces ignored) across batch boundaries, and reports the later ones', async () => {
    const lines = ['email,name'];
    for (let i = 0; i < 25; i++) lines.push(`p${i}@example.com,P${i}`);
    lines.push(' P3@EXAMPLE.com ,again', 'p12@example.com,again', 'p24@Example.com,again');
    for (let i = 25; i < 30; i++) lines.push(`p${i}@example.com,P${i}`);
    const failures = join(dir, 'failures.csv');
    const { summary } = await importFile(lines.join('\n'), { batchSize: 10, consent: 'Yes', failuresPath: failures });
    expect(summary).toMatchObject({ rows: 33, new: 30, duplicates: 3, batches: 3 });
    const sent = importRequests(sandbox).flatMap((s) => s.body.Subscribers.map((e) => e.EmailAddress.toLowerCase()));
    expect(sent).toHaveLength(30);
    expect(new Set(sent).size).toBe(30);
    expect(failuresOf(failures).slice(1).map((r) => [r[0], r[2], r[3]])).toEqual([
      [' P3@EXAMPLE.com ', '27', 'duplicate'],
      ['p12@example.com', '28', 'duplicate'],
      ['p24@Example.com', '29', 'duplicate'],
    ]);
  });
});

describe('columns that become custom fields because nothing maps them (issue 17.7)', () => {
  it('are named once, before the first batch is sent', async () => {
    const notices: { message: string; sentBefore: number }[] = [];
    const csv = ['email,Consent,LEID,EUID', ...Array.from({ length: 30 }, (_, i) => `p${i}@example.com,yes,${i},e${i}`)].join('\n');
    await importFile(csv, { batchSize: 10 }, { onNotice: (message) => notices.push({ message, sentBefore: importRequests(sandbox).length }) });
    expect(notices).toEqual([
      { message: expect.stringMatching(/^2 columns are sent as custom fields because nothing maps them: LEID, EUID; the service ignores a key the list does not define/), sentBefore: 0 },
      { message: expect.stringMatching(/has no name column: every row \(up to 30\) is sent with an empty Name/), sentBefore: 0 },
    ]);
    expect(importRequests(sandbox)).toHaveLength(3);
  });
});

describe('date-times in custom-field columns', () => {
  it('each column is named once, before the batch that first carries one; the columns of the first rows in one line', async () => {
    const notices: { message: string; sentBefore: number }[] = [];
    const row = (i: number) => `p${i}@example.com,P ${i},yes,2018-02-12 10:54:27,2018-08-27T15:06:27.713Z,${i >= 400 ? '2020-01-01 08:00 UTC' : ''}`;
    const csv = ['email,name,Consent,Birthday,Created,Last Seen', ...Array.from({ length: 600 }, (_, i) => row(i))].join('\n');
    const { summary } = await importFile(csv, { batchSize: 100, concurrency: 1, map: ['Birthday=Birthday', 'Created=Created', 'Last Seen=LastSeen'] }, {
      onNotice: (message) => notices.push({ message, sentBefore: importRequests(sandbox).length }),
    });
    expect(summary).toMatchObject({ rows: 600, new: 600 });
    const said = notices.filter((n) => /date-time/.test(n.message));
    expect(said).toEqual([
      { message: expect.stringMatching(/^columns hold date-times: Birthday \("2018-02-12 10:54:27"\), Created \("2018-08-27T15:06:27\.713Z"\); .*--date-only/), sentBefore: 0 },
      { message: expect.stringMatching(/^a column holds date-times: LastSeen \("2020-01-01 08:00 UTC"\)/), sentBefore: expect.any(Number) },
    ]);
    // Line 402 (the 401st row) is in the fifth batch: not sent before the line.
    expect(said[1]!.sentBefore).toBeLessThan(5);
  });
});

describe('rows sent with an empty Name (CLI.md "Names")', () => {
  it('the first is said once, before the batch that carries it is sent, and the summary counts them all', async () => {
    const notices: { message: string; sentBefore: number }[] = [];
    const csv = ['email,name,Consent', ...Array.from({ length: 30 }, (_, i) => `p${i}@example.com,${i === 23 || i === 27 ? '' : `P ${i}`},yes`)].join('\n');
    const { summary } = await importFile(csv, { batchSize: 10, concurrency: 1 }, { onNotice: (message) => notices.push({ message, sentBefore: importRequests(sandbox).length }) });
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toMatch(/^line 25 of \S+ has an empty name cell \(name\): rows like it are sent with an empty Name/);
    // Row 23 is in the third batch: not sent before the line.
    expect(notices[0]!.sentBefore).toBeLessThan(3);
    expect(summary).toMatchObject({ rows: 30, new: 30, emptyNames: 2 });
  });

  it('are counted before anything is sent by the header the parser reads, even a header quoted oddly', async () => {
    const csv = '"Sign"up,email,name\nx,a@example.com,A\ny,b@example.com,\nz,c@example.com, \n';
    await expect(importFile(csv, { allowEmptyNames: false, consent: 'Yes' })).rejects.toThrow(/: 2 rows have an address and an empty name cell \(name; the first at line 3\)/);
    expect(importRequests(sandbox)).toHaveLength(0);
  });
});

describe('faults in the middle', () => {
  it('waits out a 429 and retries 500s and a dropped connection: every row imported once, retries counted', async () => {
    let queued = false;
    const { summary } = await importFile(peopleCsv(5000), { concurrency: 1 }, {
      onBatchDone: () => {
        if (queued) return;
        queued = true;
        sandbox.failNext({ path: /\/import$/, status: 429, retryAfterSeconds: 0 });
        sandbox.failNext({ path: /\/import$/, status: 500, times: 2 });
        sandbox.failNext({ path: /\/import$/, drop: true });
      },
    });
    expect(summary).toMatchObject({ rows: 5000, new: 5000, failed: 0, retries: 4, batches: 5 });
    const processed = importRequests(sandbox).filter((r) => r.request.status === 200);
    expect(processed.flatMap((r) => r.body.Subscribers)).toHaveLength(5000);
  });

  it('reports a batch whose retries ran out as failed with the error, goes on, and keeps the journal for --resume', async () => {
    const failures = join(dir, 'failures.csv');
    let queued = false;
    const first = await importFile(peopleCsv(3000), { concurrency: 1, failuresPath: failures }, {
      onBatchDone: () => {
        if (!queued) sandbox.failNext({ path: /\/import$/, status: 503, times: 4 });
        queued = true;
      },
    });
    expect(first.summary).toMatchObject({ rows: 3000, new: 2000, failed: 1000, unacknowledgedBatches: 1, complete: true, journal: join(dir, 'people.journal') });
    expect(first.summary.codes).toEqual({ 'http-503': 1000 });
    expect(failuresOf(failures)).toHaveLength(1001);

    const before = sandbox.requestCount();
    const second = await importFile(peopleCsv(3000), { concurrency: 1, resume: true, failuresPath: failures });
    const resent = importRequests(sandbox, before);
    expect(resent).toHaveLength(1);
    expect(resent[0]!.body.Subscribers[0]!.EmailAddress).toBe('person1000@example.com');
    expect(second.summary).toMatchObject({ rows: 3000, new: 3000, failed: 0, resumed: true, resumedBatches: 2 });
    expect(failuresOf(failures)).toHaveLength(1);
    expect(existsSync(join(dir, 'people.journal'))).toBe(false);
  });

  it('a row with a value left out is partial once its batch is acknowledged, failed when the service refuses it, and stays partial across --resume', async () => {
    const long = 'x'.repeat(300);
    const csv = (rows: string[]) => ['email,name,Consent,Notes', ...rows].join('\n') + '\n';
    const file = csv([
      `ann@example.com,Ann,yes,${long}`, // 2: batch 0, partial
      'bob@example.com,Bob,yes,ok', // 3
      `unsubscribed@example.com,Uma,yes,${long}`, // 4: batch 1, refused by the service (206): failed, not partial
      `cy@example.com,Cy,yes,${long}`, // 5: batch 1, partial
      `ann@example.com,Ann again,yes,${long}`, // 6: a duplicate, not partial
      `dee@example.com,Dee,yes,${long}`, // 7: batch 2, fails after its retries, then --resume
    ]);
    const failures = join(dir, 'failures.csv');
    let batches = 0;
    const first = await importFile(file, { batchSize: 2, concurrency: 1, failuresPath: failures }, {
      onBatchDone: () => {
        if (++batches === 2) sandbox.failNext({ path: /\/import$/, status: 503, times: 4 });
      },
    });
    expect(first.summary).toMatchObject({ rows: 6, new: 3, failed: 2, duplicates: 1, partial: 2 });
    // By line (duplicates are written as the file is read; rows whose outcome comes with their batch, at the end).
    const outcomes = () =>
      failuresOf(failures)
        .slice(1)
        .map((r) => [r[0], r[4], r[5], r[6]])
        .sort((a, b) => Number(a[1]) - Number(b[1]));
    expect(outcomes()).toEqual([
      ['ann@example.com', '2', 'partial', 'too-long'],
      ['unsubscribed@example.com', '4', 'failed', '206'],
      ['cy@example.com', '5', 'partial', 'too-long'],
      ['ann@example.com', '6', 'duplicate', 'duplicate'],
      ['dee@example.com', '7', 'failed', 'http-503'],
    ]);
    const second = await importFile(file, { batchSize: 2, concurrency: 1, resume: true, failuresPath: failures });
    expect(second.summary).toMatchObject({ rows: 6, new: 4, failed: 1, duplicates: 1, partial: 3, resumedBatches: 2 });
    // Batches 0 and 1 from the journal (their rows at hand), batch 2 sent now.
    expect(outcomes()).toEqual([
      ['ann@example.com', '2', 'partial', 'too-long'],
      ['unsubscribed@example.com', '4', 'failed', '206'],
      ['cy@example.com', '5', 'partial', 'too-long'],
      ['ann@example.com', '6', 'duplicate', 'duplicate'],
      ['dee@example.com', '7', 'partial', 'too-long'],
    ]);
  });

  it('stops at once on a 401: the error is returned, no further batch is sent, and no row is reported failed on its own', async () => {
    await client.close();
    client = new ApiClient({ baseUrl: sandbox.url, apiKey: 'wrong-key', retry: { baseDelayMs: 1 } });
    const problems: unknown[] = [];
    const { summary, error } = await importFile(peopleCsv(5000), { concurrency: 1 }, { onProblem: (p) => problems.push(p) });
    expect(error).toBeInstanceOf(AuthError);
    expect(importRequests(sandbox)).toHaveLength(1);
    expect(summary).toMatchObject({ complete: false, failed: 0, new: 0, unacknowledgedBatches: 0 });
    expect(summary.unfinished).toBeGreaterThanOrEqual(1000);
    expect(summary.codes).toEqual({});
    expect(problems).toEqual([]);
    expect(summary.stoppedBy).toMatch(/Invalid API key/);
    // Nothing was acknowledged: no journal is left to block the next run.
    expect(summary.journal).toBeUndefined();
    expect(existsSync(join(dir, 'people.journal'))).toBe(false);
  });

  it('a 401 with several batches in flight is still one error and no failed rows', async () => {
    await client.close();
    client = new ApiClient({ baseUrl: sandbox.url, apiKey: 'wrong-key', retry: { baseDelayMs: 1 } });
    const problems: unknown[] = [];
    const { summary, error } = await importFile(peopleCsv(8000), { concurrency: 4 }, { onProblem: (p) => problems.push(p) });
    expect(error).toBeInstanceOf(AuthError);
    expect(importRequests(sandbox).length).toBeLessThanOrEqual(4);
    expect(summary).toMatchObject({ complete: false, failed: 0, new: 0 });
    expect(problems).toEqual([]);
  });

  it('stops at once when the list does not exist (404)', async () => {
    const { error, summary } = await importFile(peopleCsv(3000), { concurrency: 1, listId: '99999999-9999-4999-8999-999999999999' });
    expect(error).toMatchObject({ status: 404 });
    expect(importRequests(sandbox)).toHaveLength(1);
    expect(summary.complete).toBe(false);
  });

  it('stops after five batches in a row fail after their retries, rather than failing every batch of a dead service', async () => {
    sandbox.failNext({ path: /\/import$/, status: 500, times: 1000 });
    const { error, summary } = await importFile(peopleCsv(20_000), { concurrency: 1 });
    expect(error?.message).toMatch(/5 batches in a row failed/);
    expect(summary).toMatchObject({ failed: 5000, unacknowledgedBatches: 5, complete: false });
  });
});

describe('stopping and resuming', () => {
  it('a stop (first Ctrl-C) lets batches in flight finish, journals them, and a resume sends only the rest', async () => {
    await sandbox.stop();
    sandbox = await startSandbox({ port: 0, latencyMs: 20 });
    client = new ApiClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retry: { baseDelayMs: 1 } });
    const stop = new AbortController();
    const first = await importFile(peopleCsv(5000), { batchSize: 250, concurrency: 2 }, {
      stopSignal: stop.signal,
      onBatchDone: (b) => {
        if (b.index >= 3) stop.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.summary.complete).toBe(false);
    const firstSent = importRequests(sandbox).flatMap((r) => r.body.Subscribers.map((e) => e.EmailAddress));
    expect(firstSent.length).toBe(first.summary.new);

    const before = sandbox.requestCount();
    const second = await importFile(peopleCsv(5000), { batchSize: 250, concurrency: 2, resume: true });
    const secondSent = importRequests(sandbox, before).flatMap((r) => r.body.Subscribers.map((e) => e.EmailAddress));
    // No acknowledged batch is sent twice, and nothing is lost.
    expect(secondSent.filter((e) => firstSent.includes(e))).toEqual([]);
    expect(firstSent.length + secondSent.length).toBe(5000);
    expect(second.summary).toMatchObject({ rows: 5000, new: 5000, existing: 0, complete: true, resumed: true });
  });

  it('a Ctrl-C after the last batch was acknowledged does not make a finished import interrupted: complete, no journal, not 130', async () => {
    const stop = new AbortController();
    let done = 0;
    const outcome = await importFile(peopleCsv(1000), { batchSize: 250, concurrency: 2 }, {
      stopSignal: stop.signal,
      onBatchDone: () => {
        if (++done === 4) stop.abort();
      },
    });
    expect(outcome.interrupted).toBe(false);
    expect(outcome.summary).toMatchObject({ rows: 1000, new: 1000, complete: true, unfinished: 0 });
    expect(outcome.summary.journal).toBeUndefined();
    expect(existsSync(join(dir, 'people.journal'))).toBe(false);
  });

  it('abandoning (second Ctrl-C) leaves the batches in flight without an outcome, and no journal when none was acknowledged', async () => {
    const stop = new AbortController();
    const abandon = new AbortController();
    // A service that never answers, and both Ctrl-Cs as the second batch arrives: no clock decides what was acknowledged.
    const hanging = await serve((_call, index) => {
      if (index === 1) {
        stop.abort();
        abandon.abort();
      }
      return { hang: true };
    });
    await client.close();
    client = new ApiClient({ baseUrl: hanging.url, apiKey: sandbox.apiKey, retry: { baseDelayMs: 1 } });
    const { summary } = await importFile(peopleCsv(3000), { concurrency: 2 }, { stopSignal: stop.signal, abandonSignal: abandon.signal }).finally(() => hanging.close());
    expect(hanging.calls.map((c) => c.url)).toEqual([`/email/subscribers/${LIST}/import`, `/email/subscribers/${LIST}/import`]);
    expect(summary).toMatchObject({ rows: 0, complete: false });
    expect(summary.unfinished).toBeGreaterThanOrEqual(2000);
    // No batch was acknowledged: there is nothing to resume, so no journal is left behind.
    expect(summary.journal).toBeUndefined();
    expect(existsSync(join(dir, 'people.journal'))).toBe(false);
  });

  it('refuses a journal of another file or other options, and an existing journal without --resume, before sending anything', async () => {
    sandbox.failNext({ path: /\/import$/, status: 500, times: 4 });
    await importFile(peopleCsv(1500), { concurrency: 1 });
    expect(existsSync(join(dir, 'people.journal'))).toBe(true);
    const before = sandbox.requestCount();
    await expect(importFile(peopleCsv(1500))).rejects.toThrow(/an unfinished import's journal exists/);
    await expect(importFile(peopleCsv(1500), { resume: true, batchSize: 500 })).rejects.toThrow(/--batch-size was 1000, now 500/);
    await expect(importFile(peopleCsv(1500), { resume: true, strict: true })).rejects.toThrow(/--strict is given now, not before/);
    await expect(importFile(peopleCsv(1501), { resume: true })).rejects.toThrow(UsageError);
    expect(sandbox.requestCount()).toBe(before);
  });
});

describe('an input that changes during the import', () => {
  it('is named in a warning at the end (here: its size); an unchanged one is not', async () => {
    const notices: string[] = [];
    // Company is mapped on purpose: no notice of columns that nothing maps.
    await importFile(peopleCsv(3000), { map: ['Company=Company'] }, { onNotice: (m) => notices.push(m) });
    expect(notices).toEqual([]);
    const grown = await importFile(peopleCsv(3000), { map: ['Company=Company'], journalPath: join(dir, 'grown.journal') }, {
      onNotice: (m) => notices.push(m),
      onBatchDone: (b) => {
        if (b.index === 0) appendFileSync(join(dir, 'people.csv'), 'late@example.com,Late,Co,yes\n');
      },
    });
    // Whether the parser still met the added row depends on how far it had read: either way the counts add up (importFile).
    expect([3000, 3001]).toContain(grown.summary.rows);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/people\.csv changed while it was being imported \(\d+ bytes, now \d+\): rows read after the change/);
  });
});
