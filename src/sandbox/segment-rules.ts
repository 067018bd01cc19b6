// Segment rules: parsing RuleGroups and deciding membership (service-spec.md "Segment", code 277).
// Beyond the spec's RuleTypes and verbs, custom field Keys and what the real service's recorded
// answers show (Name, PROVIDED, NOT_PROVIDED) are taken; the table is in docs/sandbox-campaigns.md
// "Segment rules". Anything else is a 277 whose ResultData lists each problem.
import { isCalendarDay } from './custom-field-values.js';
import type { CustomFieldDefinition, Subscriber, SubscriberList } from './types.js';
import type { RuleGroupDefinition } from './types-campaigns.js';

type RuleVerb = 'CONTAINS' | 'EQUALS' | 'BEFORE' | 'AFTER';
const VERBS: readonly RuleVerb[] = ['CONTAINS', 'EQUALS', 'BEFORE', 'AFTER'];
/** Verbs without an operand: whether the RuleType's value is there. */
const PRESENCE_VERBS = ['PROVIDED', 'NOT_PROVIDED'] as const;

type ParsedRule =
  | { kind: 'email'; verb: 'EQUALS' | 'CONTAINS'; text: string }
  | { kind: 'name'; verb: 'EQUALS' | 'CONTAINS'; text: string }
  | { kind: 'presence'; of: 'always' | 'name' | { key: string }; provided: boolean }
  | { kind: 'dateSubscribed'; verb: 'EQUALS' | 'BEFORE' | 'AFTER'; day: string }
  | { kind: 'fieldText'; key: string; verb: 'EQUALS' | 'CONTAINS'; text: string }
  | { kind: 'fieldNumber'; key: string; verb: 'EQUALS'; value: number }
  | { kind: 'fieldDate'; key: string; verb: 'EQUALS' | 'BEFORE' | 'AFTER'; day: string };

/** A group is satisfied when any of its rules is (rule 1); a subscriber must satisfy every group (rule 2). */
export type ParsedRuleGroup = ParsedRule[];

/** One entry of the ResultData of a 277. Indexes are 0-based positions in the request. */
interface RuleProblem {
  RuleGroupIndex: number;
  /** null when the problem is with the group itself. */
  RuleIndex: number | null;
  RuleType?: unknown;
  Clause?: unknown;
  Problem: string;
}

export type RuleParseResult =
  | { ok: true; groups: ParsedRuleGroup[]; definitions: RuleGroupDefinition[] }
  | { ok: false; problems: RuleProblem[] };

const DATE_VERBS: readonly ('EQUALS' | 'BEFORE' | 'AFTER')[] = ['EQUALS', 'BEFORE', 'AFTER'];
const TEXT_VERBS: readonly ('EQUALS' | 'CONTAINS')[] = ['EQUALS', 'CONTAINS'];

/**
 * Parses the RuleGroups of a create or update request. `fields` are the
 * custom fields of the segment's list (for `[Key]` rule types).
 */
export function parseRuleGroups(input: unknown, fields: readonly CustomFieldDefinition[]): RuleParseResult {
  if (!Array.isArray(input)) {
    return { ok: false, problems: [{ RuleGroupIndex: 0, RuleIndex: null, Problem: 'RuleGroups must be an array of {Rules: [...]} objects.' }] };
  }
  const groups: ParsedRuleGroup[] = [];
  const definitions: RuleGroupDefinition[] = [];
  const problems: RuleProblem[] = [];
  input.forEach((group, groupIndex) => {
    const parsed = parseGroupAt(group, groupIndex, fields);
    if (parsed.ok) {
      groups.push(parsed.group);
      definitions.push(parsed.definition);
    } else problems.push(...parsed.problems);
  });
  return problems.length ? { ok: false, problems } : { ok: true, groups, definitions };
}

