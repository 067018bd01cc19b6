// The rows stage: one CSV record → one import entry, or the reason it cannot
// be sent. The hot path of an import, so entries are plain objects of one
// shape (stringified in one native pass), nothing is allocated for a cell not
// sent, and a refusal is reported through fields, not a result object.
import { checkFieldValue, isAcceptableAddress, parseConsent, SubscriberCode, type Consent, type CustomFieldValue } from '../validation/subscriber-fields.js';
import { cleanInvisible, showInvisible } from '../validation/email-address.js';
import { unescapeCells } from '../output/sanitize.js';
import type { DateTimeColumns } from './date-times.js';
import type { MappingPlan } from './mapping.js';
import type { LeftOutValue } from './partial.js';
import { readStatus, STATUS_CODES, statusMessage, type StatusColumn } from './status-columns.js';
import { isTagsHeader, splitQuotedTags } from './vendor-columns.js';

interface RowOptions {
  /** For rows whose consent cell is empty or absent. */
  consent?: Consent;
  multiSeparator?: string;
  /** Columns whose cells keep a row back; none with --include-unsubscribed. */
  statusColumns?: StatusColumn[];
  /** Rows a failures file lists as skipped are sent too. */
  includeUnsubscribed?: boolean;
  dateTimes?: DateTimeColumns;
  strict?: boolean;
}

/** A row whose cells are all empty: skipped like a blank line, not counted. */
export const BLANK = null;

/**
 * A row a failures file lists as a duplicate, its address unchanged: not
 * sent, so it cannot overwrite the row imported before it (CLI.md
 * "--failures"); counted as a duplicate. A corrected address is a fix, and sent.
 */
export const LISTED_DUPLICATE = 'listed-duplicate';

/** Names the address repeated, so importing the failures file again can tell a corrected one. */
export function duplicateMessage(address: string): string {
  return `the address of an earlier row (case and surrounding spaces ignored): only the first is sent (address <${address}>; correct it to send this row)`;
}

function listedDuplicateMessage(address: string): string {
  return `listed as a duplicate by the failures file of an earlier import (address <${address}>, imported from an earlier row): not sent; correct its address, or empty its Outcome cell, to send it`;
}

/** Undefined for a message that names none (an older failures file). */
function namedAddress(message: string | undefined): string | undefined {
  const at = message?.lastIndexOf('address <') ?? -1;
  if (at < 0) return undefined;
  const end = message!.indexOf('>', at);
  return end < 0 ? undefined : message!.slice(at + 9, end);
}

const LISTED_SKIPPED_MESSAGE =
  'listed as skipped by the failures file of an earlier import (the file it came from marks it): not sent; --include-unsubscribed sends it';

/** Property order fixed: one hidden class for every entry. */
export interface ImportEntry {
  EmailAddress: string;
  Name: string;
  CustomFields: CustomFieldValue[];
  ConsentToTrack: Consent;
}

export class RowBuilder {
  /** After a refusal: the service's code where it has one. */
  problemCode = '';
  problemMessage = '';
  /** The trimmed address of an accepted row, or of a refused one whose address is valid; '' otherwise. */
  email = '';
  /** Of an accepted row: the custom field values left out of it, if any (partial.ts). */
  leftOut: LeftOutValue[] | undefined = undefined;
  /** Said once at the end. */
  cleanedAddresses = 0;
  readonly cleanedCharacters = new Set<string>();

  private readonly emailColumn: number;
  private readonly nameColumns: number[];
  private readonly consentColumn: number;
  private readonly outcomeColumn: number;
  private readonly fromFailuresFile: boolean;
  private readonly fields: { index: number; key: string }[];
  private readonly strict: boolean;
  private readonly width: number;
  /** The header's cells, but for trailing columns without a header (nothing of them is sent). */
  private readonly needed: number;
  private readonly defaultConsent: Consent | undefined;
  private readonly separator: string | undefined;
  private readonly status: StatusColumn[] | undefined;
  private readonly skipListed: boolean;
  /** By position in `fields`: `"a","b"` cells are several tags (Mailchimp's TAGS). */
  private readonly tags: boolean[];
  readonly dateTimes: DateTimeColumns | undefined;

  constructor(plan: MappingPlan, options: RowOptions) {
    this.emailColumn = plan.emailColumn;
    this.nameColumns = plan.nameColumns;
    this.consentColumn = plan.consentColumn;
    this.outcomeColumn = plan.outcomeColumn;
    this.fromFailuresFile = plan.userWidth < plan.width;
    this.width = plan.width;
    let needed = plan.width;
    while (needed > 0 && plan.columns[needed - 1]?.source === 'empty header') needed--;
    this.needed = needed;
    this.fields = plan.fieldColumns;
    this.defaultConsent = options.consent;
    this.separator = options.multiSeparator || undefined;
    this.status = options.statusColumns?.length ? options.statusColumns : undefined;
    this.skipListed = plan.outcomeColumn >= 0 && !options.includeUnsubscribed;
    this.tags = plan.fieldColumns.map((f) => isTagsHeader(plan.columns.find((c) => c.index === f.index)?.header ?? ''));
    this.dateTimes = options.dateTimes;
    this.strict = options.strict === true;
  }

