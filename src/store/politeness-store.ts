import type { HostPoliteness } from '../frontier/politeness-watch.js';

/**
 * Where a crawling process records its hosts' politeness (PolitenessWatch.drain), so that readers
 * in other processes (serve, report) can show it: one row a host, the waits added up over every
 * run and worker, the latest next-allowed time and delay. Like LabelStore, it stands apart from
 * the Store: it is a view for people, not part of a URL's end.
 */
export interface PolitenessStore {
  /** `waitedMs` of each row is added to what the host has; the other fields replace it (nextAt keeps the later). */
  record(rows: HostPoliteness[]): Promise<void>;
  /** The per-host budget changed (null: none): every host's row takes it, recorded or not in this run. */
  setBudget(budget: number | null): Promise<void>;
}
