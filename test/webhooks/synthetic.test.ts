// Synthetic events for `webhooks trigger`: the fields of service-spec.md
// "Events" table per type, deterministic for a given end time.
import { describe, expect, it } from 'vitest';
import { MANUAL_SIGNUP_MARKER, serviceDateTime, syntheticEvents } from '../../src/webhooks/synthetic.js';

describe('syntheticEvents', () => {
  const end = new Date('2025-03-04T05:06:07Z');
  const fieldsOf = (type: 'Subscribe' | 'Update' | 'Deactivate') => [...syntheticEvents({ type, count: 3, end })].map((e) => Object.keys(e));

  it('carry exactly the fields of the Events table for each type', () => {
    for (const keys of fieldsOf('Subscribe')) expect(keys).toEqual(['Type', 'Date', 'EmailAddress', 'Name', 'CustomFields', 'SignupIPAddress']);
    for (const keys of fieldsOf('Update')) expect(keys).toEqual(['Type', 'Date', 'OldEmailAddress', 'EmailAddress', 'Name', 'State', 'CustomFields']);
    for (const keys of fieldsOf('Deactivate')) expect(keys).toEqual(['Type', 'Date', 'EmailAddress', 'Name', 'State', 'CustomFields']);
  });

  it('date events YYYY-MM-DD HH:MM:SS, the last at the end time, with distinct addresses', () => {
    const events = [...syntheticEvents({ type: 'Subscribe', count: 5000, end })];
    for (const e of events) expect(e.Date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(events.at(-1)!.Date).toBe('2025-03-04 05:06:07');
    expect(new Set(events.map((e) => e.EmailAddress)).size).toBe(5000);
  });

  it('include the manual-entry marker among SignupIPAddress values, and MultiSelectMany keys repeated', () => {
    const events = [...syntheticEvents({ type: 'Subscribe', count: 8, end })];
    expect(events.map((e) => e.SignupIPAddress)).toContain(MANUAL_SIGNUP_MARKER);
    expect(events[0]!.CustomFields!.filter((f) => f.Key === '[Interests]')).toHaveLength(2);
  });

  it('are the same events for the same flags', () => {
    const once = [...syntheticEvents({ type: 'Update', count: 300, end })];
    expect([...syntheticEvents({ type: 'Update', count: 300, end })]).toEqual(once);
  });

  it('keep addresses distinct past every pairing of first and last names', () => {
    const events = [...syntheticEvents({ type: 'Deactivate', count: 600, end })];
    expect(new Set(events.map((e) => e.EmailAddress)).size).toBe(600);
    expect(new Set(events.map((e) => e.State))).toEqual(new Set(['Unsubscribed', 'Bounced', 'Deleted']));
  });

  it('use reserved documentation domains and addresses only', () => {
    for (const e of syntheticEvents({ type: 'Subscribe', count: 64, end })) {
      expect(e.EmailAddress).toMatch(/@example\.(com|org|net)$/);
      expect(e.SignupIPAddress).toMatch(/^(203\.0\.113\.|198\.51\.100\.|2001:db8::|Manually Entered$)/);
    }
  });
});

describe('serviceDateTime', () => {
  it('writes YYYY-MM-DD HH:MM:SS in UTC, zero-padded', () => {
    expect(serviceDateTime(new Date('2025-01-02T03:04:05.999Z'))).toBe('2025-01-02 03:04:05');
    expect(serviceDateTime(new Date('2025-12-31T23:59:59+02:00'))).toBe('2025-12-31 21:59:59');
  });
});
