import { FingerprintSet } from './fingerprint-set.js';
import { fingerprintInto, type Fingerprint } from './fingerprint.js';

/**
 * A FingerprintSet that holds at most `capacity` fingerprints: adding one more forgets the oldest
 * (first in, first out). For sets a crawl may let go of, where a forgotten member costs a chance,
 * not correctness: the revivable discards of a frontier with a bounded seen cache, which would
 * otherwise grow by one per discarded link whatever `--seen-cache` says.
 */
export class BoundedFingerprintSet {
  readonly #set = new FingerprintSet();
  readonly #hi: Uint32Array;
  readonly #lo: Uint32Array;
  readonly #scratch: Fingerprint = { hi: 0, lo: 0 };
  #next = 0;
  #filled = 0;

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`BoundedFingerprintSet capacity ${capacity}: at least 1`);
    this.#hi = new Uint32Array(capacity);
    this.#lo = new Uint32Array(capacity);
  }

  get size(): number {
    return this.#set.size;
  }

  add(url: string): boolean {
    const fp = fingerprintInto(url, this.#scratch);
    return this.addFingerprint(fp.hi, fp.lo);
  }

  addFingerprint(hi: number, lo: number): boolean {
    if (!this.#set.addFingerprint(hi, lo)) return false;
    // The slot's old member may have been deleted already: deleting it again is a no-op.
    if (this.#filled === this.capacity) this.#set.deleteFingerprint(this.#hi[this.#next]!, this.#lo[this.#next]!);
    else this.#filled++;
    this.#hi[this.#next] = hi;
    this.#lo[this.#next] = lo;
    this.#next = (this.#next + 1) % this.capacity;
    return true;
  }

  has(url: string): boolean {
    return this.#set.has(url);
  }

  delete(url: string): boolean {
    return this.#set.delete(url);
  }
}
