import { fingerprint } from '../seen/fingerprint.js';

/**
 * A count-min sketch (Cormode and Muthukrishnan, 2005) with conservative update: approximate
 * counts of string keys in fixed memory (`depth` rows of `width` 32-bit counters). An estimate is
 * never below the true count; it exceeds it only through collisions, by about
 * e / width x (all increments) at worst, far less with the conservative update in practice.
 * The trap guard counts URL patterns with it, so a crawl of millions of URLs keeps its counts in a
 * few megabytes instead of one map entry per pattern.
 */
export class CountSketch {
  readonly #width: number;
  readonly #depth: number;
  readonly #cells: Uint32Array;
  readonly #slots: number[];

  constructor(width = 1 << 18, depth = 4) {
    this.#width = width;
    this.#depth = depth;
    this.#cells = new Uint32Array(width * depth);
    this.#slots = new Array<number>(depth).fill(0);
  }

  /** Cell index per row, by double hashing the key's two 32-bit fingerprint halves. */
  #locate(key: string): number[] {
    const { hi, lo } = fingerprint(key);
    for (let r = 0; r < this.#depth; r++) this.#slots[r] = r * this.#width + ((hi + Math.imul(r, lo | 1)) >>> 0) % this.#width;
    return this.#slots;
  }

  estimate(key: string): number {
    let min = Infinity;
    for (const i of this.#locate(key)) min = Math.min(min, this.#cells[i]!);
    return min;
  }

  /** Counts one more `key`; returns its new estimate. */
  add(key: string): number {
    const slots = this.#locate(key);
    let min = Infinity;
    for (const i of slots) min = Math.min(min, this.#cells[i]!);
    // Conservative update: only the cells at the minimum can be exact; raising the others would only add error.
    for (const i of slots) if (this.#cells[i] === min) this.#cells[i] = min + 1;
    return min + 1;
  }
}
