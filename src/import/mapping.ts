// What each column of the header becomes in an import entry: --map decides
// for the columns it names, the others are matched to the usual spellings,
// and the rest become custom fields keyed by their header (CLI.md "Import options").
import { UsageError } from '../core/errors.js';
import { CONTACT_EMAIL_HEADERS, mailColumnsHint } from './vendor-columns.js';

type TargetKind = 'EmailAddress' | 'Name' | 'ConsentToTrack' | 'CustomField' | 'ignore';

export interface ColumnPlan {
  index: number;
  header: string;
  target: TargetKind;
  key?: string;
  source: 'map' | 'auto' | 'rest' | 'empty header' | 'failures file' | 'only-mapped';
  /** For Name built from several columns: "First Name + Last Name". */
  note?: string;
}

export interface MappingPlan {
  columns: ColumnPlan[];
  width: number;
  emailColumn: number;
  /** Joined with a space, skipping empty cells: one column, or First Name + Last Name. */
  nameColumns: number[];
  consentColumn: number;
  /** A failures file's Outcome column (of its last block), -1 for any other file. */
  outcomeColumn: number;
  /** Where a failures file's own columns begin; `width` for any other file. */
  userWidth: number;
  fieldColumns: { index: number; key: string }[];
}

/** Header spellings compared after lower-casing and removing spaces, `_`, `-` and `.`. */
const EMAIL_HEADERS = new Set(['email', 'emailaddress', 'mail', 'mailaddress', 'emailaddr', 'emailid', ...CONTACT_EMAIL_HEADERS]);
const NAME_HEADERS = new Set(['name', 'fullname', 'subscribername', 'contactname', 'displayname']);
const FIRST_NAME_HEADERS = new Set(['firstname', 'fname', 'givenname', 'forename', 'first']);
const LAST_NAME_HEADERS = new Set(['lastname', 'lname', 'surname', 'familyname', 'last']);
const CONSENT_HEADERS = new Set(['consenttotrack', 'consent', 'trackingconsent', 'consenttotracking']);

/** The columns failures.ts appends: a fixed failures file can be imported again as it is. */
export const FAILURE_COLUMNS = ['Line', 'Outcome', 'Code', 'Message'] as const;

function normalizeHeader(header: string): string {
  return header.toLowerCase().replace(/[\s_.-]+/g, '');
}

function parseTarget(raw: string): { target: TargetKind; key?: string } {
  const text = raw.trim();
  if (text === '-') return { target: 'ignore' };
  switch (normalizeHeader(text)) {
    case 'emailaddress':
    case 'email':
      return { target: 'EmailAddress' };
    case 'name':
      return { target: 'Name' };
    case 'consenttotrack':
      return { target: 'ConsentToTrack' };
  }
  return { target: 'CustomField', key: text };
}

