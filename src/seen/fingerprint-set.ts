import { fingerprintInto, type Fingerprint } from './fingerprint.js';

const SEGMENTS = 256;
const MAX_LOAD = 0.8;
const GROWTH = 1.25;

/**
 * A set of 64-bit fingerprints in typed arrays: 256 segments chosen by the top 8 bits of the
 * fingerprint, each an open-addressing table with linear probing and (hi, lo) pairs in a
 * Uint32Array.
 *
 * Memory: a segment grows by x1.25 when it is 80% full, so its load stays between 64% and 80%.
 * Segments start at staggered capacities, so at any size they sit at evenly spread points of that
 * cycle and the average load is about 72%: 8 bytes / 0.72, about 11 bytes per fingerprint, where
 * one power-of-two table doubling at 75% averages 16 (bench/seen measures it).
 * Stalls: growing rehashes one segment, 1/256 of the set (about 0.2 ms at 2 million).
 *
 * (0, 0) marks an empty slot, so the fingerprint (0, 0) is stored as (0, 1): a documented
 * collision with probability 2^-64.
 */
export class FingerprintSet {
  readonly #tables: Uint32Array[] = [];
  readonly #caps = new Uint32Array(SEGMENTS);
  readonly #sizes = new Uint32Array(SEGMENTS);
  readonly #limits = new Uint32Array(SEGMENTS);
  #size = 0;
  readonly #scratch: Fingerprint = { hi: 0, lo: 0 };

  /** `expected` sizes the segments up front, to avoid growth for a known number of URLs. */
  constructor(expected = 0) {
    const base = Math.max(8, Math.ceil(expected / SEGMENTS / MAX_LOAD));
    for (let s = 0; s < SEGMENTS; s++) {
      // Staggered start: segment s begins at base x 1.25^(s/256), so growth points spread out.
      const cap = Math.max(8, Math.round(base * GROWTH ** (s / SEGMENTS)));
      this.#tables.push(new Uint32Array(cap * 2));
      this.#caps[s] = cap;
      this.#limits[s] = Math.floor(cap * MAX_LOAD);
    }
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes held by the tables. */
  get byteLength(): number {
    let n = 0;
    for (const t of this.#tables) n += t.byteLength;
    return n;
  }

  /** Adds the URL's fingerprint. Returns true when it was not in the set before. */
  add(url: string): boolean {
    const fp = fingerprintInto(url, this.#scratch);
    return this.addFingerprint(fp.hi, fp.lo);
  }

  has(url: string): boolean {
    const fp = fingerprintInto(url, this.#scratch);
    return this.hasFingerprint(fp.hi, fp.lo);
  }

  /** Fingerprint-level add for callers that already hashed. True when new. */
  addFingerprint(hi: number, lo: number): boolean {
    hi >>>= 0;
    lo >>>= 0;
    if ((hi | lo) === 0) lo = 1;
    const s = hi >>> 24;
    const t = this.#tables[s]!;
    const i = FingerprintSet.#probe(t, this.#caps[s]!, hi, lo);
    if (i >= 0) return false;
    t[2 * ~i] = hi;
    t[2 * ~i + 1] = lo;
    this.#size++;
    if (++this.#sizes[s]! > this.#limits[s]!) this.#grow(s);
    return true;
  }

  hasFingerprint(hi: number, lo: number): boolean {
    hi >>>= 0;
    lo >>>= 0;
    if ((hi | lo) === 0) lo = 1;
    const s = hi >>> 24;
    return FingerprintSet.#probe(this.#tables[s]!, this.#caps[s]!, hi, lo) >= 0;
  }

  /** Removes the URL's fingerprint. Returns true when it was in the set. */
  delete(url: string): boolean {
    const fp = fingerprintInto(url, this.#scratch);
    return this.deleteFingerprint(fp.hi, fp.lo);
  }

  /**
   * Fingerprint-level delete. Linear probing needs no tombstones: the entries after the freed slot
   * in its run move back when their home slot is not between the gap and them (Knuth's algorithm R).
   */
  deleteFingerprint(hi: number, lo: number): boolean {
    hi >>>= 0;
    lo >>>= 0;
    if ((hi | lo) === 0) lo = 1;
    const s = hi >>> 24;
    const t = this.#tables[s]!;
    const cap = this.#caps[s]!;
    let gap = FingerprintSet.#probe(t, cap, hi, lo);
    if (gap < 0) return false;
    let j = gap;
    for (;;) {
      if (++j === cap) j = 0;
      const h = t[2 * j]!;
      const l = t[2 * j + 1]!;
      if ((h | l) === 0) break;
      const home = ((l * cap) / 4294967296) | 0;
      // The entry at j may fill the gap unless its home lies cyclically in (gap, j].
      const stays = gap <= j ? home > gap && home <= j : home > gap || home <= j;
      if (stays) continue;
      t[2 * gap] = h;
      t[2 * gap + 1] = l;
      gap = j;
    }
    t[2 * gap] = 0;
    t[2 * gap + 1] = 0;
    this.#size--;
    this.#sizes[s]!--;
    return true;
  }

  /** The slot holding (hi, lo), or ~slot of the empty slot where it would go (linear probing). */
  static #probe(t: Uint32Array, cap: number, hi: number, lo: number): number {
    let i = ((lo * cap) / 4294967296) | 0;
    for (;;) {
      const h = t[2 * i]!;
      const l = t[2 * i + 1]!;
      if ((h | l) === 0) return ~i;
      if (h === hi && l === lo) return i;
      if (++i === cap) i = 0;
    }
  }

  #grow(s: number): void {
    const old = this.#tables[s]!;
    const cap = Math.ceil(this.#caps[s]! * GROWTH);
    const t = new Uint32Array(cap * 2);
    for (let k = 0; k < old.length; k += 2) {
      const hi = old[k]!;
      const lo = old[k + 1]!;
      if ((hi | lo) === 0) continue;
      let i = ((lo * cap) / 4294967296) | 0;
      while ((t[2 * i]! | t[2 * i + 1]!) !== 0) if (++i === cap) i = 0;
      t[2 * i] = hi;
      t[2 * i + 1] = lo;
    }
    this.#tables[s] = t;
    this.#caps[s] = cap;
    this.#limits[s] = Math.floor(cap * MAX_LOAD);
  }
}
