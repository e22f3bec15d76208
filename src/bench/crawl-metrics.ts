/** What a strategy achieved on a labelled web, from its fetch order alone (ground truth kept apart). */
export interface StrategyMetrics {
  strategy: string;
  fetched: number;
  targets: number;
  /** Harvest rate and recall after 10, 25, 50 and 100% of the budget. */
  harvestAt: Record<string, number>;
  recallAt: Record<string, number>;
  /** F1 of harvest rate (precision) and recall at the full budget. */
  f1: number;
  /** Fetches until the first target, and until half of all targets (null: never). */
  toFirst: number | null;
  toHalf: number | null;
  pagesPerSecond: number;
  /** Cumulative targets found after each fetch (for the curves). */
  found: number[];
  /** Seconds from the start of the crawl to each fetch (the found-over-time curve), when known. */
  elapsed: number[];
}

export const FRACTIONS = [0.1, 0.25, 0.5, 1] as const;

export function crawlMetrics(strategy: string, fetchOrder: string[], labels: ReadonlySet<string>, budget: number, seconds: number, elapsed: number[] = []): StrategyMetrics {
  const found: number[] = [];
  let n = 0;
  let toFirst: number | null = null;
  let toHalf: number | null = null;
  const half = Math.ceil(labels.size / 2);
  fetchOrder.forEach((url, i) => {
    if (labels.has(url)) n++;
    found.push(n);
    if (n >= 1 && toFirst === null) toFirst = i + 1;
    if (n >= half && toHalf === null) toHalf = i + 1;
  });
  const at = (k: number) => found[Math.min(k, found.length) - 1] ?? 0;
  const harvestAt: Record<string, number> = {};
  const recallAt: Record<string, number> = {};
  for (const f of FRACTIONS) {
    const k = Math.max(1, Math.round(budget * f));
    const got = at(k);
    harvestAt[`${f * 100}%`] = got / Math.min(k, Math.max(1, found.length));
    recallAt[`${f * 100}%`] = labels.size ? got / labels.size : 0;
  }
  const p = harvestAt['100%']!;
  const r = recallAt['100%']!;
  return {
    strategy,
    fetched: fetchOrder.length,
    targets: n,
    harvestAt,
    recallAt,
    f1: p + r > 0 ? (2 * p * r) / (p + r) : 0,
    toFirst,
    toHalf,
    pagesPerSecond: seconds > 0 ? fetchOrder.length / seconds : 0,
    found,
    elapsed,
  };
}

export function metricsTable(ms: StrategyMetrics[]): string {
  const pct = (x: number) => (100 * x).toFixed(1);
  const head = '| strategy | harvest 10/25/50/100% | recall 10/25/50/100% | F1 | to first | to half | pages/s |\n|---|---|---|---|---|---|---|';
  const rows = ms.map((m) =>
    `| ${m.strategy} | ${FRACTIONS.map((f) => pct(m.harvestAt[`${f * 100}%`]!)).join(' / ')} | ${FRACTIONS.map((f) => pct(m.recallAt[`${f * 100}%`]!)).join(' / ')} | ${m.f1.toFixed(3)} | ${m.toFirst ?? '-'} | ${m.toHalf ?? '-'} | ${m.pagesPerSecond.toFixed(0)} |`,
  );
  return [head, ...rows].join('\n');
}
