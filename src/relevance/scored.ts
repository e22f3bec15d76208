/** A score in [0, 1] with the terms that produced it, so a user can tune a topic. */
export interface Scored {
  score: number;
  /** The largest contributions, best first: [term, share of the score]. */
  terms: [string, number][];
  /** Extra facts a scorer reports (a level, the nearest example...). */
  detail?: Record<string, unknown>;
}

/** cos(a, b) and each shared term's part of it (the parts sum to the cosine). */
export function explainedCosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, top = 5): Scored {
  let na = 0;
  let nb = 0;
  for (const v of a.values()) na += v * v;
  for (const v of b.values()) nb += v * v;
  if (na === 0 || nb === 0) return { score: 0, terms: [] };
  const norm = Math.sqrt(na * nb);
  const parts: [string, number][] = [];
  let dot = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [k, v] of small) {
    const w = large.get(k);
    if (w === undefined) continue;
    dot += v * w;
    parts.push([k, (v * w) / norm]);
  }
  parts.sort((x, y) => y[1] - x[1]);
  return { score: Math.min(1, dot / norm), terms: parts.slice(0, top) };
}
