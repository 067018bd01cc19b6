// `--group` of the segments commands (CLI.md "segments"): rules joined by " OR ", each a
// RuleType, a space and a Clause; repeated groups are ANDed (service-spec.md "Segment").
import { nearNames } from '../core/edit-distance.js';
import { UsageError } from '../core/errors.js';

export interface Rule {
  RuleType: string;
  Clause: string;
}

export interface RuleGroup {
  Rules: Rule[];
}

const RULES_UNPARSABLE = 277;

const OR = ' OR ';

/** A bracketed field key may hold spaces; a rule without a Clause is refused here rather than by the service. */
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
  // Split only on " OR ": a value may hold " or ". One that reads like a second rule is said, and sent as typed.
  const joined = /\s([oO][rR])\s+(\[[^\]]+\]|[A-Za-z]\w*\s+[A-Z]{2,}\b)/.exec(Clause);
  if (joined && joined[1] !== 'OR') {
    warn?.(`${where}: "${rule}" holds "${joined[1]}" before what reads as a rule; sent as one clause; rules are joined by " OR " in capitals`);
  }
  return { RuleType, Clause };
}

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

const SEGMENT_KEYS = ['Title', 'RuleGroups'];
const GROUP_KEYS = ['Rules'];
const RULE_KEYS = ['RuleType', 'Clause'];
/** Fields the service assigns, as `segments get --json` prints them. */
const READ_ONLY_KEYS = ['ActiveSubscribers', 'ListID', 'SegmentID'];

/**
 * Strict: an unknown key would be ignored by the service (a misspelt "RuleGroup" makes a
 * segment that holds everybody), so it is refused with the nearest known one.
 */
export function segmentBodyFromFile(doc: unknown, kind: 'segment' | 'group', warn: (line: string) => void): Record<string, unknown> {
  const example = kind === 'segment' ? '{"Title": "…", "RuleGroups": [{"Rules": [{"RuleType": "…", "Clause": "…"}]}]}' : '{"Rules": [{"RuleType": "…", "Clause": "…"}]}';
  if (!isObject(doc)) throw new UsageError(`--from-file must hold one JSON object: ${example}`);
  const dropped = Object.keys(doc).filter((k) => READ_ONLY_KEYS.includes(k)).sort();
  if (dropped.length) warn(`--from-file: left out ${dropped.join(', ')} (read-only: the service assigns them)`);
  const body = Object.fromEntries(Object.entries(doc).filter(([k]) => !READ_ONLY_KEYS.includes(k)));
  if (kind === 'segment') {
    refuseUnknownKeys(body, SEGMENT_KEYS, '');
    checkRuleGroupsShape(body.RuleGroups, '--from-file');
  } else {
    refuseUnknownKeys(body, GROUP_KEYS, '');
    checkRuleGroupsShape([body], '--from-file', '');
  }
  return body;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function refuseUnknownKeys(doc: Record<string, unknown>, known: readonly string[], where: string): void {
  const unknown = Object.keys(doc).find((k) => !known.includes(k));
  if (unknown === undefined) return;
  const near = nearNames(unknown, known);
  throw new UsageError(`--from-file: ${where ? `${where}: ` : ''}unknown key "${unknown}"${near.length ? ` (did you mean "${near[0]}"?)` : ''}; the keys are ${known.join(', ')}`);
}

/** `path` names the groups in messages (empty for add-rules' one group). */
export function checkRuleGroupsShape(value: unknown, source: string, path = 'RuleGroups'): void {
  if (value === undefined || value === null) return;
  const fail = (what: string): never => {
    throw new UsageError(`${source}: ${path || 'the group'} ${what}; expected ${path ? '[{"Rules": [{"RuleType": "…", "Clause": "…"}]}]' : '{"Rules": [{"RuleType": "…", "Clause": "…"}]}'}`, RULES_UNPARSABLE);
  };
  if (!Array.isArray(value)) fail('is not an array');
  (value as unknown[]).forEach((group, g) => {
    const at = path ? `${path}[${g}]` : '';
    if (isObject(group)) refuseUnknownKeys(group, GROUP_KEYS, at);
    const rules = isObject(group) ? group.Rules : undefined;
    if (!Array.isArray(rules) || rules.length === 0) fail(`${path ? `[${g}] ` : ''}has no Rules array`);
    (rules as unknown[]).forEach((rule, r) => {
      if (isObject(rule)) refuseUnknownKeys(rule, RULE_KEYS, `${at ? `${at}.` : ''}Rules[${r}]`);
      const { RuleType, Clause } = (isObject(rule) ? rule : {}) as { RuleType?: unknown; Clause?: unknown };
      if (typeof RuleType !== 'string' || RuleType.trim() === '' || typeof Clause !== 'string' || Clause.trim() === '') {
        fail(`${path ? `[${g}].` : ''}Rules[${r}] needs a non-empty RuleType and Clause`);
      }
    });
  });
}
