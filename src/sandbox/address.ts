// What the service takes for an email address (RFC 5321 mailbox and lengths); where the spec is
// open, what a mass-mailing service does not deliver to is refused (docs/sandbox.md "Addresses").
// Written apart from the tool's own check on purpose: test/sandbox/address.test.ts runs both over
// one table, so a bug in one is a failing test, not a mirrored answer.

/** RFC 5321 §4.5.3.1.1. */
const MAX_LOCAL_PART = 64;
/** RFC 1035 §2.3.4. */
const MAX_LABEL = 63;
/** RFC 5321 §4.5.3.1.3: a path of 256 octets, less its angle brackets. */
const MAX_ADDRESS = 254;

const DOT = 0x2e;
const HYPHEN = 0x2d;

/** ASCII letters, digits and the specials of RFC 5322 §3.2.3 atext, by character code. */
const ATEXT: Uint8Array = characterTable("!#$%&'*+-/=?^_`{|}~");
/** Letters, digits and the hyphen: RFC 5321 Ldh-str. */
const LDH: Uint8Array = characterTable('-');

function characterTable(specials: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) if (isLetter(c) || isDigit(c) || specials.includes(String.fromCharCode(c))) table[c] = 1;
  return table;
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

// Character loops rather than regular expressions: every address of a
// 1,000-entry import goes through here (bench/sandbox.bench.mjs).

/** Dot-atom (RFC 5322 §3.2.3): atoms of atext joined by single dots. */
function isDotAtom(text: string): boolean {
  let afterDot = true; // refuses a leading dot
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === DOT) {
      if (afterDot) return false;
      afterDot = true;
    } else if (c < 128 && ATEXT[c] === 1) afterDot = false;
    else return false;
  }
  return !afterDot; // refuses an empty text and a trailing dot
}

/** A label of RFC 5321 sub-domain, text[start, end): Let-dig [Ldh-str], at most 63 octets. */
function isLabel(text: string, start: number, end: number): boolean {
  if (end - start === 0 || end - start > MAX_LABEL) return false;
  if (text.charCodeAt(start) === HYPHEN || text.charCodeAt(end - 1) === HYPHEN) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || LDH[c] !== 1) return false;
  }
  return true;
}

/** The last label: letters, as every top-level domain is, or an IDNA A-label (xn--…). */
function isTopLevelLabel(text: string, start: number): boolean {
  const label = text.slice(start);
  if (label.length > 4 && label.slice(0, 4).toLowerCase() === 'xn--') return true;
  if (label.length < 2) return false;
  for (let i = 0; i < label.length; i++) if (!isLetter(label.charCodeAt(i))) return false;
  return true;
}

/** A domain of two labels or more. */
function isDomain(domain: string): boolean {
  let start = 0;
  let labels = 0;
  for (let dot = domain.indexOf('.'); dot >= 0; dot = domain.indexOf('.', start)) {
    if (!isLabel(domain, start, dot)) return false;
    labels++;
    start = dot + 1;
  }
  return labels >= 1 && isLabel(domain, start, domain.length) && isTopLevelLabel(domain, start);
}

export function isServiceAddress(raw: string): boolean {
  const address = raw.trim();
  if (address.length > MAX_ADDRESS) return false;
  const at = address.indexOf('@');
  // Exactly one "@": a dot-atom local part cannot hold another.
  if (at < 0 || address.indexOf('@', at + 1) >= 0) return false;
  if (at > MAX_LOCAL_PART || !isDotAtom(address.slice(0, at))) return false;
  return isDomain(address.slice(at + 1));
}
