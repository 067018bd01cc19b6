// A string an attacker could put in the service's answers, a webhook delivery
// or a CSV file, with the sequences that do harm when they reach a terminal
// raw: an OSC 52 clipboard write, an OSC 8 link whose text hides its target,
// a screen clear, a C1 CSI (one byte, U+009B, that terminals read as ESC [)
// and a right-to-left override that reverses what follows.
import { expect } from 'vitest';

export const CLIPBOARD_WRITE = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
export const DISGUISED_LINK = '\u001b]8;;https://evil.example/\u001b\\https://docs.example/\u001b]8;;\u001b\\';
export const CLEAR_SCREEN = '\u001b[2J';
export const C1_CSI = '\u009b31m';
export const RLO = '\u202egnp.exe';

export const HOSTILE = `${CLIPBOARD_WRITE} ${DISGUISED_LINK} ${CLEAR_SCREEN} ${C1_CSI} ${RLO}`;

/**
 * The characters a terminal must never receive raw from outside text: C0
 * controls (the line break, and where a format needs them the tab and CR, excepted),
 * DEL, C1 controls, and the bidi overrides and isolates.
 */
export function rawControls(text: string, allowed = '\n'): string[] {
  // eslint-disable-next-line no-control-regex
  const found = text.match(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g) ?? [];
  return [...new Set(found.filter((ch) => !allowed.includes(ch)))].map((ch) => `U+${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The text shows the hostile string as visible escapes: nothing raw, and the neutralised form is there to read. */
export function expectNeutralised(text: string, allowed = '\n'): void {
  expect(rawControls(text, allowed), text).toEqual([]);
  expect(text).toContain('\\x1b]52;c;');
  expect(text).toContain('\\x9b31m');
  expect(text).toContain('\\u202egnp.exe');
}
