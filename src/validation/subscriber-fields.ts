// Subscriber checks shared by `subscribers add`, `update` and `import`, so a value is judged
// the same whichever sends it (service-spec.md "Subscriber", "Custom field value").
import { UsageError } from '../core/errors.js';
import { isRealDate, MONTHS, pad2, typedDateNotice } from './date-values.js';
import { isValidEmail } from './email-address.js';

export const CUSTOM_FIELD_VALUE_LIMIT = 250;

export const DATE_CLEAR_VALUE = '0000-00-00';

export const SubscriberCode = {
  invalidEmail: 1,
  invalidNewEmail: 211,
  consentMissing: 214,
  consentInvalid: 215,
} as const;

export type Consent = 'Yes' | 'No' | 'Unchanged';

export interface CustomFieldValue {
  Key: string;
  Value: string;
  Clear?: boolean;
}

// A strict subset of isValidEmail() that nearly every real address matches in one regex test,
// far cheaper at a million rows; the verdict is always isValidEmail()'s.
const COMMON_ADDRESS = /^[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function isAcceptableAddress(trimmed: string): boolean {
  if (trimmed.length <= 254 && COMMON_ADDRESS.test(trimmed) && trimmed.indexOf('@') <= 64) return true;
  return isValidEmail(trimmed);
}

/** Lower-cased, trimmed, runs of spaces, `_` and `-` as one space: "Opted_In", "opt-in" → "opted in", "opt in". */
export function normalizeValue(raw: string): string {
  return raw.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
}

export const TRUE_WORDS: ReadonlySet<string> = new Set(['yes', 'y', 'true', 't', '1', 'on']);
export const FALSE_WORDS: ReadonlySet<string> = new Set(['no', 'n', 'false', 'f', '0', 'off']);
const CONSENT_YES = new Set([...TRUE_WORDS, 'opted in', 'opt in', 'optin']);
const CONSENT_NO = new Set([...FALSE_WORDS, 'opted out', 'opt out', 'optout']);

export const CONSENT_VALUES = 'yes/no, true/false, 1/0, y/n, opted in/opted out (any letter case), or unchanged';

/** Undefined for an empty value (the service's 214), null for other unknown text (its 215). */
export function parseConsent(raw: string, allowUnchanged: boolean): Consent | undefined | null {
  switch (raw) {
    // The service's own spellings first, without a lower-cased copy: the common case of a big file.
    case 'Yes':
      return 'Yes';
    case 'No':
      return 'No';
    case 'Unchanged':
      return allowUnchanged ? 'Unchanged' : null;
    case '':
      return undefined;
  }
  const value = normalizeValue(raw);
  if (value === '') return undefined;
  if (CONSENT_YES.has(value)) return 'Yes';
  if (CONSENT_NO.has(value)) return 'No';
  return value === 'unchanged' && allowUnchanged ? 'Unchanged' : null;
}

interface FieldProblem {
  code: 'too-long' | 'invalid-date' | 'ambiguous-date';
  message: string;
}

/**
 * The value to send, or the problem. Field types cannot be read through the API, so anything
 * shaped like a date is one: sent year first when only one reading is a date, refused as
 * ambiguous when day- and month-first both are and differ (CLI.md "Import input").
 */
export function checkFieldValue(key: string, value: string): string | FieldProblem {
  let sent = value;
  const length = value.length;
  // Only values that start with a digit and are date-sized can be dates.
  if (length >= 8 && length <= 10 && isDigit(value.charCodeAt(0))) {
    const date = normalizeDate(key, value);
    if (typeof date !== 'string') return date;
    sent = date;
  }
  // Characters, not UTF-16 units: only a value over 250 units can be over 250 characters.
  if (sent.length > CUSTOM_FIELD_VALUE_LIMIT) {
    const characters = characterCount(sent);
    if (characters > CUSTOM_FIELD_VALUE_LIMIT) {
      return { code: 'too-long', message: `${key} is ${characters} characters long; the service's limit is ${CUSTOM_FIELD_VALUE_LIMIT}` };
    }
  }
  return sent;
}

export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function digits(text: string, at: number, min: number, max: number): [number, number] {
  let value = 0;
  let i = at;
  while (i < text.length && i - at < max && isDigit(text.charCodeAt(i))) value = value * 10 + text.charCodeAt(i++) - 48;
  return [value, i - at >= min ? i : -1];
}

function normalizeDate(key: string, value: string): string | FieldProblem {
  const [year, afterYear] = digits(value, 0, 4, 4);
  if (afterYear === 4) {
    const sep = value.charCodeAt(4);
    if (sep !== 45 && sep !== 47) return value; // - or /
    const [month, m] = digits(value, 5, 1, 2);
    if (m < 0 || value.charCodeAt(m) !== sep) return value;
    const [day, d] = digits(value, m + 1, 1, 2);
    if (d !== value.length) return value;
    if (year === 0 && month === 0 && day === 0) return DATE_CLEAR_VALUE;
    if (!isRealDate(year, month, day)) return { code: 'invalid-date', message: `${key} "${value}" is not a date (year/month/day)` };
    if (sep === 47 && value.length === 10) return value;
    return `${year.toString().padStart(4, '0')}/${pad2(month)}/${pad2(day)}`;
  }
  // dd/mm/yyyy or mm/dd/yyyy (with / . or -): read the one way that is a date, ambiguous only when both are and differ.
  const [a, i] = digits(value, 0, 1, 2);
  if (i < 0) return value;
  const sep = value.charCodeAt(i);
  if (sep !== 47 && sep !== 46 && sep !== 45) return value;
  const [b, j] = digits(value, i + 1, 1, 2);
  if (j < 0 || value.charCodeAt(j) !== sep) return value;
  const [slashedYear, k] = digits(value, j + 1, 4, 4);
  if (k !== value.length) return value;
  const dayFirst = isRealDate(slashedYear, b, a);
  const monthFirst = isRealDate(slashedYear, a, b);
  const yyyy = slashedYear.toString().padStart(4, '0');
  // Only dates are ever suggested or sent, never 1990/15/03.
  if (dayFirst && monthFirst && a !== b) {
    return {
      code: 'ambiguous-date',
      message: `${key} "${value}" is ambiguous (${a} ${MONTHS[b - 1]} or ${b} ${MONTHS[a - 1]}?); write it year first: ${yyyy}/${pad2(b)}/${pad2(a)} or ${yyyy}/${pad2(a)}/${pad2(b)}`,
    };
  }
  if (dayFirst) return `${yyyy}/${pad2(b)}/${pad2(a)}`;
  if (monthFirst) return `${yyyy}/${pad2(a)}/${pad2(b)}`;
  return { code: 'invalid-date', message: `${key} "${value}" is not a date, read as day/month/year or as month/day/year` };
}


export function consentFlag(value: string | undefined): 'Yes' | 'No' {
  if (value === undefined || value === '') {
    throw withHint(
      new UsageError('--consent yes|no is required: the service refuses a subscriber without ConsentToTrack', SubscriberCode.consentMissing),
      'ConsentToTrack has no default on add and update (docs/reference.md, "email subscribers add" and "email subscribers update"); say --consent yes or --consent no.',
    );
  }
  const consent = parseConsent(value, false);
  if (consent !== 'Yes' && consent !== 'No') {
    throw new UsageError(`--consent must be yes or no (got "${value}")`, SubscriberCode.consentInvalid);
  }
  return consent;
}

/**
 * Repeats are kept in order: they set several options of a MultiSelectMany field. Values go as
 * typed (the field's type is unknown), so a date in another form is noted once through `say`.
 */
export function fieldFlags(values: readonly string[], say?: (line: string) => void): CustomFieldValue[] {
  const items: CustomFieldValue[] = [];
  const notices: string[] = [];
  for (const raw of values) {
    const eq = raw.indexOf('=');
    const key = eq < 0 ? '' : raw.slice(0, eq).trim();
    if (eq < 0 || key === '') throw new UsageError(`--field must be Key=Value; got "${raw}"`);
    const value = raw.slice(eq + 1);
    if (value === '') {
      throw withHint(
        new UsageError(`--field ${key}= has no value; the service ignores an empty value`),
        'To clear a field use `subscribers update --clear-field <Key>`; a Date field is also cleared by the value 0000-00-00.',
      );
    }
    if (characterCount(value) > CUSTOM_FIELD_VALUE_LIMIT) {
      throw new UsageError(`--field ${key} is ${characterCount(value)} characters long; the service's limit is ${CUSTOM_FIELD_VALUE_LIMIT}`);
    }
    const notice = typedDateNotice(key, value);
    if (notice !== undefined && !notices.includes(notice)) notices.push(notice);
    items.push({ Key: key, Value: value });
  }
  // Said only once every flag is read: a refused flag sends nothing, and says nothing else.
  for (const line of notices) say?.(line);
  return items;
}

/** With a Value only that option of a MultiSelectMany field is removed. */
export function clearFieldFlags(values: readonly string[]): CustomFieldValue[] {
  const items: CustomFieldValue[] = [];
  for (const raw of values) {
    const eq = raw.indexOf('=');
    const key = (eq < 0 ? raw : raw.slice(0, eq)).trim();
    if (key === '') throw new UsageError(`--clear-field must be Key or Key=Value; got "${raw}"`);
    const value = eq < 0 ? '' : raw.slice(eq + 1);
    if (characterCount(value) > CUSTOM_FIELD_VALUE_LIMIT) {
      throw new UsageError(`--clear-field ${key} is ${characterCount(value)} characters long; the service's limit is ${CUSTOM_FIELD_VALUE_LIMIT}`);
    }
    items.push({ Key: key, Value: value, Clear: true });
  }
  return items;
}

function withHint<E extends UsageError>(error: E, hint: string): E {
  error.hint = hint;
  return error;
}