/** Parses the body of "add rule group": one {Rules: [...]} object. */
export function parseRuleGroup(input: unknown, fields: readonly CustomFieldDefinition[]): RuleParseResult {
  const parsed = parseGroupAt(input, 0, fields);
  return parsed.ok ? { ok: true, groups: [parsed.group], definitions: [parsed.definition] } : parsed;
}

function parseGroupAt(
  group: unknown,
  groupIndex: number,
  fields: readonly CustomFieldDefinition[],
): { ok: true; group: ParsedRuleGroup; definition: RuleGroupDefinition } | { ok: false; problems: RuleProblem[] } {
  const rules = typeof group === 'object' && group !== null && !Array.isArray(group) ? (group as { Rules?: unknown }).Rules : undefined;
  if (!Array.isArray(rules)) {
    return { ok: false, problems: [{ RuleGroupIndex: groupIndex, RuleIndex: null, Problem: 'A rule group must be an object with a Rules array.' }] };
  }
  if (rules.length === 0) {
    return { ok: false, problems: [{ RuleGroupIndex: groupIndex, RuleIndex: null, Problem: 'A rule group needs at least one rule.' }] };
  }
  const parsed: ParsedRule[] = [];
  const definition: RuleGroupDefinition = { Rules: [] };
  const problems: RuleProblem[] = [];
  rules.forEach((rule, ruleIndex) => {
    const result = parseRule(rule, fields);
    if (typeof result === 'string') {
      const { RuleType, Clause } = typeof rule === 'object' && rule !== null ? (rule as Record<string, unknown>) : ({} as Record<string, unknown>);
      problems.push({ RuleGroupIndex: groupIndex, RuleIndex: ruleIndex, RuleType, Clause, Problem: result });
    } else {
      parsed.push(result.rule);
      definition.Rules.push(result.definition);
    }
  });
  return problems.length ? { ok: false, problems } : { ok: true, group: parsed, definition };
}

/** The parsed rule, or a sentence saying why it cannot be parsed. */
export function parseRule(
  rule: unknown,
  fields: readonly CustomFieldDefinition[],
): { rule: ParsedRule; definition: { RuleType: string; Clause: string } } | string {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return 'A rule must be an object with RuleType and Clause.';
  const { RuleType, Clause } = rule as Record<string, unknown>;
  if (typeof RuleType !== 'string' || RuleType.trim() === '') return 'RuleType is required.';
  if (typeof Clause !== 'string' || Clause.trim() === '') return 'Clause is required.';
  const ruleType = RuleType.trim();
  const clause = Clause.trim();
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(clause)!;
  const verbWord = match[1];
  const operand = (match[2] ?? '').trim();
  if ((PRESENCE_VERBS as readonly string[]).includes(verbWord)) return parsePresence(ruleType, verbWord === 'PROVIDED', operand, fields);
  if (!(VERBS as readonly string[]).includes(verbWord)) {
    const known = [...VERBS, ...PRESENCE_VERBS] as readonly string[];
    const hint = known.includes(verbWord.toUpperCase()) ? ` (verbs are written in capitals: ${verbWord.toUpperCase()})` : '';
    return `Unknown verb "${verbWord}"${hint}; verbs are ${known.join(', ')}.`;
  }
  const verb = verbWord as RuleVerb;
  if (operand === '') return `The verb ${verb} needs an operand.`;
  const definition = { RuleType: ruleType, Clause: `${verb} ${operand}` };

  if (ruleType === 'EmailAddress') {
    if (!isOneOf(verb, TEXT_VERBS)) return verbProblem(ruleType, verb, TEXT_VERBS);
    return { rule: { kind: 'email', verb, text: operand.toLowerCase() }, definition };
  }
  if (ruleType === 'Name') {
    if (!isOneOf(verb, TEXT_VERBS)) return verbProblem(ruleType, verb, TEXT_VERBS);
    return { rule: { kind: 'name', verb, text: operand.toLowerCase() }, definition };
  }
  if (ruleType === 'DateSubscribed' || ruleType === 'Date') {
    if (!isOneOf(verb, DATE_VERBS)) return verbProblem(ruleType, verb, DATE_VERBS);
    const day = parseRuleDate(operand);
    if (!day) return dateProblem(operand);
    return { rule: { kind: 'dateSubscribed', verb, day }, definition };
  }
  if (ruleType.startsWith('[') && ruleType.endsWith(']')) {
    const field = fields.find((f) => f.Key.toLowerCase() === ruleType.toLowerCase());
    if (!field) return `The list has no custom field with the Key ${ruleType}.`;
    switch (field.DataType) {
      case 'Number': {
        if (verb !== 'EQUALS') return verbProblem(ruleType, verb, ['EQUALS']);
        const value = Number(operand);
        if (!Number.isFinite(value)) return `"${operand}" is not a number.`;
        return { rule: { kind: 'fieldNumber', key: field.Key, verb, value }, definition };
      }
      case 'Date': {
        if (!isOneOf(verb, DATE_VERBS)) return verbProblem(ruleType, verb, DATE_VERBS);
        const day = parseRuleDate(operand);
        if (!day) return dateProblem(operand);
        return { rule: { kind: 'fieldDate', key: field.Key, verb, day }, definition };
      }
      default:
        if (!isOneOf(verb, TEXT_VERBS)) return verbProblem(ruleType, verb, TEXT_VERBS);
        return { rule: { kind: 'fieldText', key: field.Key, verb, text: operand.toLowerCase() }, definition };
    }
  }
  return unknownRuleType(ruleType);
}

