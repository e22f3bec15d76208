/**
 * The oracle bound of bench/realweb: a crawler that knows the whole link graph and the labels,
 * and still has to fetch a page before it can follow the page's links.
 *
 * The fewest pages that reach every target is a minimum node-weighted Steiner arborescence (root:
 * the start page; terminals: the targets), NP-hard in general. The greedy here builds an
 * achievable fetch order instead: from the pages fetched so far it takes the path (shortest in
 * new pages) whose new pages hold the most targets per page, fetches that path, and repeats until
 * every reachable target is in. Its page count is therefore an upper bound on the exact minimum
 * (and a lower one on what any real crawler needs), and its order gives, at every budget, a
 * recall that a crawler could really reach: the curve the strategies are drawn against.
 */

/** Adjacency lists over page indices 0..n-1; `root` is the start page. */
export interface LinkGraph {
  root: number;
  out: readonly (readonly number[])[];
}

export interface OracleOrder {
  /** Pages in fetch order, root first; each is linked from a page before it. */
  order: number[];
  /** Targets reachable from the root (the ones the order ends up fetching). */
  reachableTargets: number;
  /** order.length: pages needed to fetch every reachable target (greedy upper bound on the minimum). */
  pages: number;
}

/** Pages reachable from the root, by breadth-first search. */
export function reachable(g: LinkGraph): Set<number> {
  const seen = new Set<number>([g.root]);
  const queue = [g.root];
  for (let i = 0; i < queue.length; i++) {
    for (const v of g.out[queue[i]!]!) {
      if (!seen.has(v)) {
        seen.add(v);
        queue.push(v);
      }
    }
  }
  return seen;
}

export function oracleOrder(g: LinkGraph, targets: ReadonlySet<number>): OracleOrder {
  const n = g.out.length;
  const fetched = new Uint8Array(n);
  const order: number[] = [g.root];
  fetched[g.root] = 1;
  const isTarget = (v: number) => (targets.has(v) ? 1 : 0);
  let left = 0;
  for (const t of targets) if (t !== g.root) left++;
  const reach = reachable(g);
  for (const t of targets) if (t !== g.root && !reach.has(t)) left--;
  const reachableTargets = left + (targets.has(g.root) ? 1 : 0);

  const parent = new Int32Array(n);
  const dist = new Int32Array(n);
  const gain = new Int32Array(n);
  while (left > 0) {
    // Multi-source BFS from every fetched page; dist = new pages on the path, gain = targets on it.
    parent.fill(-1);
    dist.fill(-1);
    const queue: number[] = [];
    for (const v of order) {
      dist[v] = 0;
      gain[v] = 0;
      queue.push(v);
    }
    let best = -1;
    let bestRatio = -1;
    for (let i = 0; i < queue.length; i++) {
      const u = queue[i]!;
      for (const v of g.out[u]!) {
        if (dist[v] !== -1) continue;
        dist[v] = dist[u]! + 1;
        parent[v] = u;
        gain[v] = gain[u]! + isTarget(v);
        queue.push(v);
        if (isTarget(v)) {
          const ratio = gain[v]! / dist[v]!;
          // Ties go to the shorter path (BFS meets it first), so early budgets are not wasted.
          if (ratio > bestRatio) {
            bestRatio = ratio;
            best = v;
          }
        }
      }
    }
    if (best < 0) break;
    const path: number[] = [];
    for (let v = best; fetched[v] === 0; v = parent[v]!) path.push(v);
    path.reverse();
    for (const v of path) {
      fetched[v] = 1;
      order.push(v);
      if (isTarget(v)) left--;
    }
  }
  return { order, reachableTargets, pages: order.length };
}

/**
 * Targets the oracle holds after `budget` fetches. Past the end of its order the oracle has every
 * reachable target; before it, the greedy prefix is what it has (a truer bound for one budget
 * would re-plan for that budget, which the greedy does not).
 */
export function oracleFoundAt(o: OracleOrder, targets: ReadonlySet<number>, budget: number): number {
  let n = 0;
  for (let i = 0; i < Math.min(budget, o.order.length); i++) if (targets.has(o.order[i]!)) n++;
  return n;
}
