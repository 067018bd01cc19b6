// What a batch's answer means (src/import/send.ts): the journal record of an
// acknowledged batch, the errors that stop the whole import, the codes a
// failed batch's rows get, and the stop after failures in a row.
import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, NetworkError, RedirectError, TimeoutError, UsageError } from '../../src/core/errors.js';
import { fingerprint } from '../../src/import/address-set.js';
import { Batch } from '../../src/import/batches.js';
import { JournalError } from '../../src/import/journal.js';
import { batchRecord, errorCode, FailureStreak, stopsEverything } from '../../src/import/send.js';

const api = (status: number, code?: number) => new ApiError({ status, code, message: 'm', method: 'POST', path: '/p' });

function batchOf(addresses: string[], index = 3): Batch {
  const batch = new Batch(index, addresses.length);
  const fp = new Uint32Array(2);
  addresses.forEach((address, i) => {
    fingerprint(address, fp, 0);
    batch.add({ EmailAddress: address, Name: '', CustomFields: [], ConsentToTrack: 'Yes' }, [], 10 + i, fp, 0);
  });
  return batch;
}
const redactor = { redact: (text: string) => text.replaceAll('sk_secret', '***') };

describe('batchRecord', () => {
  it('counts the rows the service did not refuse as new up to its TotalNewSubscribers, the rest as existing', () => {
    const batch = batchOf(['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']);
    batch.retries = 2;
    const { record, emails, unmatched } = batchRecord(batch, { TotalUniqueEmailsSubmitted: '4', TotalExistingSubscribers: 1, TotalNewSubscribers: 3 }, redactor);
    expect(record).toEqual({ batch: 3, rows: 4, new: 3, existing: 1, failed: 0, retries: 2, service: [4, 1, 3], failures: [] });
    expect(emails).toEqual([]);
    expect(unmatched).toBe(0);
  });

  it("matches FailureDetails to the rows' positions, redacting their messages; a failure naming no row is counted apart", () => {
    const batch = batchOf(['a@example.com', 'b@example.com', 'c@example.com']);
    const result = {
      TotalNewSubscribers: 5,
      FailureDetails: [
        { EmailAddress: 'c@example.com', Code: 1, Message: 'bad, key sk_secret' },
        { EmailAddress: 'nobody@example.com', Code: 1, Message: 'x' },
        { EmailAddress: 'a@example.com', Code: null, Message: null },
      ],
    };
    const { record, emails, unmatched } = batchRecord(batch, result, redactor);
    expect(record.failures).toEqual([
      [2, '1', 'bad, key ***'],
      [0, '', ''],
    ]);
    expect(emails).toEqual(['c@example.com', 'a@example.com']);
    expect(unmatched).toBe(1);
    // New is capped by the rows accepted, so the counts add up to the rows.
    expect(record).toMatchObject({ rows: 3, new: 1, existing: 0, failed: 2 });
  });
});

describe('stopsEverything', () => {
  it('stops for errors every batch would meet: auth, a redirect, a missing list, 209/212/214/215, the journal', () => {
    for (const error of [new AuthError({ status: 401, message: 'm', method: 'POST', path: '/p' }), new RedirectError({ status: 301, message: 'm', method: 'POST', path: '/p' }, undefined), api(404), api(400, 209), api(400, 212), api(400, 214), api(400, 215), new JournalError('disk full')]) {
      expect(stopsEverything(error), error.constructor.name).toBe(true);
    }
  });

  it('lets other batches go on after a batch-specific or transient failure', () => {
    for (const error of [api(400, 1), api(500), api(429), new NetworkError('reset', 'POST', '/p'), new TimeoutError('POST', '/p', 1000), new UsageError('x'), new Error('x')]) {
      expect(stopsEverything(error), String(error)).toBe(false);
    }
  });
});

describe('errorCode', () => {
  it("is the service's code, else http-<status>, timeout, network or error", () => {
    expect([api(400, 210), api(503), new TimeoutError('POST', '/p', 1), new NetworkError('x', 'POST', '/p'), new Error('x')].map(errorCode)).toEqual(['210', 'http-503', 'timeout', 'network', 'error']);
  });
});

describe('FailureStreak', () => {
  it('stops the import at the fifth transport failure in a row, naming the last', () => {
    const streak = new FailureStreak();
    for (let i = 0; i < 4; i++) expect(streak.failed(api(503), 'HTTP 503')).toBeUndefined();
    const stop = streak.failed(new NetworkError('reset', 'POST', '/p'), 'connection reset');
    expect(stop).toBeInstanceOf(NetworkError);
    expect(stop?.message).toBe('stopped: 5 batches in a row failed after their retries (last: connection reset)');
    expect((stop as Error).cause).toBeInstanceOf(NetworkError);
  });

  it('starts again after an acknowledged batch or a failure that is not the transport', () => {
    const streak = new FailureStreak();
    for (let i = 0; i < 4; i++) streak.failed(api(429), 'x');
    streak.acknowledged();
    for (let i = 0; i < 4; i++) expect(streak.failed(api(500), 'x')).toBeUndefined();
    expect(streak.failed(api(400, 1), 'x')).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(streak.failed(api(500), 'x')).toBeUndefined();
    expect(streak.failed(api(500), 'x')).toBeDefined();
  });
});
