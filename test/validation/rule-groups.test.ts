import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { checkRuleGroupsShape, describeRuleGroup, parseRuleGroup, parseRuleGroups } from '../../src/validation/rule-groups.js';

describe('--group parsing', () => {
  it('splits rules on " OR " and each rule into its first word (RuleType) and the rest (Clause)', () => {
    expect(parseRuleGroup('EmailAddress CONTAINS @a.com OR DateSubscribed AFTER 2024/01/01')).toEqual({
      Rules: [
        { RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com' },
        { RuleType: 'DateSubscribed', Clause: 'AFTER 2024/01/01' },
      ],
    });
  });

  it('keeps the clause as typed after the first run of spaces, operands with spaces included', () => {
    expect(parseRuleGroup('  [Company]   EQUALS Analytical  Engines ').Rules).toEqual([{ RuleType: '[Company]', Clause: 'EQUALS Analytical  Engines' }]);
  });

  it('takes a bracketed field key with spaces whole as the RuleType', () => {
    expect(parseRuleGroup('[Favourite colour] EQUALS Blue').Rules).toEqual([{ RuleType: '[Favourite colour]', Clause: 'EQUALS Blue' }]);
  });

  it('does not split on "or" in lower case or OR without spaces around it', () => {
    expect(parseRuleGroup('EmailAddress CONTAINS orange.com').Rules).toHaveLength(1);
    expect(parseRuleGroup('EmailAddress CONTAINS ORACLE').Rules).toHaveLength(1);
  });

  it('makes one group per flag, in order (groups are ANDed)', () => {
    expect(parseRuleGroups(['EmailAddress CONTAINS a', 'Date AFTER 2024/01/01'])).toHaveLength(2);
    expect(parseRuleGroups(undefined)).toEqual([]);
  });

  it.each([
    ['', /--group is empty/],
    ['EmailAddress', /has no clause/],
    ['EmailAddress CONTAINS a OR ', /rule 2 is empty/],
    ['[Plan EQUALS Pro', /without closing it/],
    ['[Plan]', /has no clause/],
  ])('refuses %j with code 277', (text, message) => {
    try {
      parseRuleGroup(text);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).code).toBe(277);
      expect((err as Error).message).toMatch(message);
    }
  });

  it('describes a group back as rules joined by OR', () => {
    const text = 'EmailAddress CONTAINS @a.com OR [Favourite colour] EQUALS Blue';
    expect(describeRuleGroup(parseRuleGroup(text))).toBe(text);
    expect(describeRuleGroup({ Rules: [{ RuleType: 'X' }] })).toBe('X');
    expect(describeRuleGroup('odd')).toBe('"odd"');
  });

  it('checks the RuleGroups shape of a --from-file body', () => {
    expect(() => checkRuleGroupsShape(undefined, 'f')).not.toThrow();
    expect(() => checkRuleGroupsShape([{ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS a' }] }], 'f')).not.toThrow();
    expect(() => checkRuleGroupsShape({}, 'f')).toThrow(/is not an array/);
    expect(() => checkRuleGroupsShape([{ Rules: [] }], 'f')).toThrow(/\[0\] has no Rules array/);
    expect(() => checkRuleGroupsShape([{ Rules: [{ RuleType: 'A', Clause: '' }] }], 'f')).toThrow(/\[0\]\.Rules\[0\]/);
  });

  it('splits a group only on " OR ": a value holding " or " is one clause, sent as typed', () => {
    expect(parseRuleGroup('[Company] EQUALS Black or White Ltd')).toEqual({ Rules: [{ RuleType: '[Company]', Clause: 'EQUALS Black or White Ltd' }] });
    expect(parseRuleGroup('Name CONTAINS salt or pepper')).toEqual({ Rules: [{ RuleType: 'Name', Clause: 'CONTAINS salt or pepper' }] });
  });

  it('says when a lowercase or looks like it joins two rules, and still sends the clause as typed', () => {
    const said: string[] = [];
    const group = parseRuleGroup('EmailAddress CONTAINS @a.com or EmailAddress CONTAINS @b.com', '--group', (line) => said.push(line));
    expect(group).toEqual({ Rules: [{ RuleType: 'EmailAddress', Clause: 'CONTAINS @a.com or EmailAddress CONTAINS @b.com' }] });
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/sent as one clause; rules are joined by " OR " in capitals/);
  });
});
