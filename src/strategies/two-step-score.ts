/**
 * Method C's second step: score(u) = alpha * rel(u) + (1 - alpha) * mean(rel(v) for v in out(u)),
 * with the source's noise rules in our reading (threshold t is the topic's):
 * - relevant means rel >= t, very low rel < t / 2, highly relevant rel >= 2t;
 * - when two thirds or more of the out-link pages are relevant, the very low ones are dropped
 *   from the mean;
 * - when none is highly relevant, the out-link term is ignored: score(u) = rel(u).
 *
 * Kept as running counts, so adding a child and re-scoring cost O(1): a page linked from every
 * sidebar of a site reports to hundreds of parents.
 */
export class OutlinkStats {
  /** Out-link pages counted, their relevance sum, and how many are relevant / highly relevant. */
  n = 0;
  sum = 0;
  relevant = 0;
  high = 0;
  /** The very low ones, and their sum (dropped from the mean when most are relevant). */
  low = 0;
  lowSum = 0;

  constructor(readonly threshold: number) {}

  add(r: number): void {
    const t = this.threshold;
    this.n++;
    this.sum += r;
    if (r >= t) this.relevant++;
    if (r >= 2 * t) this.high++;
    if (r < t / 2) {
      this.low++;
      this.lowSum += r;
    }
  }

  score(rel: number, alpha: number): number {
    if (this.high === 0) return rel;
    const dropLow = this.relevant >= (2 / 3) * this.n;
    const mean = dropLow ? (this.sum - this.lowSum) / (this.n - this.low) : this.sum / this.n;
    return alpha * rel + (1 - alpha) * mean;
  }

  toJSON(): number[] {
    return [this.n, this.sum, this.relevant, this.high, this.low, this.lowSum];
  }

  static from(threshold: number, a: readonly number[]): OutlinkStats {
    const s = new OutlinkStats(threshold);
    [s.n, s.sum, s.relevant, s.high, s.low, s.lowSum] = a as [number, number, number, number, number, number];
    return s;
  }
}

/** score(u) from rel(u) and its out-link pages' relevances (the source's formula and noise rules). */
export function twoStepScore(rel: number, children: readonly number[], threshold: number, alpha = 0.7): number {
  const s = new OutlinkStats(threshold);
  for (const r of children) s.add(r);
  return s.score(rel, alpha);
}
