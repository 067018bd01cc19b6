// Masks the key on stdout (CLI.md "secrets": 2xx data too, in every format),
// at the edge, so every format and --jq are covered by construction. Writers
// may cut text anywhere (jq's output comes in fixed-size chunks), so a key
// could straddle two writes: what follows the last character that no form of
// a key contains (a line break, a space, a quote, a comma) waits for the next
// write. Text that ends a line, as records do, is written at once.

/** Characters a key and its encodings never hold (keys hold no white space; base64 and URL-encoding none of these). */
const BOUNDARY = new Set(["\n", "\r", "\t", " ", '"', ","]);

/** Held text past this with no boundary in it is written anyway: memory stays bounded. */
const HELD_MAX = 1024 * 1024;

export interface KeyMask {
  filter(text: string): string;
  /** Holds nothing from now on (the end of the command); returns what was held, to be written through filter(). */
  end(): string;
}

export function keyMask(redactKeys: (text: string) => string): KeyMask {
  let pending = '';
  let ended = false;
  return {
    filter(text) {
      const all = pending + text;
      if (ended) {
        pending = '';
        return redactKeys(all);
      }
      let cut = -1;
      for (let i = all.length - 1; i >= 0 && cut < 0; i--) if (BOUNDARY.has(all[i]!)) cut = i + 1;
      if (cut < 0) cut = all.length > HELD_MAX ? all.length : 0;
      pending = all.slice(cut);
      return cut ? redactKeys(all.slice(0, cut)) : '';
    },
    end() {
      ended = true;
      const rest = pending;
      pending = '';
      return rest;
    },
  };
}
