// The service's date-time form (service-spec.md "Events"), in the sandbox's client time zone, UTC.
import { describe, expect, it } from 'vitest';
import { serviceDateTime } from '../../src/sandbox/dates.js';

describe('serviceDateTime', () => {
  it('writes YYYY-MM-DD HH:MM:SS in UTC from a Date or an ISO string', () => {
    expect(serviceDateTime(new Date('2024-02-29T23:05:09.999Z'))).toBe('2024-02-29 23:05:09');
    expect(serviceDateTime('2024-03-01T01:02:03+02:00')).toBe('2024-02-29 23:02:03');
  });
});
