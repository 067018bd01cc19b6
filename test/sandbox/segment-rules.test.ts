// Pure tests of segment rule parsing and membership (service-spec.md "Segment").
import { describe, expect, it } from 'vitest';
import { matchesRuleGroups, parseRuleDate, parseRuleGroup, parseRuleGroups, type ParsedRuleGroup } from '../../src/sandbox/segment-rules.js';
import type { CustomFieldDefinition, Subscriber } from '../../src/sandbox/types.js';

const FIELDS: CustomFieldDefinition[] = [
  { FieldName: 'Plan', Key: '[Plan]', DataType: 'MultiSelectOne', FieldOptions: ['Free', 'Pro'], VisibleInPreferenceCenter: true },
  { FieldName: 'Interests', Key: '[Interests]', DataType: 'MultiSelectMany', FieldOptions: ['News', 'Events'], VisibleInPreferenceCenter: true },
  { FieldName: 'Age', Key: '[Age]', DataType: 'Number', FieldOptions: [], VisibleInPreferenceCenter: true },
  { FieldName: 'Birthday', Key: '[Birthday]', DataType: 'Date', FieldOptions: [], VisibleInPreferenceCenter: true },
];

function person(email: string, dateAdded: string, fields: Record<string, string[]> = {}): Subscriber {
  return { EmailAddress: email, Name: 'P', State: 'Active', CustomFields: fields, ConsentToTrack: 'Yes', DateAdded: dateAdded, DateStateChanged: dateAdded, History: [] };
}

function groups(input: unknown): ParsedRuleGroup[] {
  const result = parseRuleGroups(input, FIELDS);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.groups;
}

