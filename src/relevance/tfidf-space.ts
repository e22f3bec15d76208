/** TF-IDF vectors with their norms, IDF = ln((1 + N) / (1 + df)) + 1 over the given documents. */
export class TfIdfSpace {
  readonly #df = new Map<string, number>();
  #n = 0;

  observe(terms: ReadonlyMap<string, number>): void {
    this.#n++;
    for (const t of terms.keys()) this.#df.set(t, (this.#df.get(t) ?? 0) + 1);
  }

  /** ln((1 + N) / (1 + df)) + 1: smoothed, so a term in every document keeps a positive weight. */
  idf(term: string): number {
    return Math.log((1 + this.#n) / (1 + (this.#df.get(term) ?? 0))) + 1;
  }

  vector(terms: ReadonlyMap<string, number>): { v: Map<string, number>; norm: number } {
    const v = new Map<string, number>();
    let sq = 0;
    for (const [t, n] of terms) {
      const w = n * this.idf(t);
      v.set(t, w);
      sq += w * w;
    }
    return { v, norm: Math.sqrt(sq) };
  }
}

/** Cosine of two vectors of one TfIdfSpace (norms computed once, by vector()). */
export function cosineOf(a: { v: Map<string, number>; norm: number }, b: { v: Map<string, number>; norm: number }): number {
  if (!a.norm || !b.norm) return 0;
  const [small, large] = a.v.size <= b.v.size ? [a.v, b.v] : [b.v, a.v];
  let dot = 0;
  for (const [t, w] of small) {
    const x = large.get(t);
    if (x !== undefined) dot += w * x;
  }
  return Math.min(1, dot / (a.norm * b.norm));
}
