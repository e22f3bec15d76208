import type { DiscoveredUrl } from '../store/crawl-graph-reader.js';

/**
 * The pages of a group crawl that led nowhere, for the path discriminator's online learning:
 * fetched, not a target themselves, and every URL found below them in the discovery tree is
 * final (fetched, failed or discarded) without a target among them. A page with links still
 * waiting may yet lead somewhere and is not one. Returned as URLs, in the tree's order.
 */
export function deadEnds(tree: readonly DiscoveredUrl[], isGood: (url: string) => boolean): string[] {
  const good = new Map<string, boolean>();
  const open = new Map<string, boolean>();
  for (const r of tree) {
    good.set(r.url, r.state === 'done' && isGood(r.url));
    // Waiting or being fetched: the subtree is not explored yet.
    open.set(r.url, r.state === 'waiting' || r.state === 'fetching');
  }
  // Children come after their parents, so one pass from the last up carries each subtree's flags to its root.
  for (let i = tree.length - 1; i >= 0; i--) {
    const r = tree[i]!;
    if (r.parent === null) continue;
    if (good.get(r.url)) good.set(r.parent, true);
    if (open.get(r.url)) open.set(r.parent, true);
  }
  return tree.filter((r) => r.parent !== null && r.state === 'done' && !good.get(r.url) && !open.get(r.url)).map((r) => r.url);
}