describe('parseRuleGroups', () => {
  it('accepts the spec rule types and verbs and keeps the rules as given', () => {
    const result = parseRuleGroups(
      [
        { Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com' }, { RuleType: 'EmailAddress', Clause: 'EQUALS x@b.com' }] },
        { Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 2024/01/01' }, { RuleType: 'Date', Clause: 'BEFORE 2024-02-01' }] },
      ],
      FIELDS,
    );
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.definitions[0].Rules[0]).toEqual({ RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com' });
  });

  it('lists every unparsable rule with its position and the reason', () => {
    const result = parseRuleGroups(
      [
        { Rules: [{ RuleType: 'EmailAddress', Clause: 'STARTSWITH a' }, { RuleType: 'Nope', Clause: 'EQUALS 1' }] },
        { Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 01/02/2024' }] },
        { Rules: [] },
      ],
      FIELDS,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.map((p) => [p.RuleGroupIndex, p.RuleIndex])).toEqual([
        [0, 0],
        [0, 1],
        [1, 0],
        [2, null],
      ]);
      expect(result.problems[0].Problem).toMatch(/verb/);
      expect(result.problems[2].Problem).toMatch(/yyyy\/mm\/dd/);
    }
  });

  it.each([
    ['lower-case verb', { RuleType: 'EmailAddress', Clause: 'contains @a.com' }],
    ['missing operand', { RuleType: 'EmailAddress', Clause: 'CONTAINS' }],
    ['date verb on an address', { RuleType: 'EmailAddress', Clause: 'AFTER 2024/01/01' }],
    ['CONTAINS on a date', { RuleType: 'DateSubscribed', Clause: 'CONTAINS 2024' }],
    ['impossible date', { RuleType: 'DateSubscribed', Clause: 'AFTER 2024/02/30' }],
    ['unknown custom field', { RuleType: '[Shoe]', Clause: 'EQUALS 42' }],
    ['non-number for a Number field', { RuleType: '[Age]', Clause: 'EQUALS old' }],
    ['missing Clause', { RuleType: 'EmailAddress' }],
  ])('refuses a rule with %s', (_name, rule) => {
    expect(parseRuleGroup({ Rules: [rule] }, FIELDS).ok).toBe(false);
  });

  it('refuses RuleGroups that is not an array', () => {
    expect(parseRuleGroups({ Rules: [] }, FIELDS).ok).toBe(false);
  });

  it('reads year-first dates with either separator, not mixed', () => {
    expect(parseRuleDate('2024/03/09')).toBe('2024-03-09');
    expect(parseRuleDate('2024-03-09')).toBe('2024-03-09');
    expect(parseRuleDate('2024/03-09')).toBeUndefined();
    expect(parseRuleDate('09/03/2024')).toBeUndefined();
  });
});

describe('membership', () => {
  const a = person('one@a.com', '2024-01-10T12:00:00Z', { '[Plan]': ['Pro'], '[Interests]': ['News', 'Events'], '[Age]': ['36'], '[Birthday]': ['1990-05-17'] });
  const b = person('two@b.com', '2024-03-01T12:00:00Z', { '[Plan]': ['Free'] });
  const c = person('three@c.com', '2024-01-05T00:00:00Z');

  it('joins rules within a group by OR', () => {
    const g = groups([{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com' }, { RuleType: 'EmailAddress', Clause: 'CONTAINS @b.com' }] }]);
    expect([a, b, c].map((s) => matchesRuleGroups(s, g))).toEqual([true, true, false]);
  });

  it('joins groups by AND', () => {
    const g = groups([
      { Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com' }, { RuleType: 'EmailAddress', Clause: 'CONTAINS @b.com' }] },
      { Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 2024/02/01' }] },
    ]);
    expect([a, b, c].map((s) => matchesRuleGroups(s, g))).toEqual([false, true, false]);
  });

  it('compares subscription days with strict BEFORE/AFTER and day-wide EQUALS', () => {
    expect(matchesRuleGroups(a, groups([{ Rules: [{ RuleType: 'DateSubscribed', Clause: 'EQUALS 2024/01/10' }] }]))).toBe(true);
    expect(matchesRuleGroups(a, groups([{ Rules: [{ RuleType: 'DateSubscribed', Clause: 'AFTER 2024/01/10' }] }]))).toBe(false);
    expect(matchesRuleGroups(a, groups([{ Rules: [{ RuleType: 'Date', Clause: 'BEFORE 2024/01/11' }] }]))).toBe(true);
  });

  it('matches custom fields: any value of a multi-valued field, numbers by value, dates by day', () => {
    expect(matchesRuleGroups(a, groups([{ Rules: [{ RuleType: '[Interests]', Clause: 'EQUALS events' }] }]))).toBe(true);
    expect(matchesRuleGroups(b, groups([{ Rules: [{ RuleType: '[Interests]', Clause: 'EQUALS events' }] }]))).toBe(false);
    expect(matchesRuleGroups(a, groups([{ Rules: [{ RuleType: '[Age]', Clause: 'EQUALS 36.0' }] }]))).toBe(true);
    expect(matchesRuleGroups(a, groups([{ Rules: [{ RuleType: '[Birthday]', Clause: 'BEFORE 2000/01/01' }] }]))).toBe(true);
  });

  it('makes every subscriber a member of a segment without rules', () => {
    expect([a, b, c].every((s) => matchesRuleGroups(s, []))).toBe(true);
  });

  // Issue 13.20: the real twin's recorded segment answers hold {"RuleType":"Name","Clause":"PROVIDED"}.
  describe('beyond the verbs the spec shows: Name, PROVIDED and NOT_PROVIDED', () => {
    const named = { ...person('ada@a.com', '2024-01-10T12:00:00Z', { '[Plan]': ['Pro'] }), Name: 'Ada Lovelace' };
    const unnamed = { ...person('anon@a.com', '2024-01-10T12:00:00Z'), Name: '' };
    const blankPlan = { ...person('blank@a.com', '2024-01-10T12:00:00Z', { '[Plan]': [''] }), Name: '  ' };
    const one = (RuleType: string, Clause: string) => groups([{ Rules: [{ RuleType, Clause }] }]);

    it('Name EQUALS and CONTAINS, without regard to case', () => {
      expect([named, unnamed].map((s) => matchesRuleGroups(s, one('Name', 'EQUALS ada lovelace')))).toEqual([true, false]);
      expect([named, unnamed].map((s) => matchesRuleGroups(s, one('Name', 'CONTAINS LOVE')))).toEqual([true, false]);
    });

    it('Name PROVIDED and NOT_PROVIDED: a name of spaces is not provided', () => {
      expect([named, unnamed, blankPlan].map((s) => matchesRuleGroups(s, one('Name', 'PROVIDED')))).toEqual([true, false, false]);
      expect([named, unnamed, blankPlan].map((s) => matchesRuleGroups(s, one('Name', 'NOT_PROVIDED')))).toEqual([false, true, true]);
    });

    it('a custom field PROVIDED when it holds a non-empty value, NOT_PROVIDED otherwise', () => {
      expect([named, unnamed, blankPlan].map((s) => matchesRuleGroups(s, one('[Plan]', 'PROVIDED')))).toEqual([true, false, false]);
      expect([named, unnamed, blankPlan].map((s) => matchesRuleGroups(s, one('[Plan]', 'NOT_PROVIDED')))).toEqual([false, true, true]);
    });

    it('an address and the subscription date are always provided', () => {
      expect(matchesRuleGroups(unnamed, one('EmailAddress', 'PROVIDED'))).toBe(true);
      expect(matchesRuleGroups(unnamed, one('DateSubscribed', 'NOT_PROVIDED'))).toBe(false);
    });

    it('keeps the clause as given, and refuses an operand after PROVIDED and a date verb on Name', () => {
      const result = parseRuleGroups([{ Rules: [{ RuleType: 'Name', Clause: 'PROVIDED' }] }], FIELDS);
      expect(result.ok && result.definitions[0]!.Rules[0]).toEqual({ RuleType: 'Name', Clause: 'PROVIDED' });
      expect(parseRuleGroup({ Rules: [{ RuleType: 'Name', Clause: 'PROVIDED yes' }] }, FIELDS).ok).toBe(false);
      expect(parseRuleGroup({ Rules: [{ RuleType: 'Name', Clause: 'AFTER 2024/01/01' }] }, FIELDS).ok).toBe(false);
      expect(parseRuleGroup({ Rules: [{ RuleType: 'Name', Clause: 'provided' }] }, FIELDS).ok).toBe(false);
    });
  });
});
