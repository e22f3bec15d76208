import type { CrawlRequest, NewRequest } from '../types.js';
import type { SeenCounters } from '../seen/seen-set.js';

/** How a claimed URL ended. */
export type Outcome =
  | { state: 'done' }
  | { state: 'error'; reason: string }
  | { state: 'discarded'; reason: string };

export interface FrontierCounts {
  waiting: number;
  fetching: number;
  done: number;
  error: number;
  discarded: number;
  /**
   * Of `error`, the URLs that made no request (an unreachable host, a refused private address,
   * host-health.ts madeNoRequest): not fetches, so no page budget counts them.
   */
  notFetched: number;
}

/**
 * How long a claimed URL stays leased to the worker that claimed it when the frontier is not told
 * otherwise. A fetch is bounded by the fetcher's total timeout (60 s by default) and robots.txt
 * (4 s); workers renew leases they hold longer (Crawler: every lease / 3).
 */
export const DEFAULT_LEASE_MS = 120_000;

/** The start of every depth discard's reason (what isTooDeep looks for). */
export const TOO_DEEP = 'deeper than max depth';

/** The discard reason of a link past the depth limit. */
export const tooDeepReason = (maxDepth: number): string => `${TOO_DEEP} ${maxDepth}`;

/**
 * Whether a discard reason is the depth limit's. Depth is the length of the path a URL was found
 * by, and a best-first crawl often finds a URL first down a long path and later by a short one.
 * Scrapy's depth limit and Heritrix's hop rule likewise drop a link without marking it seen.
 */
export const isTooDeep = (reason: string | null): boolean => reason !== null && reason.startsWith(TOO_DEEP);

/** The start of every strategy discard's reason: `discarded by strategy NAME`. */
export const BY_STRATEGY = 'discarded by strategy';

/**
 * Whether a discard may be undone by a later add(): the depth limit's (isTooDeep), and a
 * strategy's, which judged the link on the page it was found on (method B discards "an
 * irrelevant link on an irrelevant page"; the same URL linked from a relevant page is another
 * link, and is scored). Every other discard (scope, robots.txt, traps, a redirect's target) is final.
 */
export const isRevivable = (reason: string | null): boolean => reason !== null && (reason.startsWith(TOO_DEEP) || reason.startsWith(BY_STRATEGY));

/** The start of the reason a redirect's target is recorded with: `fetched through a redirect from URL`. */
export const THROUGH_REDIRECT = 'fetched through a redirect';

/**
 * Whether a discard takes the place of a revivable one: a redirect's target, whose page is in
 * hand, was found by a path the depth limit or the strategy refused before. Any other discard
 * leaves a revivable one as it was (another path may still revive it).
 */
export const takesRevivable = (reason: string | null): boolean => reason !== null && reason.startsWith(THROUGH_REDIRECT);

/** add()'s answer for one URL: true new, 'revived' (a revivable discard before: isRevivable), false a duplicate. */
export type Admission = boolean | 'revived';

/**
 * The crawl frontier: every URL the crawl has seen, in exactly one state (waiting, fetching,
 * done, error, discarded), plus per-host politeness. URLs are known by their key (fingerprint).
 *
 * Lifecycle: add() -> claim() leases a URL (state fetching) until `now + leaseMs` -> renew() while
 * the work lasts -> complete(), retry() or release(). A lease that is never ended (the worker was
 * killed) returns the URL to waiting when it expires (reap(); shared backends, where other
 * workers go on) or when the crawl is reopened (embedded backends, where the only worker is gone).
 * Every method that may need the backend is async; settled(), knownSeen() and seenCounters() are
 * answered locally on purpose (they run once per extracted link).
 *
 * Implementations: MemoryFrontier, SqliteFrontier (embedded), RedisFrontier (shared by workers).
 * test/frontier/describe-frontier.ts is the contract suite every one of them passes.
 */
