import type { FrontierCounts } from '../frontier/frontier.js';
import type { ServiceEntry } from '../services/service-registry.js';
import type { ServiceStatus } from '../services/service-record.js';
import type { StopReason } from '../engine/crawler.js';
import type { LogEntry, SearchHit } from './store.js';
import { defaultStrategyName } from '../strategies/default-strategy.js';
import { FocusCrawlError } from '../errors.js';
import { valueShown } from '../config/option-issue.js';


/**
 * Distinct error texts a reader folds into its most-common list: past these, the rarest are left
 * out of the folding (a folded group's count is then counted again in full: foldedErrorPattern).
 */
export const ERROR_TEXTS_READ = 5000;

/**
 * The most common errors, with the URLs inside an error's text written as "…": "redirect to
 * http://other/x not followed: out of scope" for a hundred targets is one line of a hundred, not a
 * hundred lines of one that push every other reason out of the list.
 */
export function commonErrors(rows: readonly { error: string; n: number }[], limit: number): { error: string; n: number }[] {
  const byText = new Map<string, number>();
  for (const r of rows) {
    const text = r.error.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s,;)]+/gi, '…');
    byText.set(text, (byText.get(text) ?? 0) + r.n);
  }
  return [...byText].map(([error, n]) => ({ error, n })).sort((a, b) => b.n - a.n || (a.error < b.error ? -1 : a.error > b.error ? 1 : 0)).slice(0, limit);
}

/**
 * A folded error text as an SQL LIKE pattern (escape character '\\') that matches every text it
 * folded: its "…" parts are '%'. Null for a text with nothing folded.
 */
export function foldedErrorPattern(text: string): string | null {
  if (!text.includes('…')) return null;
  return text.split('…').map((part) => part.replace(/[\\%_]/g, (c) => `\\${c}`)).join('%');
}

/** A library caller's search(query, limit), checked as the CLI's --limit is: -1 returned every page, null failed inside. */
export function checkSearchArguments(query: unknown, limit: unknown): void {
  if (typeof query !== 'string') throw new FocusCrawlError('USAGE', `search(query, limit): query must be a string, not ${valueShown(query)}`);
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) throw new FocusCrawlError('USAGE', `search(query, limit): limit must be a whole number of at least 1, not ${valueShown(limit)}`);
}

/** storedPages(minRelevance): a number, or null for every page ('x' yielded none in silence). */
export function checkMinRelevance(minRelevance: unknown): void {
  if (minRelevance !== null && (typeof minRelevance !== 'number' || Number.isNaN(minRelevance))) {
    throw new FocusCrawlError('USAGE', `storedPages(minRelevance): minRelevance must be a number, or null for every page, not ${valueShown(minRelevance)}`);
  }
}

/** How the last run of a crawl ended, as `status` reports it after the process is gone. */
export interface LastRun {
  reason: StopReason;
  endedAt: string;
  fetched: number;
  discardedBy: Record<string, number>;
}

/** The crawl config as stored with the crawl (the fields the readers show). */
export interface StoredConfig {
  strategy?: string | null;
  topic?: { name?: string; threshold?: number } | null;
  maxPages?: number;
  [field: string]: unknown;
}

/**
 * The strategy that orders a crawl, as its next run would build it: `named`, the one it was
 * started with; `default`, the one the crawl resolved when none was named (adaptive with a topic,
 * bfs without: the same choice crawl-parts.ts plan() makes); `group`, a group database's, whose
 * stored config names none (the group crawler brings its own: bootstrap-group for --method bfc,
 * knn-focused for fc; 'group' when the database predates the method being recorded); `object`,
 * a strategy object given to startCrawl, by its name (no database can hold it: resume asks for it).
 */
export interface CrawlStrategy {
  name: string;
  source: 'named' | 'default' | 'group' | 'object';
}

/** The group crawler's strategy for its --method (group-crawl.ts records it as the meta groupMethod). */
const GROUP_STRATEGY: Record<string, string> = { bfc: 'bootstrap-group', fc: 'knn-focused' };

