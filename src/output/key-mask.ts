// Masks the key on stdout at the edge, so every format and --jq are covered.
// A key could straddle two writes, so text after the last boundary character
// waits for the next write; text that ends a line is written at once.

/** Characters no form of a key holds (no white space; base64 and URL-encoding none of these). */
const BOUNDARY = new Set(["\n", "\r", "\t", " ", '"', ","]);

/** Past this without a boundary, held text is written anyway: memory stays bounded. */
const HELD_MAX = 1024 * 1024;

export interface KeyMask {
  filter(text: string): string;
  /** The end of the command: returns what was held, to be written through filter(). */
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
