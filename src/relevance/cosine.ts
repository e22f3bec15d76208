/** Cosine similarity of two sparse vectors; 0 when either is empty. */
export function cosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [k, v] of small) {
    const w = large.get(k);
    if (w !== undefined) dot += v * w;
  }
  for (const v of a.values()) na += v * v;
  for (const v of b.values()) nb += v * v;
  if (dot === 0 || na === 0 || nb === 0) return 0;
  return Math.min(1, dot / Math.sqrt(na * nb));
}