/** CrawlReader.strategy() from what a crawl stores: its config, and for a group database its driver and method. */
export function crawlStrategy(config: StoredConfig | null, driver: string | null, groupMethod: string | null, strategyObject: string | null = null): CrawlStrategy | null {
  if (driver === 'group') return { name: (groupMethod && GROUP_STRATEGY[groupMethod]) || 'group', source: 'group' };
  // After the group's: the group crawler runs its own strategy object too.
  if (strategyObject) return { name: strategyObject, source: 'object' };
  if (!config) return null;
  if (config.strategy) return { name: config.strategy, source: 'named' };
  return { name: defaultStrategyName(!!config.topic), source: 'default' };
}

/** A point of the harvest curve: after `fetched` fetches, `relevant` relevant pages. */
export interface HarvestPoint {
  fetched: number;
  relevant: number;
}

/** One host as the readers show it. */
export interface HostSummary {
  host: string;
  waiting: number;
  fetched: number;
  relevant: number;
  errors: number;
  /**
   * Politeness, as the crawling processes recorded it (null before any did: a crawl by an older
   * focuscrawl, or a host no request of this crawl reached yet): the delay between requests in
   * force (robots.txt's Crawl-delay when larger than the configured one), the time the host was
   * closed by its delay or a backoff before its requests could start (over every run and
   * worker), and when it may next be contacted.
   */
  delayMs: number | null;
  waitedMs: number | null;
  nextAllowedAt: string | null;
  /**
   * The per-host page budget (`maxPagesPerHost`, or the group crawler's); null: none. `fetched`
   * is what it has used: URLs done or failed after a request (`errors` counts every error,
   * those that ended without a request too).
   */
  budget: number | null;
}

/** A point of a recall curve: after `fetched` fetches, `found` of the target pages were fetched. */
export interface RecallPoint {
  fetched: number;
  found: number;
}

/** A host row with its recorded next-allowed time (epoch ms, null when none) as the readers return it. */
export function withNextAllowed<T extends { nextAt: number | null }>(row: T): Omit<T, 'nextAt'> & { nextAllowedAt: string | null } {
  const { nextAt, ...rest } = row;
  return { ...rest, nextAllowedAt: nextAt === null || nextAt === undefined || Number(nextAt) <= 0 ? null : new Date(Number(nextAt)).toISOString() };
}

/** Priority bands of the waiting URLs (strategies' priorities are mostly in [0, 1], seeds and boosts above). */
export const PRIORITY_BANDS = [
  { band: '≥ 1', min: 1 },
  { band: '0.5 – 1', min: 0.5 },
  { band: '0.25 – 0.5', min: 0.25 },
  { band: '0.1 – 0.25', min: 0.1 },
  { band: '< 0.1', min: -Infinity },
] as const;

/** SQL for a priority's band label, the same in SQLite and PostgreSQL. */
export const PRIORITY_BAND_SQL = `CASE ${PRIORITY_BANDS.filter((b) => b.min !== -Infinity).map((b) => `WHEN priority >= ${b.min} THEN '${b.band}'`).join(' ')} ELSE '${PRIORITY_BANDS.at(-1)!.band}' END`;

/** A stored page as the dashboard lists it. */
export interface PageSummary {
  url: string;
  title: string;
  relevance: number | null;
  /** The priority the strategy gave the URL when it was claimed (the score that ordered it). */
  priority: number;
  depth: number;
}

/** A stored page with its text, as `export --what pages` writes it. */
/** A fetched page's relevance: the URL asked for and the one fetched after redirects. */
export interface FetchedRelevance {
  url: string;
  finalUrl: string;
  relevance: number;
}

export interface StoredPage {
  url: string;
  final_url: string;
  status: number;
  content_type: string;
  fetched_at: string;
  encoding: string | null;
  title: string | null;
  /** The page's text as extracted (boilerplate included); null for a page stored without text. */
  text: string | null;
  relevance: number | null;
  canonical: string | null;
  /** The page asked not to be indexed (robots meta): it is stored but not searchable. */
  noindex: boolean;
}

/** One link on the way from a seed to a page: the URL it led to, its anchor text and scores. */
export interface PathStep {
  url: string;
  anchor: string;
  priority: number;
  /** The relevance of the page at that step, when it was fetched. */
  relevance: number | null;
}

/** A user's judgement of a page (the dashboard's label button). */
export interface PageLabel {
  url: string;
  relevant: boolean;
  labelledAt: string;
}

/** A labelled page with its stored text: samples for `topic learn --db`. */
export interface LabelledPage extends PageLabel {
  title: string;
  text: string;
  /** The state the strategy gave the link that led to the page (LinkDecision.data), for learning strategies. */
  linkData: Record<string, unknown> | null;
}