/** Throws UsageError (exit 2) for a file or map that cannot work. */
export function planMapping(header: string[], mapFlags: string[], inputName: string, options: { onlyMapped?: boolean } = {}): MappingPlan {
  const width = header.length;
  const chosen = new Map<number, ColumnPlan>();

  for (const flag of mapFlags) {
    const eq = flag.lastIndexOf('=');
    if (eq <= 0 || eq === flag.length - 1) {
      throw new UsageError(`--map must be Column=Target (Target: EmailAddress, Name, ConsentToTrack, a custom field key, or -); got "${flag}"`);
    }
    const column = flag.slice(0, eq).trim();
    const index = findColumn(header, column);
    if (index < 0) {
      throw new UsageError(`--map ${flag}: ${inputName} has no column "${column}"; its columns are ${listHeaders(header)}`);
    }
    if (chosen.has(index)) throw new UsageError(`--map names column "${column}" twice`);
    const { target, key } = parseTarget(flag.slice(eq + 1));
    chosen.set(index, { index, header: header[index]!, target, key, source: 'map' });
    // "-" sets aside every column of that name: a file may have two (vendor-columns.ts duplicateHeaders).
    if (target === 'ignore') {
      header.forEach((h, i) => {
        if (!chosen.has(i) && h.trim().toLowerCase() === header[index]!.trim().toLowerCase()) chosen.set(i, { index: i, header: h, target, source: 'map' });
      });
    }
  }

  /** The Name columns in the order their cells are joined, when it is not the file's order. */
  let nameOrder: number[] | undefined;
  const mapped = (target: TargetKind) => [...chosen.values()].some((c) => c.target === target);
  const free = (i: number) => !chosen.has(i);

  // A failures file's trailing blocks of columns are ours (one per import it went through); the last says what became of each row.
  let outcomeColumn = -1;
  let userWidth = width;
  const block = FAILURE_COLUMNS.length;
  for (let end = width; end > block && FAILURE_COLUMNS.every((name, k) => header[end - block + k]?.trim() === name); end -= block) {
    userWidth = end - block;
    for (let i = end - block; i < end; i++) {
      if (free(i)) chosen.set(i, { index: i, header: header[i]!, target: 'ignore', source: 'failures file' });
    }
    const outcome = end - block + FAILURE_COLUMNS.indexOf('Outcome');
    if (end === width && chosen.get(outcome)?.source === 'failures file') outcomeColumn = outcome;
  }

  const normalized = header.map(normalizeHeader);
  if (!mapped('EmailAddress')) {
    const candidates = normalized.map((h, i) => (free(i) && EMAIL_HEADERS.has(h) ? i : -1)).filter((i) => i >= 0);
    if (candidates.length > 1) {
      const error = new UsageError(
        `${inputName}: several columns could be the email address (${candidates.map((i) => `"${header[i]}"`).join(', ')})`,
      );
      error.hint = `Choose one with --map "${header[candidates[0]!]}=EmailAddress".`;
      throw error;
    }
    if (candidates.length === 1) chosen.set(candidates[0]!, { index: candidates[0]!, header: header[candidates[0]!]!, target: 'EmailAddress', source: 'auto' });
  }
  if (!mapped('Name')) {
    const name = normalized.findIndex((h, i) => free(i) && NAME_HEADERS.has(h));
    if (name >= 0) {
      chosen.set(name, { index: name, header: header[name]!, target: 'Name', source: 'auto' });
    } else {
      const first = normalized.findIndex((h, i) => free(i) && FIRST_NAME_HEADERS.has(h));
      const last = normalized.findIndex((h, i) => free(i) && LAST_NAME_HEADERS.has(h));
      const parts = [first, last].filter((i) => i >= 0);
      // Joined first name, then last name, whatever their order in the file.
      nameOrder = parts;
      const note = parts.length === 2 ? `${header[first]} + ${header[last]}` : undefined;
      for (const i of parts) chosen.set(i, { index: i, header: header[i]!, target: 'Name', source: 'auto', note });
    }
  }
  if (!mapped('ConsentToTrack')) {
    const consent = normalized.findIndex((h, i) => free(i) && CONSENT_HEADERS.has(h));
    if (consent >= 0) chosen.set(consent, { index: consent, header: header[consent]!, target: 'ConsentToTrack', source: 'auto' });
  }
  for (let i = 0; i < width; i++) {
    if (!free(i)) continue;
    const text = header[i]!.trim();
    if (text === '') chosen.set(i, { index: i, header: header[i]!, target: 'ignore', source: 'empty header' });
    else if (options.onlyMapped) chosen.set(i, { index: i, header: header[i]!, target: 'ignore', source: 'only-mapped' });
    else chosen.set(i, { index: i, header: header[i]!, target: 'CustomField', key: text, source: 'rest' });
  }

  const columns = [...chosen.values()].sort((a, b) => a.index - b.index);
  const emails = columns.filter((c) => c.target === 'EmailAddress');
  if (emails.length === 0) {
    const error = new UsageError(`${inputName}: no email column`);
    const candidates = mailColumnsHint(header) ?? `none has "mail" in its name; the columns are ${listHeaders(header)}`;
    error.hint = `${candidates[0]!.toUpperCase()}${candidates.slice(1)}: name the one with --map "<Column>=EmailAddress". Nothing was sent.`;
    throw error;
  }
  if (emails.length > 1) throw new UsageError(`--map: only one column can be EmailAddress (${emails.map((c) => `"${c.header}"`).join(', ')})`);
  const consents = columns.filter((c) => c.target === 'ConsentToTrack');
  if (consents.length > 1) throw new UsageError(`--map: only one column can be ConsentToTrack (${consents.map((c) => `"${c.header}"`).join(', ')})`);
  return {
    columns,
    width,
    emailColumn: emails[0]!.index,
    nameColumns: nameOrder ?? columns.filter((c) => c.target === 'Name').map((c) => c.index),
    consentColumn: consents[0]?.index ?? -1,
    outcomeColumn,
    userWidth,
    fieldColumns: columns.filter((c) => c.target === 'CustomField').map((c) => ({ index: c.index, key: c.key! })),
  };
}

function findColumn(header: string[], column: string): number {
  const exact = header.findIndex((h) => h.trim() === column);
  if (exact >= 0) return exact;
  const lower = column.toLowerCase();
  return header.findIndex((h) => h.trim().toLowerCase() === lower);
}

function listHeaders(header: string[]): string {
  const shown = header.slice(0, 20).map((h) => `"${h}"`);
  return header.length > 20 ? `${shown.join(', ')} and ${header.length - 20} more` : shown.join(', ') || '(none)';
}

/** A wide export keeps the unmapped-columns notice one readable line. */
const UNMAPPED_SHOWN = 10;

/**
 * Names the columns sent as custom fields only because nothing maps them
 * (an export's vendor columns would otherwise go silently): the service
 * ignores keys a list does not define without an error, and the list's fields
 * cannot be read through the API to tell which (CLI.md "Import input").
 */
export function unmappedColumnsNotice(plan: MappingPlan, listId: string): string | undefined {
  const names = plan.columns.filter((c) => c.source === 'rest').map((c) => c.header.trim());
  if (names.length === 0) return undefined;
  const shown = names.slice(0, UNMAPPED_SHOWN).join(', ') + (names.length > UNMAPPED_SHOWN ? ` (… and ${names.length - UNMAPPED_SHOWN} more)` : '');
  const ignored = "the service ignores a key the list does not define, and a value that is not one of a field's options, without an error";
  const create = `email customfields create --list ${listId} --name "${names[0]}" --type <DataType>`;
  if (names.length === 1) {
    return `1 column is sent as a custom field because nothing maps it: ${shown}; ${ignored}: create it if the list lacks it (${create}), or leave it out with --only-mapped or --map "${names[0]}=-"`;
  }
  return `${names.length} columns are sent as custom fields because nothing maps them: ${shown}; ${ignored}: create any the list lacks (${create}, …), or leave them out with --only-mapped, or --map "${names[0]}=-" one by one`;
}

/** One line per column for people: `Email Address → EmailAddress (recognised)`. */
export function describeColumn(c: ColumnPlan): string {
  const target = c.target === 'CustomField' ? `custom field ${c.key}` : c.target === 'ignore' ? 'ignored' : c.target;
  const why = { map: '--map', auto: 'recognised', rest: 'other column', 'empty header': 'no header', 'failures file': 'added by --failures', 'only-mapped': 'not mapped (--only-mapped)' }[c.source];
  return `${c.header || `(column ${c.index + 1})`} → ${target}${c.note ? ` (${c.note})` : ''} [${why}]`;
}
