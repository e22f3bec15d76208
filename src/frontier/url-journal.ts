import type { CrawlRequest } from '../types.js';

/**
 * The record a shared frontier keeps of every URL it admits, beside its live state: the crawl's
 * repository (PostgreSQL), from which `focuscrawl rebuild` recreates the live frontier after Redis
 * lost data. Final states reach the record through Store.commit() with the page and log line.
 * Every method is idempotent by key: a redelivered batch changes nothing.
 */
export interface UrlJournal {
  /**
   * True when the journal is also the crawl's Store and keeps its writes in order: nothing
   * handed to it later (a page's commit) commits before added() and raised(), and once one of
   * them fails every later write fails. The frontier then does not wait for those two (a page's
   * links are recorded in the page's own statement or an earlier one) and learns of a failure
   * through the page's commit.
   */
  readonly ordered?: boolean;
  /** URLs that joined the frontier as waiting (or discarded, with the reason). */
  added(reqs: CrawlRequest[], state: 'waiting' | 'discarded', reason: string | null): Promise<void>;
  /** A waiting URL raised by a better parent: its new priority, parent, anchor, depth and state. */
  raised(reqs: CrawlRequest[]): Promise<void>;
  /** Waiting URLs whose priority a rescore changed (a strategy that learned between rounds). */
  rescored(batch: { key: string; priority: number }[]): Promise<void>;
  /** A URL that goes back to waiting after a failed attempt (attempts counted). */
  retried(req: CrawlRequest): Promise<void>;
}