/**
 * The one read model of a crawl: what `status`, `export`, `search`, `services`, the tests and the
 * dashboard read, whatever holds the crawl (the embedded SQLite file, or PostgreSQL with the live
 * frontier in Redis). Nothing outside the backends reads their tables.
 */
export interface CrawlReader {
  /** The stored crawl config; null when the database holds no crawl. */
  config(): Promise<StoredConfig | null>;
  /** The strategy the crawl runs (the stored config's, its default, or a group crawl's); null when the database holds no crawl. */
  strategy(): Promise<CrawlStrategy | null>;
  lastRun(): Promise<LastRun | null>;
  /**
   * When the latest run started, if it has not recorded its end: running now, or killed or
   * crashed (kill -9 between two requests leaves nothing leased). Null when the latest run
   * recorded its end, or for a shared crawl, whose workers' liveness says the same.
   */
  unendedRunStart(): Promise<string | null>;
  /** URLs by state. */
  urlCounts(): Promise<FrontierCounts>;
  /** Pages stored in the repository. */
  pageCount(): Promise<number>;
  /** Stored pages not yet in the full-text index (the embedded index is updated in batches). */
  unindexed(): Promise<number>;
  /** Pages whose relevance reached `threshold`. */
  countRelevant(threshold: number): Promise<number>;
  /** The most common error reasons, most common first. */
  topErrors(limit: number): Promise<{ error: string; n: number }[]>;
  /** Discarded URLs by kind of reason (discard-reasons.ts). */
  discardedByKind(): Promise<Record<string, number>>;
  serviceCounts(): Promise<Partial<Record<ServiceStatus, number>>>;
  /** The registry's entries, valid ones first; `limit`: the first so many. */
  services(limit?: number): Promise<ServiceEntry[]>;
  /** Sitemap files read, and URLs that joined the frontier from them. */
  sitemapCounts(): Promise<{ files: number; urls: number }>;
  /** The crawl log in order; `after` skips entries up to that seq (live readers poll with it). */
  logEntries(after?: number): AsyncIterable<LogEntry>;
  /** Relevant pages found over fetches, in crawl order, `points` points at most. */
  harvestCurve(threshold: number, points: number): Promise<HarvestPoint[]>;
  /**
   * How many of `urls` (normalised page URLs: the pages labelled relevant, or a ground-truth list)
   * were fetched by each point of the harvest curve (same fetches, same thinning), in crawl order.
   * A URL counts when it was requested or when a redirect ended on it.
   */
  recallCurve(urls: readonly string[], points: number): Promise<RecallPoint[]>;
  /** Hosts with the most fetches first. */
  hosts(limit: number, threshold: number | null): Promise<HostSummary[]>;
  search(query: string, limit: number): Promise<SearchHit[]>;
  /** Waiting URLs by priority band (PRIORITY_BANDS), every band present, highest first. */
  waitingByPriority(): Promise<{ band: string; n: number }[]>;
  /** Stored pages whose relevance reached `threshold`, most relevant first. */
  relevantPages(threshold: number, limit: number): Promise<PageSummary[]>;
  /**
   * Every stored page with its text, in the order fetched (then by URL); only those whose
   * relevance reached `minRelevance` when it is given. Streams: a corpus does not fit in memory.
   */
  storedPages(minRelevance?: number | null): AsyncIterable<StoredPage>;
  /**
   * The relevance of every page the crawl fetched and scored, from the crawl log (small rows), in
   * batches of at most `batch`, in crawl order: what a strategy reads back when a crawl resumes or
   * a worker starts (Strategy.restorePages).
   */
  fetchedRelevance(batch?: number): AsyncIterable<FetchedRelevance[]>;
  /**
   * The anchor path of each URL from its seed (seed first, the page itself last), for the stored
   * pages among `urls`; at most `maxSteps` steps back (a trap can make paths long).
   */
  anchorPaths(urls: string[], maxSteps?: number): Promise<Record<string, PathStep[]>>;
  /** The labels given so far (the dashboard's label button), newest first; none before the first. */
  labels(): Promise<PageLabel[]>;
  /** Labelled pages that are stored, with their title and text; only those of `urls` when given. */
  labelledPages(urls?: readonly string[]): Promise<LabelledPage[]>;
  close(): Promise<void>;
}
