// Duplicate detection over a whole file without holding its addresses: a
// linear-probing hash set of 64-bit fingerprints of the lower-cased address,
// far smaller than a Set of the strings. Addresses are staged, then added as
// a group, so the cache-missing look-ups overlap in one tight loop.

const MIN_SLOTS = 1 << 14;
/** The most an estimate reserves up front; a larger file grows the table as it goes. */
const MAX_PRESIZED_SLOTS = 1 << 23;
/** Sized for TARGET_LOAD, grown past MAX_LOAD: an estimate a little short does not make it grow. */
const TARGET_LOAD = 0.85;
const MAX_LOAD = 0.92;
/** h1 × slots × 2^-32 is the home slot ("fast range"): any number of slots, not only powers of two. */
const TO_FRACTION = 1 / 4294967296;
/** Big enough for the look-ups to overlap, small enough that the rows waiting with them die young. */
export const GROUP_SIZE = 256;

export class AddressSet {
  /** Slot s holds [h1, h2] at 2s and 2s + 1; h2 is never 0, so 0 marks an empty slot. */
  private table: Uint32Array;
  private slots: number;
  private scale: number;
  private limit: number;
  private count = 0;
  private readonly staged = new Uint32Array(GROUP_SIZE * 2);
  private readonly homes = new Int32Array(GROUP_SIZE);
  /** 1 for a staged address that is only looked up, not added (a rejected row's: dedupe.ts). */
  private readonly probes = new Uint8Array(GROUP_SIZE);
  /** Keeps the touching loop in addStaged() from being optimised away. */
  touched = 0;
  private stagedCount = 0;

  /** `expected`: how many addresses are likely (sizes the table once; a wrong guess only costs memory or a doubling). */
  constructor(expected = 0) {
    const slots = Math.min(MAX_PRESIZED_SLOTS, Math.max(MIN_SLOTS, Math.ceil(expected / TARGET_LOAD)));
    this.table = new Uint32Array(slots * 2);
    this.slots = slots;
    this.scale = slots * TO_FRACTION;
    this.limit = Math.floor(slots * MAX_LOAD);
  }

  get size(): number {
    return this.count;
  }

  get bytes(): number {
    return this.table.byteLength;
  }

  get stagedSize(): number {
    return this.stagedCount;
  }

  /** The fingerprints of the last group, [h1, h2] per address in staging order: valid from addStaged() to the next stage(). */
  get groupFingerprints(): Uint32Array {
    return this.staged;
  }

  /** Hashes a trimmed address for the next addStaged(); at most GROUP_SIZE at a time. */
  stage(address: string, lookUpOnly = false): void {
    if (this.stagedCount === GROUP_SIZE) throw new Error('AddressSet: stage at most GROUP_SIZE addresses before addStaged()');
    this.probes[this.stagedCount] = lookUpOnly ? 1 : 0;
    fingerprint(address, this.staged, this.stagedCount++ * 2);
  }

  /**
   * Adds the staged addresses in the order they were staged. `isNew[i]` is
   * set to 1 when the i-th one was not seen before (earlier in the same group
   * included), 0 for a duplicate. Returns how many were staged.
   */
  addStaged(isNew: Uint8Array): number {
    const n = this.stagedCount;
    const staged = this.staged;
    const homes = this.homes;
    let table = this.table;
    let slots = this.slots;
    let scale = this.scale;
    // Independent loads first, so their cache misses overlap; the probes below then mostly hit.
    let touched = 0;
    for (let i = 0; i < n; i++) {
      // | 0 keeps the arithmetic unboxed (slots < 2^31).
      const home = (staged[2 * i]! * scale) | 0;
      homes[i] = home;
      touched += table[2 * home + 1]!;
    }
    this.touched = touched;
    // After a growth the homes computed above are stale.
    let grown = false;
    for (let i = 0; i < n; i++) {
      const h1 = staged[2 * i]!;
      const h2 = staged[2 * i + 1]!;
      let slot = grown ? (h1 * scale) | 0 : homes[i]!;
      let fresh = 1;
      for (;;) {
        const stored = table[2 * slot + 1]!;
        if (stored === 0) break;
        if (stored === h2 && table[2 * slot] === h1) {
          fresh = 0;
          break;
        }
        if (++slot === slots) slot = 0;
      }
      isNew[i] = fresh;
      if (fresh && this.probes[i] === 0) {
        table[2 * slot] = h1;
        table[2 * slot + 1] = h2;
        if (++this.count > this.limit) {
          this.grow();
          grown = true;
          table = this.table;
          slots = this.slots;
          scale = this.scale;
        }
      }
    }
    this.stagedCount = 0;
    return n;
  }

