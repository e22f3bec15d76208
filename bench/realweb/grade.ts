/** Recall and harvest of one fetch order at budgets given in pages (the crawl log's order). */
export interface Graded {
  recall: Record<string, number>;
  harvest: Record<string, number>;
  fetched: number;
  /** Targets found after each fetch, for the curves. */
  found: number[];
}

/**
 * `budgets` maps a label ("10" for 10% of the reachable pages) to a page count. A crawl that
 * stopped before a budget (it ran out of links) keeps what it had: harvest is then over the pages
 * it fetched, not over the budget. An ordering that is a bound (`over: 'budget'`: the oracle's,
 * which ends once it has every target) has its harvest over the whole budget: the most a crawl
 * of that many pages can have, not targets over the oracle's few pages.
 */
export function grade(order: readonly string[], targets: ReadonlySet<string>, budgets: Record<string, number>, over: 'fetched' | 'budget' = 'fetched'): Graded {
  const found: number[] = [];
  let n = 0;
  for (const url of order) {
    if (targets.has(url)) n++;
    found.push(n);
  }
  const recall: Record<string, number> = {};
  const harvest: Record<string, number> = {};
  for (const [label, k] of Object.entries(budgets)) {
    const pages = Math.min(k, found.length);
    const got = pages > 0 ? found[pages - 1]! : 0;
    recall[label] = targets.size ? got / targets.size : 0;
    const window = over === 'budget' ? k : pages;
    harvest[label] = window > 0 ? got / window : 0;
  }
  return { recall, harvest, fetched: order.length, found };
}
