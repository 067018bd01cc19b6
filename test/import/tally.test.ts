// The tally: every row gets one outcome, the counts add up to the rows read,
// the rows not imported are reported with their line, code and address, and
// the summary says what was left unfinished.
import { describe, expect, it } from 'vitest';
import { Batch } from '../../src/import/batches.js';
import type { BatchRecord } from '../../src/import/journal.js';
import { LISTED_DUPLICATE } from '../../src/import/rows.js';
import { Tally, type RowProblem } from '../../src/import/tally.js';
import { expectCountsAddUp } from '../helpers/import-files.js';

const entry = (i: number) => ({ EmailAddress: `p${i}@example.com`, Name: '', CustomFields: [], ConsentToTrack: 'Yes' as const });
const fingerprints = new Uint32Array(2);

/** A batch of the rows on these lines (records [address, name]). */
function batchOf(index: number, lines: number[], keepRows = false): Batch {
  const batch = new Batch(index, lines.length, keepRows);
  lines.forEach((line) => batch.add(entry(line), [`p${line}@example.com`, `P ${line}`], line, fingerprints, 0));
  return batch;
}

function record(batch: Batch, o: Partial<BatchRecord>): BatchRecord {
  return { batch: batch.index, rows: batch.size, new: 0, existing: 0, failed: 0, retries: 0, service: [0, 0, 0], failures: [], ...o };
}

function tally() {
  const problems: RowProblem[] = [];
  const t = new Tally({ emailColumn: 0, onProblem: (p) => void problems.push(p), gauges: () => ({ inFlight: 0, bytesRead: 0, totalBytes: 0 }) });
  const end = { dryRun: false, resumed: false, input: 'people.csv', list: 'list', delimiter: ',', encoding: 'utf8' };
  return { t, problems, summary: (complete = true) => t.summary({ ...end, complete }) };
}

describe('Tally', () => {
  it('gives every row one outcome: rejected, duplicate, new/existing/failed from an acknowledged batch, failed from a failed one', () => {
    const { t, problems, summary } = tally();
    for (let i = 0; i < 9; i++) t.rowRead();
    t.rejected(['bad@', 'Bad'], 2, '1', 'invalid email address "bad@"');
    t.duplicate(['  P3@example.com ', 'Again'], 4);
    const sent = batchOf(0, [3, 5, 6, 7]);
    t.acknowledged(sent, record(sent, { new: 2, existing: 1, failed: 1, service: [4, 1, 2], failures: [[2, '206', 'unsubscribed']] }), undefined, ['p6@example.com']);
    const lost = batchOf(1, [8, 9, 10]);
    t.failed(lost, 'http-500', 'the service failed');
    const s = summary();
    expectCountsAddUp(s);
    expect(s).toMatchObject({ rows: 9, new: 2, existing: 1, failed: 4, rejected: 1, duplicates: 1, batches: 2, unacknowledgedBatches: 1, unfinished: 0 });
    expect(s.codes).toEqual({ '1': 1, duplicate: 1, '206': 1, 'http-500': 3 });
    expect(s.service).toEqual({ TotalUniqueEmailsSubmitted: 4, TotalExistingSubscribers: 1, TotalNewSubscribers: 2 });
    expect(problems.map((p) => [p.line, p.outcome, p.code, p.email])).toEqual([
      [2, 'rejected', '1', 'bad@'],
      [4, 'duplicate', 'duplicate', 'P3@example.com'],
      [6, 'failed', '206', 'p6@example.com'],
      [8, 'failed', 'http-500', ''],
      [9, 'failed', 'http-500', ''],
      [10, 'failed', 'http-500', ''],
    ]);
  });

  it('a batch from the journal counts its outcomes, retries and refused rows (from its kept cells) as an earlier run recorded them', () => {
    const { t, problems, summary } = tally();
    for (let i = 0; i < 3; i++) t.rowRead();
    const earlier = batchOf(0, [2, 3, 4], true);
    t.resumed(earlier, record(earlier, { new: 1, existing: 1, failed: 1, retries: 2, failures: [[1, '206', 'unsubscribed']] }));
    const s = summary();
    expectCountsAddUp(s);
    expect(s).toMatchObject({ rows: 3, new: 1, existing: 1, failed: 1, retries: 2, resumedBatches: 1 });
    expect(problems).toEqual([{ line: 3, outcome: 'failed', code: '206', message: 'unsubscribed', email: 'p3@example.com' }]);
  });

  it('rows read but left without an outcome by a stop are unfinished, and the summary says why it stopped', () => {
    const { t, summary } = tally();
    for (let i = 0; i < 5; i++) t.rowRead();
    const sent = batchOf(0, [2, 3]);
    t.acknowledged(sent, record(sent, { new: 2, service: [2, 0, 2] }));
    const s = t.summary({ complete: false, dryRun: false, resumed: false, input: 'x.csv', list: 'l', delimiter: ',', encoding: 'utf8', stoppedBy: 'interrupted' });
    expect(s).toMatchObject({ rows: 2, new: 2, unfinished: 3, complete: false, stoppedBy: 'interrupted' });
    expect(summary(true)).not.toHaveProperty('stoppedBy');
  });

  it('a row a failures file lists as a duplicate (rows.ts LISTED_DUPLICATE) is a duplicate, counted apart, never a rejection (issue 17.4)', () => {
    const { t, problems, summary } = tally();
    for (let i = 0; i < 2; i++) t.rowRead();
    t.rejected(['p1@example.com', 'Later'], 2, LISTED_DUPLICATE, 'listed as a duplicate');
    t.duplicate(['P1@example.com', 'Again'], 3);
    const s = summary();
    expectCountsAddUp(s);
    expect(s).toMatchObject({ rows: 2, rejected: 0, duplicates: 2, duplicatesFromFailuresFile: 1 });
    expect(s.codes).toEqual({ duplicate: 2 });
    expect(problems.map((p) => [p.line, p.outcome, p.code])).toEqual([
      [2, 'duplicate', 'duplicate'],
      [3, 'duplicate', 'duplicate'],
    ]);
  });

  it('--dry-run: the rows of the batches that would be sent count as wouldSend, and nothing is unfinished', () => {
    const { t } = tally();
    for (let i = 0; i < 4; i++) t.rowRead();
    t.rejected(['bad@'], 2, '1', 'invalid');
    t.wouldSendBatch(batchOf(0, [3, 4, 5]));
    const s = t.summary({ complete: true, dryRun: true, resumed: false, input: 'x.csv', list: 'l', delimiter: ',', encoding: 'utf8' });
    expectCountsAddUp(s);
    expect(s).toMatchObject({ rows: 4, wouldSend: 3, rejected: 1, batches: 1, unfinished: 0, dryRun: true });
  });
});