  /** Adds one address; false when it was already there (a duplicate). */
  add(address: string): boolean {
    if (this.stagedCount) throw new Error('AddressSet: add() while addresses are staged');
    this.stage(address);
    const result = new Uint8Array(1);
    this.addStaged(result);
    return result[0] === 1;
  }

  private grow(): void {
    const old = this.table;
    const slots = Math.ceil(this.slots * 1.5);
    const scale = slots * TO_FRACTION;
    const table = new Uint32Array(slots * 2);
    for (let i = 0; i < old.length; i += 2) {
      const h2 = old[i + 1]!;
      if (h2 === 0) continue;
      const h1 = old[i]!;
      let slot = (h1 * scale) | 0;
      while (table[2 * slot + 1] !== 0) if (++slot === slots) slot = 0;
      table[2 * slot] = h1;
      table[2 * slot + 1] = h2;
    }
    this.table = table;
    this.slots = slots;
    this.scale = scale;
    this.limit = Math.floor(slots * MAX_LOAD);
  }
}

/**
 * Two 32-bit hashes of the address folded to lower case, at out[at] and
 * out[at + 1]. ASCII is folded two characters at a time; other text is
 * lower-cased as the service does, and hashed as ASCII if that makes it ASCII
 * (the Kelvin sign), so equal lower-cased addresses get equal fingerprints.
 */
export function fingerprint(address: string, out: Uint32Array, at: number): void {
  if (fingerprintAscii(address, out, at)) return;
  const folded = address.toLowerCase();
  if (fingerprintAscii(folded, out, at)) return;
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 13;
  }
  // A different length salt: non-ASCII text never shares the ASCII stream of words.
  finish(h1, h2, folded.length + 0x10000, out, at);
}

/** False (nothing written) when the text is not ASCII. */
function fingerprintAscii(address: string, out: Uint32Array, at: number): boolean {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  const length = address.length;
  let i = 0;
  for (; i + 1 < length; i += 2) {
    let pair = address.charCodeAt(i) | (address.charCodeAt(i + 1) << 16);
    if ((pair & 0xff80ff80) !== 0) return false;
    // Each half is < 128: +63 sets its bit 7 from 'A' (65) up, +37 from '[' (91) up.
    pair |= ((pair + 0x003f003f) & ~(pair + 0x00250025) & 0x00800080) >>> 2;
    h1 = Math.imul(h1 ^ pair, 0x01000193);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ pair, 0x5bd1e995);
    h2 ^= h2 >>> 13;
  }
  if (i < length) {
    let c = address.charCodeAt(i);
    if (c > 127) return false;
    if (c >= 65 && c <= 90) c |= 32;
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 13;
  }
  finish(h1, h2, length, out, at);
  return true;
}

function finish(h1: number, h2: number, length: number, out: Uint32Array, at: number): void {
  out[at] = fmix32(h1 ^ length) >>> 0;
  // 0 marks an empty slot: the low half is never 0.
  out[at + 1] = fmix32(h2 ^ Math.imul(length, 0x9e3779b9)) >>> 0 || 1;
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
