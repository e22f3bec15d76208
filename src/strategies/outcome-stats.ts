import { packBytes, unpackBytes } from './packed-bytes.js';
/**
 * What the crawl has learned about link features: for each hashed feature (an anchor word, a URL
 * directory, a host, a navigation bucket), how many links with it were fetched and how many of
 * those led to a relevant page. An estimate for a new link averages its features' smoothed rates,
 * each weighted by how much evidence it has; unseen features say nothing. Fixed memory (two
 * Float32Arrays), so a long crawl does not grow it.
 */
export class OutcomeStats {
  readonly #mask: number;
  readonly #n: Float32Array;
  readonly #s: Float32Array;
  /** Links fetched and relevant over all features' owners (the base rate). */
  #total = 0;
  #relevant = 0;

  constructor(bits = 18) {
    this.#mask = 2 ** bits - 1;
    this.#n = new Float32Array(2 ** bits);
    this.#s = new Float32Array(2 ** bits);
  }

  /** Slot of a feature hash (53-bit hashes from term-hasher, mixed with a kind prefix). */
  slot(kind: number, hash: number): number {
    const lo = hash % 4294967296;
    const hi = Math.floor(hash / 4294967296);
    return (Math.imul(lo ^ Math.imul(hi ^ kind, 0x27d4eb2d), 0x9e3779b1) >>> 0) & this.#mask;
  }

  /** Slots there are: a feature is a slot number below it. */
  get slots(): number {
    return this.#mask + 1;
  }

  /** The page a link with these features led to was fetched: `label` 1 if relevant, else 0. */
  learn(features: readonly number[], label: number): void {
    this.#total++;
    this.#relevant += label;
    for (const f of features) {
      this.#n[f]! += 1;
      this.#s[f]! += label;
    }
  }

  /** The base rate: share of fetched pages that were relevant (a prior of 1 in 2 before any). */
  get baseRate(): number {
    return (this.#relevant + 1) / (this.#total + 2);
  }

  get observations(): number {
    return this.#total;
  }

  /**
   * The estimated chance that a link with these features leads to a relevant page, and the
   * evidence behind it (sum of the features' weights n / (n + m); 0 when every feature is new).
   */
  estimate(features: readonly number[], m = 5): { p: number; evidence: number } {
    const base = this.baseRate;
    let num = 0;
    let den = 0;
    for (const f of features) {
      const n = this.#n[f]!;
      if (n === 0) continue;
      const w = n / (n + m);
      num += w * ((this.#s[f]! + m * base) / (n + m));
      den += w;
    }
    return { p: den > 0 ? num / den : base, evidence: den };
  }

  snapshot(): { total: number; relevant: number; n: string; s: string } {
    return { total: this.#total, relevant: this.#relevant, n: packBytes(this.#n), s: packBytes(this.#s) };
  }

  restore(x: { total: number; relevant: number; n: string; s: string }): void {
    const load = (dst: Float32Array, src: string) => {
      const b = unpackBytes(src, dst.byteLength);
      if (b) dst.set(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)));
    };
    load(this.#n, x.n);
    load(this.#s, x.s);
    this.#total = x.total;
    this.#relevant = x.relevant;
  }
}
