// Duplicate detection across a whole file in memory that does not hold the
// addresses: an open-addressing hash set (linear probing) of 64-bit
// fingerprints of the normalised address (trimmed, lower-cased), both halves
// of a slot side by side in one Uint32Array so a lookup touches one cache line.
//
// Memory: 8 bytes a slot, 37.5-75 % full (it doubles at 75 %), so 11-22 bytes
// per distinct address (16 MB at a million rows) against ~80 bytes for a Set
// of the strings themselves.
//
// False positives: two different addresses are taken for duplicates only when
// their 64-bit fingerprints are equal. The two 32-bit halves come from two
// different multiplicative hashes, each finished by murmur3's avalanche, so
// for n distinct addresses the chance of any such collision is about
// n² / 2⁶⁵: 3 × 10⁻⁸ at a million rows, 3 × 10⁻⁶ at ten million.

const INITIAL_SLOTS = 1 << 14;
const MAX_LOAD = 0.75;

export class AddressSet {
  /** Slot s holds [h1, h2] at 2s and 2s + 1; h2 is never 0, so 0 marks an empty slot. */
  private table = new Uint32Array(INITIAL_SLOTS * 2);
  private mask = INITIAL_SLOTS - 1;
  private count = 0;
  // The fingerprint of the last address hashed (set by fingerprint(), to return two numbers without allocating).
  private h1 = 0;
  private h2 = 0;

  get size(): number {
    return this.count;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.table.byteLength;
  }

  /** Adds a trimmed address; false when it was already there (a duplicate). */
  add(address: string): boolean {
    this.fingerprint(address);
    const h1 = this.h1;
    const h2 = this.h2;
    const mask = this.mask;
    const table = this.table;
    let slot = h1 & mask;
    for (;;) {
      const stored = table[2 * slot + 1]!;
      if (stored === 0) break;
      if (stored === h2 && table[2 * slot] === h1) return false;
      slot = (slot + 1) & mask;
    }
    table[2 * slot] = h1;
    table[2 * slot + 1] = h2;
    if (++this.count > (mask + 1) * MAX_LOAD) this.grow();
    return true;
  }

  has(address: string): boolean {
    this.fingerprint(address);
    const table = this.table;
    let slot = this.h1 & this.mask;
    for (;;) {
      const stored = table[2 * slot + 1]!;
      if (stored === 0) return false;
      if (stored === this.h2 && table[2 * slot] === this.h1) return true;
      slot = (slot + 1) & this.mask;
    }
  }

  /**
   * Two 32-bit hashes of the address folded to lower case, in one pass and
   * without allocating: ASCII letters are folded inline; an address with any
   * other character is lower-cased by toLowerCase() first, as the service does.
   */
  private fingerprint(address: string): void {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    const length = address.length;
    for (let i = 0; i < length; i++) {
      let c = address.charCodeAt(i);
      if (c > 127) return this.fingerprintFolded(address.toLowerCase());
      if (c >= 65 && c <= 90) c |= 32;
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 13;
    }
    this.finish(h1, h2, length);
  }

  private fingerprintFolded(folded: string): void {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let i = 0; i < folded.length; i++) {
      const c = folded.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 13;
    }
    this.finish(h1, h2, folded.length);
  }

  private finish(h1: number, h2: number, length: number): void {
    this.h1 = fmix32(h1 ^ length) >>> 0;
    this.h2 = fmix32(h2 ^ Math.imul(length, 0x9e3779b9)) >>> 0 || 1;
  }

  private grow(): void {
    const old = this.table;
    const slots = old.length; // twice the old number of slots
    const table = new Uint32Array(slots * 2);
    const mask = slots - 1;
    for (let i = 0; i < old.length; i += 2) {
      const h2 = old[i + 1]!;
      if (h2 === 0) continue;
      const h1 = old[i]!;
      let slot = h1 & mask;
      while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      table[2 * slot] = h1;
      table[2 * slot + 1] = h2;
    }
    this.table = table;
    this.mask = mask;
  }
}

/** murmur3's 32-bit finaliser: every input bit affects every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