export interface Frontier {
  /**
   * Adds URLs as waiting. Returns, per URL, true when it was new and false for a duplicate
   * (already waiting, fetching, final, or earlier in the same batch). A duplicate that is still
   * waiting with a lower priority is raised: it takes the new priority and the new request's
   * parent, anchor and carried state (a better parent found it again), and keeps the smaller of
   * the two depths (a deeper path must not push it past the depth limit). A URL discarded as too
   * deep or by the strategy (isRevivable) is revived: it is waiting again with the new request's fields, and is
   * answered 'revived' (truthy, as new: the run's summary tells the two apart, since that URL
   * was counted as a discard before). Any other duplicate is dropped.
   */
  add(batch: NewRequest[], now: number): Promise<Admission[]>;
  /**
   * Records URLs that will not be fetched (out of scope, too deep) as discarded; same return as
   * add(). Revivable ones (too deep, by the strategy: isRevivable) stay revivable by add(), so
   * settled() and knownSeen() answer false for them. A URL discarded revivably before keeps that
   * discard, answered false, unless this reason takes its place (takesRevivable: a redirect's
   * target, fetched now): then it is final with this reason, answered 'revived'.
   */
  discard(batch: NewRequest[], reason: string): Promise<Admission[]>;
  /**
   * A cheap local answer: true means the URL is certainly seen and no longer waiting (leased or
   * final), so offering it again can change nothing; false means new, waiting (a rediscovery may
   * raise it), or "not known here", and add() gives the authoritative answer.
   */
  settled(url: string): boolean;
  /**
   * A cheap local answer to the URL-seen test: true means certainly seen (waiting, leased or
   * final); false means "not known here" and add() gives the authoritative answer.
   */
  knownSeen(url: string): boolean;
  /**
   * Leases up to `max` waiting URLs from hosts whose politeness delay is over, best priority first,
   * until `now + leaseMs` (default DEFAULT_LEASE_MS). An empty result with isFinished() false
   * means "nothing ready now": see nextReadyAt().
   */
  claim(max: number, now: number, leaseMs?: number): Promise<CrawlRequest[]>;
  /** Extends the leases of URLs this worker still works on to `now + leaseMs`; an expired lease is not revived. */
  renew(reqs: CrawlRequest[], now: number, leaseMs: number): Promise<void>;
  /**
   * Returns URLs whose lease expired before `now` to waiting (attempts unchanged) and frees their
   * hosts; returns how many. Embedded backends hold leases in the process: nothing expires.
   */
  reap(now: number): Promise<number>;
  /**
   * The request for a leased URL is over and its page needs nothing more of the host: the host's
   * politeness delay starts now and another of its URLs may be claimed, while this URL stays
   * leased until complete(), retry() or release(). Those then do not free the host a second time
   * (a notBefore they give still holds it), nor does a lease that expires. Optional, and
   * harmless twice. A shared crawl calls it when a response is in: a lease ends only once the
   * page is committed, and a group commit takes tens of milliseconds (docs/operations.md). The
   * embedded crawl does not (UrlEnding.hostDone says why).
   */
  fetched(req: CrawlRequest, now: number): Promise<void>;
  /** Ends a lease with a final state; the host may be contacted again after its delay. */
  complete(req: CrawlRequest, outcome: Outcome, now: number): Promise<void>;
  /** Ends a lease by returning the URL to waiting with attempts + 1; its host waits until `notBefore`. */
  retry(req: CrawlRequest, notBefore: number, now: number): Promise<void>;
  /**
   * Ends a lease without counting an attempt (the crawl was stopped, or the host is unreachable
   * for a while): the URL is waiting again as it was; its host waits until `notBefore`.
   */
  release(req: CrawlRequest, notBefore: number, now: number): Promise<void>;
  /**
   * Leases every waiting URL of `host` at once, whatever its politeness delay and budget, to end
   * them without a request (the host is unreachable). The host's delay is not started.
   */
  claimHost(host: string, now: number): Promise<CrawlRequest[]>;
  /** Sets a host's politeness delay (robots.txt Crawl-delay); never below the configured delay. */
  setHostDelay(host: string, delayMs: number): Promise<void>;
  /**
   * Caps the fetches any one host gets over the whole crawl (a per-site page budget). A host at
   * the cap keeps its waiting URLs, which claim() skips until the cap is raised. Default: no cap.
   */
  setHostBudget(budget: number): Promise<void>;
  /**
   * Recomputes the priority of every waiting URL (a strategy that learned between rounds);
   * `priority` returning null keeps a URL's priority. Durable backends persist the new ones.
   */
  rescore(priority: (req: CrawlRequest) => number | null): Promise<void>;
  /** When claim() may next return something: `now`, a later time, or null when nothing can be. */
  nextReadyAt(now: number): Promise<number | null>;
  counts(): Promise<FrontierCounts>;
  /** Cache hits and misses of this process's URL-seen test, when its seen set has a cache; else null. */
  seenCounters(): SeenCounters | null;
  /** Nothing leased and nothing that claim() could ever hand out (waiting URLs of hosts at their budget do not count). */
  isFinished(): Promise<boolean>;
  close(): Promise<void>;
}