  /** Undefined when refused (see problemCode/problemMessage). */
  build(record: string[]): ImportEntry | undefined | typeof BLANK {
    this.email = '';
    if (this.leftOut !== undefined) this.leftOut = undefined;
    // failures.ts writes cells spreadsheet-safe.
    if (this.fromFailuresFile) unescapeCells(record);
    if (this.outcomeColumn >= 0 && isDuplicateOutcome(record[this.outcomeColumn])) {
      const named = namedAddress(record[this.outcomeColumn + 2]);
      const now = (record[this.emailColumn] ?? '').trim();
      if (named === undefined || now === '' || now.toLowerCase() === named.trim().toLowerCase()) {
        return this.refuse(LISTED_DUPLICATE, listedDuplicateMessage(named ?? now));
      }
    }
    let email = (record[this.emailColumn] ?? '').trim();
    if (email === '' && isBlank(record)) return BLANK;
    // A short row would send its cells under the wrong columns, or an empty Name over a stored one (CLI.md "Names").
    if (record.length !== this.width) {
      if (record.length < this.needed) {
        const fields = record.length === 1 ? '1 field' : `${record.length} fields`;
        return this.refuse('missing-fields', `the row has ${fields} and the header ${this.width}; a missing delimiter, or a line break inside an unquoted value?`);
      }
      if (hasExtraCells(record, this.width)) {
        return this.refuse('extra-fields', `the row has ${record.length} fields and the header ${this.width}; an unquoted delimiter inside a value?`);
      }
    }
    if (email === '') return this.refuse(String(SubscriberCode.invalidEmail), 'no email address');
    if (!isAcceptableAddress(email)) {
      // Zero-width characters copied along with an address are removed; anything else is refused, shown by code point.
      const cleaned = cleanInvisible(email);
      if (!cleaned) return this.refuse(String(SubscriberCode.invalidEmail), `invalid email address "${showInvisible(email)}"`);
      email = cleaned.address;
      this.cleanedAddresses++;
      for (const c of cleaned.removed) this.cleanedCharacters.add(c);
    }
    this.email = email;
    if (this.skipListed && isSkippedOutcome(record[this.outcomeColumn])) {
      const code = record[this.outcomeColumn + 1]?.trim() ?? '';
      return this.refuse(STATUS_CODES.has(code) ? code : 'unsubscribed', LISTED_SKIPPED_MESSAGE);
    }
    if (this.status !== undefined) {
      for (const column of this.status) {
        const cell = record[column.index];
        const code = readStatus(column, cell);
        if (code === null) return this.refuse('status-unreadable', `${column.header} "${cell}" is not a status the import reads`);
        if (code !== '') return this.refuse(code, statusMessage(column, cell!, code));
      }
    }

    // service-spec.md "Subscriber": an import entry may say Unchanged.
    let consent = this.defaultConsent;
    if (this.consentColumn >= 0) {
      const cell = record[this.consentColumn];
      if (cell !== undefined && cell !== '') {
        const parsed = parseConsent(cell, true);
        if (parsed === null) {
          return this.refuse(String(SubscriberCode.consentInvalid), `ConsentToTrack "${cell}" is not Yes, No or Unchanged`);
        }
        if (parsed !== undefined) consent = parsed;
      }
    }
    if (consent === undefined) {
      return this.refuse(String(SubscriberCode.consentMissing), 'ConsentToTrack missing: fill the cell, or give --consent yes|no|unchanged');
    }

    const fields: CustomFieldValue[] = [];
    const specs = this.fields;
    for (let f = 0; f < specs.length; f++) {
      const spec = specs[f]!;
      const cell = record[spec.index];
      if (cell === undefined || cell === '') continue;
      const tags = this.tags[f] ? splitQuotedTags(cell) : undefined;
      if (tags !== undefined) {
        for (const tag of tags) if (!this.addField(fields, spec, tag)) return undefined;
      } else if (this.separator !== undefined && cell.includes(this.separator)) {
        for (const part of cell.split(this.separator)) if (!this.addField(fields, spec, part)) return undefined;
      } else if (!this.addField(fields, spec, cell)) {
        return undefined;
      }
    }

    return { EmailAddress: email, Name: this.name(record), CustomFields: fields, ConsentToTrack: consent };
  }

  /** An empty value is not supplied (service-spec.md rule 4); false when --strict refuses the row. */
  private addField(fields: CustomFieldValue[], spec: { index: number; key: string }, raw: string): boolean {
    let value = raw.trim();
    if (value === '') return true;
    if (this.dateTimes !== undefined) value = this.dateTimes.value(spec.key, value);
    const checked = checkFieldValue(spec.key, value);
    if (typeof checked !== 'string') {
      if (this.strict) {
        this.refuse(checked.code, checked.message);
        return false;
      }
      (this.leftOut ??= []).push({ column: spec.index, code: checked.code, message: checked.message });
      return true;
    }
    fields.push({ Key: spec.key, Value: checked });
    return true;
  }

  private name(record: string[]): string {
    const columns = this.nameColumns;
    if (columns.length === 1) return (record[columns[0]!] ?? '').trim();
    let name = '';
    for (const c of columns) {
      const part = (record[c] ?? '').trim();
      if (part !== '') name = name === '' ? part : `${name} ${part}`;
    }
    return name;
  }

  private refuse(code: string, message: string): undefined {
    this.problemCode = code;
    this.problemMessage = message;
    return undefined;
  }
}

/** Also as a spreadsheet may have re-cased or padded it. */
function isDuplicateOutcome(cell: string | undefined): boolean {
  return cell === 'duplicate' || (cell !== undefined && cell.trim().toLowerCase() === 'duplicate');
}

function isSkippedOutcome(cell: string | undefined): boolean {
  return cell === 'skipped' || (cell !== undefined && cell.trim().toLowerCase() === 'skipped');
}

function isBlank(record: string[]): boolean {
  for (let i = 0; i < record.length; i++) if (record[i]!.trim() !== '') return false;
  return true;
}

function hasExtraCells(record: string[], width: number): boolean {
  for (let i = width; i < record.length; i++) if (record[i]!.trim() !== '') return true;
  return false;
}
