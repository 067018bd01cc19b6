// What the service takes for an email address: EmailAddress (codes 1 and
// 211), FromEmail (307), ReplyTo (309), PreviewRecipients (371), the email
// query parameter (1). service-spec.md types these "email": a mailbox of
// RFC 5321 §4.1.2 — a dot-atom local part, "@", a domain of LDH labels —
// within the lengths of RFC 5321 §4.5.3.1.
//
// Where the spec leaves it open, the sandbox refuses what a mass-mailing
// service does not deliver to (docs/sandbox.md "Addresses"): quoted local
// parts, address literals ([192.0.2.1]), domains of one label, top-level
// labels that are not letters or an IDNA A-label, non-ASCII (no SMTPUTF8).
// Surrounding whitespace is dropped, as with every value the sandbox stores.
//
// Written apart from the tool's own check on purpose (test/sandbox/address.test.ts
// runs both over one table): a bug in one is then a failing test, not a
// mirrored answer.

/** RFC 5321 §4.5.3.1.1. */
const MAX_LOCAL_PART = 64;
/** RFC 1035 §2.3.4. */
const MAX_LABEL = 63;
/** RFC 5321 §4.5.3.1.3: a path of 256 octets, less its angle brackets. */
const MAX_ADDRESS = 254;

/** RFC 5322 §3.2.3 atext, less ALPHA and DIGIT. */
const ATEXT_SPECIALS = "!#$%&'*+-/=?^_`{|}~";

function isLetter(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

/** Dot-atom (RFC 5322 §3.2.3): atoms of atext joined by single dots. */
function isDotAtom(text: string): boolean {
  if (text === '') return false;
  for (const atom of text.split('.')) {
    if (atom === '') return false;
    for (const ch of atom) if (!isLetter(ch) && !isDigit(ch) && !ATEXT_SPECIALS.includes(ch)) return false;
  }
  return true;
}

/** A label of RFC 5321 sub-domain: Let-dig [Ldh-str], at most 63 octets. */
function isLabel(label: string): boolean {
  if (label.length === 0 || label.length > MAX_LABEL) return false;
  if (label.startsWith('-') || label.endsWith('-')) return false;
  for (const ch of label) if (!isLetter(ch) && !isDigit(ch) && ch !== '-') return false;
  return true;
}

/** The last label: letters, as every top-level domain is, or an IDNA A-label (xn--…). */
function isTopLevelLabel(label: string): boolean {
  if (label.toLowerCase().startsWith('xn--')) return label.length > 4;
  if (label.length < 2) return false;
  for (const ch of label) if (!isLetter(ch)) return false;
  return true;
}

export function isServiceAddress(raw: string): boolean {
  const address = raw.trim();
  if (address.length > MAX_ADDRESS) return false;
  const at = address.indexOf('@');
  // Exactly one "@": a dot-atom local part cannot hold another.
  if (at < 0 || address.indexOf('@', at + 1) >= 0) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > MAX_LOCAL_PART || !isDotAtom(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every(isLabel)) return false;
  return isTopLevelLabel(labels[labels.length - 1]!);
}
