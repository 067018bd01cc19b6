// What vendors' exports write, read as they meant it (CLI.md "What a file
// means"): consent as yes/no words, the address columns of contact exports,
// Mailchimp's TAGS. Status and permission columns: status-columns.ts; two
// columns under one header: prescan.ts. Nothing here imports the mapping,
// which uses it.
import type { Consent } from '../validation/subscriber-fields.js';
import { FALSE_WORDS, normalizeValue, TRUE_WORDS } from './status-columns.js';

// ---- consent -----------------------------------------------------------------------

const CONSENT_YES = new Set([...TRUE_WORDS, 'opted in', 'opt in', 'optin']);
const CONSENT_NO = new Set([...FALSE_WORDS, 'opted out', 'opt out', 'optout']);

/** A consent cell as exports write it: Yes, No, Unchanged; undefined when empty; null when it is none of them. */
export function readConsent(raw: string): Consent | undefined | null {
  switch (raw) {
    // The service's own spellings first, without a lower-cased copy: the common case of a big file.
    case 'Yes':
      return 'Yes';
    case 'No':
      return 'No';
    case 'Unchanged':
      return 'Unchanged';
    case '':
      return undefined;
  }
  const value = normalizeValue(raw);
  if (value === '') return undefined;
  if (CONSENT_YES.has(value)) return 'Yes';
  if (CONSENT_NO.has(value)) return 'No';
  if (value === 'unchanged') return 'Unchanged';
  return null;
}

export const CONSENT_VALUES = 'yes/no, true/false, 1/0, y/n, opted in/opted out (any letter case), or unchanged';

// ---- address columns ---------------------------------------------------------------

/**
 * The address column of contact exports, normalized as mapping.ts compares
 * headers: Google Contacts ("E-mail 1 - Value"), Thunderbird ("Primary
 * Email"), "Email 1". Outlook's "E-mail Address" and LinkedIn's "Email
 * Address" are the common spelling already; the second and third addresses
 * of these exports ("E-mail 2 - Value", "Secondary Email") are not the address.
 */
export const CONTACT_EMAIL_HEADERS = ['email1value', 'primaryemail', 'email1', 'emailaddress1', 'email1address', 'primaryemailaddress'];

/** For a file where no address column is found: every column whose name holds "mail"; undefined when none does. */
export function mailColumnsHint(header: readonly string[]): string | undefined {
  const mail = header.map((h, i) => ({ h: h.trim(), i })).filter(({ h }) => /mail/i.test(h));
  if (mail.length === 0) return undefined;
  const named = mail.map(({ h, i }) => `"${h}" (column ${i + 1})`).join(', ');
  return `the ${mail.length === 1 ? 'column' : `${mail.length} columns`} whose name holds "mail": ${named}`;
}

// ---- Mailchimp's TAGS ---------------------------------------------------------------

/** Mailchimp writes a contact's tags in one cell as `"tag one","tag two"`. */
export function isTagsHeader(header: string): boolean {
  return header.trim().toLowerCase() === 'tags';
}

/** The tags of a cell written `"a","b"` (a quote doubled inside one is a quote); undefined for any other cell. */
export function splitQuotedTags(cell: string): string[] | undefined {
  const text = cell.trim();
  if (text.charCodeAt(0) !== 34) return undefined;
  const tags: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '"') return undefined;
    let tag = '';
    let j = i + 1;
    for (;;) {
      const q = text.indexOf('"', j);
      if (q < 0) return undefined;
      tag += text.slice(j, q);
      if (text[q + 1] === '"') {
        tag += '"';
        j = q + 2;
        continue;
      }
      i = q + 1;
      break;
    }
    tags.push(tag);
    while (text[i] === ' ') i++;
    if (i === text.length) break;
    if (text[i] !== ',') return undefined;
    i++;
    while (text[i] === ' ') i++;
  }
  return tags;
}
