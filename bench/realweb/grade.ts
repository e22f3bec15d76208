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
 * it fetched, not over the budget.
 */
export function grade(order: readonly string[], targets: ReadonlySet<string>, budgets: Record<string, number>): Graded {
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
    harvest[label] = pages > 0 ? got / pages : 0;
  }
  return { recall, harvest, fetched: order.length, found };
}
