// What vendors' exports write, read as they meant it (CLI.md "What a file
// means"): contact exports' address columns, Mailchimp's TAGS.

// ---- address columns ---------------------------------------------------------------

/** Normalized as mapping.ts compares headers; the second and third addresses of these exports are not the address. */
export const CONTACT_EMAIL_HEADERS = ['email1value', 'primaryemail', 'email1', 'emailaddress1', 'email1address', 'primaryemailaddress'];

/** For a file where no address column is found. */
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

/** Undefined for a cell not written `"a","b"`. */
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
