import type { HostSummary } from '../src/store/crawl-reader.js';

/** A duration for a table cell: '–' when not recorded. */
export function duration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** When the host may next be contacted, seen from the snapshot's time: 'open' once that has passed. */
export function nextAllowed(at: string | null, now: string): string {
  if (at === null) return '–';
  const left = Date.parse(at) - Date.parse(now);
  return left > 0 ? `in ${duration(left)}` : 'open';
}

/** Fetches against the host's budget, or as a share of the crawl's page budget when it has none. */
export function budgetUsed(h: HostSummary, maxPages: number | null): string {
  if (h.budget !== null) return `${h.fetched} / ${h.budget}`;
  return maxPages ? `${((100 * h.fetched) / maxPages).toFixed(1)} % of max-pages` : '–';
}
