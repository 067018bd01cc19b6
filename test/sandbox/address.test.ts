// The sandbox's own address check (src/sandbox/address.ts), written from
// service-spec.md apart from the tool's (src/validation/email-address.ts), so
// that a bug in either is caught by this table instead of being mirrored.
//
// The table holds only addresses where the spec is clear. The spec types
// EmailAddress, FromEmail, ReplyTo and FailureDetails.EmailAddress as
// "email" — a mailbox of RFC 5321 §4.1.2 (dot-atom local part, "@", a domain
// of LDH labels) with the lengths of §4.5.3.1 — and code 1 is "Invalid email
// address (missing or badly formed)". Cases the spec leaves open (quoted local
// parts, address literals, single-label domains, non-ASCII) are the sandbox's
// documented choices (docs/sandbox.md "Addresses") and stay out of the table.
import { describe, expect, it } from 'vitest';
import { isServiceAddress } from '../../src/sandbox/address.js';
import { isValidEmail } from '../../src/validation/email-address.js';
import { useSandbox } from '../helpers/sandbox.js';

const label63 = 'l'.repeat(63);

/** [address, accepted by the service?, why] */
const TABLE: [string, boolean, string][] = [
  ['ada@example.com', true, 'a plain mailbox'],
  ['Ada.Lovelace@Example.COM', true, 'letters of either case'],
  ['first.last@sub.domain.example.co.uk', true, 'dots between atoms; several labels'],
  ['user+tag@example.com', true, '"+" is atext (RFC 5322 §3.2.3)'],
  ["o'reilly@example.ie", true, 'an apostrophe is atext'],
  ["!#$%&'*+/=?^_`{|}~-@example.com", true, 'every atext special'],
  ['123@123.example.com', true, 'digits in the local part and in a label'],
  ['x@my-domain.example', true, 'a hyphen inside a label'],
  ['x@xn--bcher-kva.example', true, 'an IDNA A-label'],
  [`${'a'.repeat(64)}@example.com`, true, 'a local part of 64 octets (RFC 5321 §4.5.3.1.1)'],
  [`x@${label63}.example`, true, 'a label of 63 octets (RFC 1035 §2.3.4)'],
  ['', false, 'missing'],
  ['plainaddress', false, 'no "@"'],
  ['@example.com', false, 'no local part'],
  ['ada@', false, 'no domain'],
  ['ada@@example.com', false, 'two "@"'],
  ['ada@lovelace@example.com', false, 'an "@" in an unquoted local part'],
  ['ada lovelace@example.com', false, 'a space in the local part'],
  ['ada@exam ple.com', false, 'a space in the domain'],
  ['.ada@example.com', false, 'a dot-atom does not start with a dot'],
  ['ada.@example.com', false, 'a dot-atom does not end with a dot'],
  ['ada..lovelace@example.com', false, 'two dots in a row'],
  ['ada@example..com', false, 'an empty label'],
  ['ada@.example.com', false, 'a domain starting with a dot'],
  ['ada@example.com.', false, 'a domain ending with a dot'],
  ['ada@-example.com', false, 'a label starting with a hyphen (RFC 5321 Let-dig)'],
  ['ada@example-.com', false, 'a label ending with a hyphen'],
  ['ada@exa_mple.com', false, 'an underscore in a label'],
  ['ada(x)@example.com', false, 'parentheses are not atext'],
  ['Ada <ada@example.com>', false, 'a display name: a name-addr, not an address'],
  [`${'a'.repeat(65)}@example.com`, false, 'a local part over 64 octets'],
  [`x@${'l'.repeat(64)}.example`, false, 'a label over 63 octets'],
  [`${'a'.repeat(64)}@${[label63, label63, label63].join('.')}.example`, false, 'over 254 octets in all (RFC 5321 §4.5.3.1.3)'],
];

describe('the sandbox address check agrees with the spec', () => {
  it.each(TABLE)('%j → %s (%s)', (address, accepted) => {
    expect(isServiceAddress(address)).toBe(accepted);
  });

  // The same table through HTTP: the service's own verdict, code 1 or not.
  const c = useSandbox({}, 'all');

  it('answers lists-for-email with code 1 exactly for the addresses the table refuses', async () => {
    for (const [address, accepted] of TABLE) {
      const answer = await c.call('GET', `/email/clients/listsforemail?email=${encodeURIComponent(address)}`);
      if (accepted) expect(answer.status, address).toBe(200);
      else expect(answer.body, address).toEqual({ Code: 1, Message: expect.any(String) });
    }
  });
});

describe('the tool agrees with the same table', () => {
  // Run against the tool's check too: the two are written apart, and a
  // disagreement on a clear case is a bug on one side.
  it.each(TABLE)('%j → %s (%s)', (address, accepted) => {
    expect(isValidEmail(address)).toBe(accepted);
  });
});
