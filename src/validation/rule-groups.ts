// `--group` of the segments commands (CLI.md "segments"): one rule group is
// rules joined by " OR ", each rule being the RuleType, a space, then the
// Clause; repeated --group flags are ANDed. The result is the RuleGroups shape
// of service-spec.md "Segment": [{Rules: [{RuleType, Clause}]}].
import { UsageError } from '../core/errors.js';

export interface Rule {
  RuleType: string;
  Clause: string;
}

export interface RuleGroup {
  Rules: Rule[];
}

/** service-spec.md "Coded errors by area" → Segments: rules could not be parsed. */
const RULES_UNPARSABLE = 277;

const OR = ' OR ';

/**
 * Parses one --group value. A RuleType written as a custom field key in
 * brackets may hold spaces (`[Favourite colour] EQUALS Blue`); any other
 * RuleType is the first word. Every rule needs a Clause (a verb at least,
 * service-spec.md "Segment" rule 3), so a rule of one word is refused here
 * rather than by the service with 277.
 */
export function parseRuleGroup(text: string, flag = '--group', warn?: (line: string) => void): RuleGroup {
  if (text.trim() === '') throw new UsageError(`${flag} is empty: give rules like "EmailAddress CONTAINS @example.com"`, RULES_UNPARSABLE);
  const rules = text.split(OR).map((raw, index) => parseRule(raw, index, text, flag, warn));
  return { Rules: rules };
}

export function parseRuleGroups(texts: readonly string[] | undefined, flag = '--group', warn?: (line: string) => void): RuleGroup[] {
  return (texts ?? []).map((t) => parseRuleGroup(t, flag, warn));
}

function parseRule(raw: string, index: number, group: string, flag: string, warn?: (line: string) => void): Rule {
  const rule = raw.trim();
  const where = `${flag} "${group}", rule ${index + 1}`;
  if (rule === '') throw new UsageError(`${where} is empty (rules are joined by " OR ")`, RULES_UNPARSABLE);
  let typeEnd: number;
  if (rule.startsWith('[')) {
    const close = rule.indexOf(']');
    if (close < 0) throw new UsageError(`${where}: "${rule}" opens a [field key] without closing it`, RULES_UNPARSABLE);
    typeEnd = close + 1;
  } else {
    const space = rule.search(/\s/);
    typeEnd = space < 0 ? rule.length : space;
  }
  const RuleType = rule.slice(0, typeEnd);
  const Clause = rule.slice(typeEnd).trim();
  if (Clause === '') {
    throw new UsageError(`${where}: "${rule}" has no clause; write the RuleType, a space, then the clause, e.g. "EmailAddress CONTAINS @example.com"`, RULES_UNPARSABLE);
  }
  // Split only on " OR " (CLI.md "segments"): a value may hold " or " ("Black or White Ltd"). One that
  // reads like a second rule (a RuleType and a verb, or a [field key]) is said, and sent as typed.
  const joined = /\s([oO][rR])\s+(\[[^\]]+\]|[A-Za-z]\w*\s+[A-Z]{2,}\b)/.exec(Clause);
  if (joined && joined[1] !== 'OR') {
    warn?.(`${where}: "${rule}" holds "${joined[1]}" before what reads as a rule; sent as one clause; rules are joined by " OR " in capitals`);
  }
  return { RuleType, Clause };
}

/** One group as a line for people: rules joined by " OR " (the inverse of parseRuleGroup). */
export function describeRuleGroup(group: unknown): string {
  const rules = group && typeof group === 'object' ? (group as { Rules?: unknown }).Rules : undefined;
  if (!Array.isArray(rules)) return JSON.stringify(group ?? null);
  return rules
    .map((r) => {
      const rule = (r ?? {}) as { RuleType?: unknown; Clause?: unknown };
      return [rule.RuleType, rule.Clause].filter((p) => p !== undefined && p !== null && p !== '').map(String).join(' ');
    })
    .join(OR);
}

/**
 * Checks the RuleGroups of a body read with --from-file against the shape of
 * service-spec.md "Segment", so a malformed file is refused before sending.
 */
export function checkRuleGroupsShape(value: unknown, source: string): void {
  if (value === undefined || value === null) return;
  const fail = (what: string): never => {
    throw new UsageError(`${source}: RuleGroups ${what}; expected [{"Rules": [{"RuleType": "…", "Clause": "…"}]}]`, RULES_UNPARSABLE);
  };
  if (!Array.isArray(value)) fail('is not an array');
  (value as unknown[]).forEach((group, g) => {
    const rules = group && typeof group === 'object' && !Array.isArray(group) ? (group as { Rules?: unknown }).Rules : undefined;
    if (!Array.isArray(rules) || rules.length === 0) fail(`[${g}] has no Rules array`);
    (rules as unknown[]).forEach((rule, r) => {
      const { RuleType, Clause } = (rule && typeof rule === 'object' ? rule : {}) as { RuleType?: unknown; Clause?: unknown };
      if (typeof RuleType !== 'string' || RuleType.trim() === '' || typeof Clause !== 'string' || Clause.trim() === '') {
        fail(`[${g}].Rules[${r}] needs a non-empty RuleType and Clause`);
      }
    });
  });
}
