import { fingerprintInto, type Fingerprint } from './fingerprint.js';

/**
 * A set of 64-bit fingerprints in one typed array (open addressing, linear probing), about
 * 8 bytes per slot instead of the ~100 bytes a URL string costs in a Set<string>.
 *
 * Slot k holds (hi, lo) at [2k, 2k+1]; (0, 0) marks an empty slot, so the one fingerprint equal to
 * (0, 0) is stored as (0, 1): a deliberate, documented collision with probability 2^-64.
 */
export class FingerprintSet {
  #table: Uint32Array;
  #mask: number;
  #size = 0;
  #maxFill: number;
  readonly #scratch: Fingerprint = { hi: 0, lo: 0 };
  static readonly MAX_LOAD = 0.75;

  constructor(initialCapacity = 1024) {
    let cap = 16;
    while (cap * FingerprintSet.MAX_LOAD < initialCapacity) cap *= 2;
    this.#table = new Uint32Array(cap * 2);
    this.#mask = cap - 1;
    this.#maxFill = Math.floor(cap * FingerprintSet.MAX_LOAD);
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes held by the table. */
  get byteLength(): number {
    return this.#table.byteLength;
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
    if ((hi | lo) === 0) lo = 1;
    const t = this.#table;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.#mask;
    for (;;) {
      const h = t[2 * i]!;
      const l = t[2 * i + 1]!;
      if ((h | l) === 0) break;
      if (h === hi >>> 0 && l === lo >>> 0) return false;
      i = (i + 1) & this.#mask;
    }
    t[2 * i] = hi;
    t[2 * i + 1] = lo;
    if (++this.#size > this.#maxFill) this.#grow();
    return true;
  }

  hasFingerprint(hi: number, lo: number): boolean {
    if ((hi | lo) === 0) lo = 1;
    const t = this.#table;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.#mask;
    for (;;) {
      const h = t[2 * i]!;
      const l = t[2 * i + 1]!;
      if ((h | l) === 0) return false;
      if (h === hi >>> 0 && l === lo >>> 0) return true;
      i = (i + 1) & this.#mask;
    }
  }

  #grow(): void {
    const old = this.#table;
    const cap = (this.#mask + 1) * 2;
    this.#table = new Uint32Array(cap * 2);
    this.#mask = cap - 1;
    this.#maxFill = Math.floor(cap * FingerprintSet.MAX_LOAD);
    this.#size = 0;
    for (let k = 0; k < old.length; k += 2) {
      const h = old[k]!;
      const l = old[k + 1]!;
      if ((h | l) !== 0) this.addFingerprint(h, l);
    }
  }
}
