import { isTooDeep, THROUGH_REDIRECT } from '../frontier/frontier.js';

/**
 * The kind of a discard reason, for counting: reasons name URLs and numbers ("fetched through a
 * redirect from http://...", "deeper than max depth 20"), kinds do not, so a crawl has a handful
 * of kinds however many URLs it discards.
 */
export function discardKind(reason: string): string {
  if (reason.startsWith(THROUGH_REDIRECT)) return 'redirect target (stored under the first URL)';
  if (isTooDeep(reason)) return 'deeper than max depth';
  if (reason.startsWith('out of scope') || reason.startsWith('discarded by strategy') || reason.startsWith('disallowed by robots')) return reason;
  const colon = reason.indexOf(':');
  return colon > 0 ? reason.slice(0, colon) : reason;
}

/** Adds one discard to per-kind counts. */
export function countDiscard(counts: Record<string, number>, reason: string): void {
  const k = discardKind(reason);
  counts[k] = (counts[k] ?? 0) + 1;
}

/** "12 out of scope (host), 3 deeper than max depth", most common first. */
export function discardSummary(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}
