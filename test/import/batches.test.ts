// The request body a batch builds piece by piece into one Buffer must be
// exactly the JSON of the import request (service-spec.md "Import request"),
// whatever the number of entries and however far the text is from ASCII.
import { describe, expect, it } from 'vitest';
import { Batch } from '../../src/import/batches.js';
import type { ImportEntry } from '../../src/import/rows.js';

const flags = { Resubscribe: true, QueueSubscriptionBasedAutoResponders: false, RestartSubscriptionBasedAutoresponders: false };
const fingerprints = new Uint32Array(2);

function entry(i: number, name = `Person ${i}`): ImportEntry {
  return { EmailAddress: `p${i}@example.com`, Name: name, CustomFields: [{ Key: 'Company', Value: `Co "${i % 7}"\n` }], ConsentToTrack: 'Yes' };
}

function bodyOf(capacity: number, entries: ImportEntry[]): Buffer {
  const batch = new Batch(0, capacity);
  entries.forEach((e, i) => batch.add(e, [], i + 2, fingerprints, 0));
  return batch.body(flags);
}

const expected = (entries: ImportEntry[]) => JSON.stringify({ Subscribers: entries, ...flags });

describe('Batch.body', () => {
  it('is the JSON of the request for 1, 199, 200, 201, 999 and 1000 entries', () => {
    for (const n of [1, 199, 200, 201, 999, 1000]) {
      const entries = Array.from({ length: n }, (_, i) => entry(i));
      expect(bodyOf(1000, entries).toString('utf8'), `${n} entries`).toBe(expected(entries));
    }
  });

  it('grows when later entries are longer or further from ASCII than the first ones', () => {
    const entries = Array.from({ length: 1000 }, (_, i) => (i < 200 ? entry(i) : entry(i, `${'Zoë 😀 東京 '.repeat(20)}${i}`)));
    const body = bodyOf(1000, entries);
    expect(body.toString('utf8')).toBe(expected(entries));
    expect(body.length).toBe(Buffer.byteLength(expected(entries)));
  });

  it('an empty batch has an empty list of subscribers', () => {
    expect(JSON.parse(bodyOf(10, []).toString('utf8'))).toEqual({ Subscribers: [], ...flags });
  });
});
