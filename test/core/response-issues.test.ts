// Why an answer did not fit its schema, in words a user can act on
// (CLI.md "lenient reading"): the path, what was expected, what came.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeIssue } from '../../src/core/response-issues.js';

function words(schema: z.ZodMiniType, data: unknown): string {
  const parsed = schema.safeParse(data);
  if (parsed.success) throw new Error('the data fits');
  return describeIssue(parsed.error.issues[0], data);
}

describe('describeIssue', () => {
  it('says the answer has not the expected shape when there is no issue to describe', () => {
    expect(describeIssue(undefined, {})).toBe('the answer does not have the expected shape');
  });

  it('writes paths as Results[3].Date and leaves the path out when the whole answer is wrong', () => {
    const page = z.object({ Results: z.array(z.object({ Date: z.string() })) });
    expect(words(page, { Results: [{ Date: 'a' }, { Date: 'b' }, { Date: 'c' }, { Date: 17 }] })).toBe('Results[3].Date: expected a string, got 17');
    expect(words(z.array(z.object({ CampaignID: z.string() })), [{}])).toBe('[0].CampaignID: expected a string, got nothing (the field is missing)');
    expect(words(page, null)).toBe('expected an object, got null');
    expect(words(page, undefined)).toBe('expected an object, got an empty answer');
  });

  it("names zod's types in words: an array, an object, true or false, an integer", () => {
    expect(words(z.object({ A: z.array(z.string()) }), { A: 'x' })).toBe('A: expected an array, got "x"');
    expect(words(z.object({ A: z.record(z.string(), z.string()) }), { A: [] })).toBe('A: expected an object, got an empty array');
    expect(words(z.object({ A: z.boolean() }), { A: 'yes' })).toBe('A: expected true or false, got "yes"');
    expect(words(z.object({ A: z.int() }), { A: 1.5 })).toBe('A: expected an integer, got 1.5');
    expect(words(z.object({ A: z.number() }), { A: '1' })).toBe('A: expected a number, got "1"');
  });

  it('keeps a schema block\'s own words, and says what a too-small value needed', () => {
    expect(words(z.object({ A: z.string({ error: 'expected a date-time' }) }), { A: 1 })).toBe('A: expected a date-time, got 1');
    expect(words(z.object({ A: z.string().check(z.minLength(1)) }), { A: '' })).toBe('A: expected a non-empty value, got an empty string');
    expect(words(z.object({ A: z.array(z.string()).check(z.minLength(2)) }), { A: ['x'] })).toBe('A: expected at least 2, got an array of 1');
  });

  it('of a union, describes the alternative that went furthest, or lists the kinds it wanted', () => {
    const envelope = z.union([z.array(z.string()), z.object({ Results: z.array(z.object({ ID: z.string() })) })]);
    expect(words(envelope, { Results: [{ ID: 'a' }, { ID: 'b' }, {}] })).toBe('Results[2].ID: expected a string, got nothing (the field is missing)');
    expect(words(z.object({ A: z.union([z.string(), z.number()]) }), { A: true })).toBe('A: expected a string or a number, got true');
  });

  it('shows a value in one short line: long strings cut, objects by their first keys, never a whole body', () => {
    const long = 'x'.repeat(100);
    expect(words(z.object({ A: z.number() }), { A: long })).toBe(`A: expected a number, got "${'x'.repeat(60)}…"`);
    expect(words(z.object({ A: z.number() }), { A: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 } })).toBe('A: expected a number, got an object with keys a, b, c, d, e, f, …');
    expect(words(z.object({ A: z.number() }), { A: { a: 1 } })).toBe('A: expected a number, got an object with keys a');
    expect(words(z.object({ A: z.number() }), { A: {} })).toBe('A: expected a number, got an empty object');
  });
});