function unknownRuleType(ruleType: string): string {
  return `Unknown RuleType "${ruleType}"; the sandbox knows EmailAddress, Name, Date, DateSubscribed and the list's custom field Keys ([Key]).`;
}

/** `PROVIDED` / `NOT_PROVIDED`: no operand; whether the RuleType's value is there. */
function parsePresence(
  ruleType: string,
  provided: boolean,
  operand: string,
  fields: readonly CustomFieldDefinition[],
): { rule: ParsedRule; definition: { RuleType: string; Clause: string } } | string {
  const verb = provided ? 'PROVIDED' : 'NOT_PROVIDED';
  if (operand !== '') return `The verb ${verb} takes no operand; got "${operand}".`;
  const definition = { RuleType: ruleType, Clause: verb };
  if (ruleType === 'EmailAddress' || ruleType === 'DateSubscribed' || ruleType === 'Date') return { rule: { kind: 'presence', of: 'always', provided }, definition };
  if (ruleType === 'Name') return { rule: { kind: 'presence', of: 'name', provided }, definition };
  if (ruleType.startsWith('[') && ruleType.endsWith(']')) {
    const field = fields.find((f) => f.Key.toLowerCase() === ruleType.toLowerCase());
    if (!field) return `The list has no custom field with the Key ${ruleType}.`;
    return { rule: { kind: 'presence', of: { key: field.Key }, provided }, definition };
  }
  return unknownRuleType(ruleType);
}

function isOneOf<T extends RuleVerb>(verb: RuleVerb, allowed: readonly T[]): verb is T {
  return (allowed as readonly RuleVerb[]).includes(verb);
}

function verbProblem(ruleType: string, verb: RuleVerb, allowed: readonly RuleVerb[]): string {
  return `The verb ${verb} does not apply to ${ruleType}; use ${allowed.join(' or ')}.`;
}

function dateProblem(operand: string): string {
  // service-spec.md "Custom field value" rule 3: year-first dates only.
  return `"${operand}" is not a date in the year-first form yyyy/mm/dd (or yyyy-mm-dd).`;
}

/** yyyy/mm/dd or yyyy-mm-dd (one separator throughout), a real calendar day → YYYY-MM-DD; else undefined. */
export function parseRuleDate(text: string): string | undefined {
  const m = /^(\d{4})([/-])(\d{2})\2(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[3]), Number(m[4])];
  if (!isCalendarDay(year, month, day)) return undefined;
  return `${m[1]}-${m[3]}-${m[4]}`;
}

// ---- membership -----------------------------------------------------------------

/** The UTC calendar day of an ISO instant (the sandbox's client time zone is UTC). */
function dayOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

function compareDay(value: string, verb: 'EQUALS' | 'BEFORE' | 'AFTER', day: string): boolean {
  if (verb === 'EQUALS') return value === day;
  return verb === 'BEFORE' ? value < day : value > day;
}

function ruleMatches(subscriber: Subscriber, rule: ParsedRule): boolean {
  switch (rule.kind) {
    case 'email': {
      const email = subscriber.EmailAddress.toLowerCase();
      return rule.verb === 'EQUALS' ? email === rule.text : email.includes(rule.text);
    }
    case 'name': {
      const name = subscriber.Name.toLowerCase();
      return rule.verb === 'EQUALS' ? name === rule.text : name.includes(rule.text);
    }
    case 'presence': {
      const there =
        rule.of === 'always' ? true : rule.of === 'name' ? subscriber.Name.trim() !== '' : (subscriber.CustomFields[rule.of.key] ?? []).some((v) => v.trim() !== '');
      return there === rule.provided;
    }
    case 'dateSubscribed':
      return compareDay(dayOf(subscriber.DateAdded), rule.verb, rule.day);
    case 'fieldText':
      return (subscriber.CustomFields[rule.key] ?? []).some((v) => {
        const value = v.toLowerCase();
        return rule.verb === 'EQUALS' ? value === rule.text : value.includes(rule.text);
      });
    case 'fieldNumber':
      return (subscriber.CustomFields[rule.key] ?? []).some((v) => v.trim() !== '' && Number(v) === rule.value);
    case 'fieldDate':
      return (subscriber.CustomFields[rule.key] ?? []).some((v) => {
        const day = parseRuleDate(v);
        return day !== undefined && compareDay(day, rule.verb, rule.day);
      });
  }
}

/** Rules within a group are ORed (rule 1); groups are ANDed (rule 2). No groups: every subscriber. */
export function matchesRuleGroups(subscriber: Subscriber, groups: readonly ParsedRuleGroup[]): boolean {
  return groups.every((group) => group.some((rule) => ruleMatches(subscriber, rule)));
}

/**
 * Re-parses stored rule groups (they were valid when stored; a custom field
 * deleted since would make a rule unparsable, and such a rule then matches
 * nobody rather than failing a read).
 */
export function compileStoredRuleGroups(definitions: readonly RuleGroupDefinition[], fields: readonly CustomFieldDefinition[]): ParsedRuleGroup[] {
  return definitions.map((group) =>
    group.Rules.map((rule) => {
      const parsed = parseRule(rule, fields);
      return typeof parsed === 'string' ? NEVER : parsed.rule;
    }),
  );
}

/** A rule nobody satisfies (an impossible email match). */
const NEVER: ParsedRule = { kind: 'email', verb: 'EQUALS', text: '\u0000' };

/**
 * Engagement of a subscriber, for the system engagement segments: engaged
 * when the subscriber's history holds an Open or a Click. The spec does not
 * define engagement; this is the sandbox's reading of it, computed from data
 * the sandbox has (a time window would empty the segment of a seed dated in
 * the past).
 */
export function isEngaged(subscriber: Subscriber): boolean {
  return subscriber.History.some((entry) => entry.Actions.some((action) => action.Event === 'Open' || action.Event === 'Click'));
}

/** Active subscribers of `list` that satisfy `groups` (service-spec.md "Segment": ActiveSubscribers). */
export function activeMembers(list: SubscriberList, groups: readonly ParsedRuleGroup[]): Subscriber[] {
  const members: Subscriber[] = [];
  for (const subscriber of Object.values(list.Subscribers)) {
    if (subscriber.State === 'Active' && matchesRuleGroups(subscriber, groups)) members.push(subscriber);
  }
  return members;
}
