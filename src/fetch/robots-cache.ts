import { FocusCrawlError } from '../errors.js';
import { createRequire } from 'node:module';
import { FetchError, type Fetcher } from './fetcher.js';
import { fixPercentEscapes } from '../parse/normalize-url.js';
import { RobotsRules, robotsPathOf } from './robots-rules.js';

const require = createRequire(import.meta.url);
interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
const robotsParser = require('robots-parser') as (url: string, text: string) => Robot;

/** The part of a robots.txt that is read: RFC 9309's minimum, 500 KiB. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

export interface RobotsOptions {
  /** The product token matched against User-agent lines (RFC 9309 2.2.1). Default 'focuscrawl'. */
  agent: string;
  /** How long a fetched robots.txt is trusted (RFC 9309 2.4: at most 24 hours). Default 24 h. */
  ttlMs: number;
  /**
   * After a 5xx answer the host counts as disallowed this long. Default 60 s. A network failure is
   * not remembered: the next check asks again, and the engine's per-host backoff and host health
   * (host-health.ts) decide when that is, so a dead host is recognised after a few seconds.
   */
  unreachableRetryMs: number;
  /** Longest Crawl-delay honoured; larger values are capped. Default 30 s. */
  maxCrawlDelayMs: number;
  /** Deadline of a robots.txt request: a small file a live host serves at once. Default 4 s. */
  timeoutMs: number;
  /**
   * Origins whose rules are kept; the least recently checked one is dropped past it, and read
   * again if the crawl comes back to it. A parsed robots.txt costs 2 to 14 KB (95 KB for 300
   * rules): unbounded, a crawl of 100,000 hosts held up to 1.4 GB. Default 50,000.
   */
  maxOrigins: number;
}

/** The crawler's product token in robots.txt, `<meta name="focuscrawl">` and X-Robots-Tag with the default User-Agent (robotsAgentOf). */
export const ROBOTS_AGENT = 'focuscrawl';

export const defaultRobotsOptions: RobotsOptions = {
  agent: ROBOTS_AGENT,
  ttlMs: 24 * 3600_000,
  unreachableRetryMs: 60_000,
  maxCrawlDelayMs: 30_000,
  timeoutMs: 4000,
  maxOrigins: 50_000,
};

/** What robots.txt says about one URL. */
export type RobotsVerdict =
  | { kind: 'allowed'; crawlDelayMs: number }
  | { kind: 'disallowed' }
  /** robots.txt could not be read (5xx, network): retry the URL after `retryAfterMs` (undefined: the engine's backoff). */
  | { kind: 'unreachable'; retryAfterMs: number | undefined; reason: string };

interface HostRules {
  robot: Robot | null; // null: allow everything (4xx or empty)
  /** The agent's group of `robot`, matched in linear time; null: ask `robot`. */
  matcher: RobotsRules | null;
  crawlDelayMs: number;
  unreachable: string | null;
  expires: number;
}

/**
 * robots.txt per scheme+host, fetched once and shared by concurrent requests for that host.
 * RFC 9309: 2xx is parsed; 4xx means no restrictions; 5xx or an unreachable host means complete
 * disallow, which here is temporary: the verdict 'unreachable' makes the engine retry later.
 */
export class RobotsCache {
  readonly #fetcher: Fetcher;
  readonly #options: RobotsOptions;
  readonly #rules = new Map<string, HostRules>();
  readonly #pending = new Map<string, Promise<HostRules>>();

  constructor(fetcher: Fetcher, options: Partial<RobotsOptions> = {}) {
    this.#fetcher = fetcher;
    this.#options = { ...defaultRobotsOptions, ...options };
  }

  /**
   * `signal` aborts a robots.txt fetch this check starts (a stopped crawl); the check then rejects
   * with the abort and nothing is remembered about the host.
   */
  async check(url: string, signal?: AbortSignal): Promise<RobotsVerdict> {
    const parsed = new URL(url);
    const origin = parsed.origin;
    let rules = this.#rules.get(origin);
    if (!rules || rules.expires <= Date.now()) rules = await this.#load(origin, signal);
    else {
      // Most recently checked last (a Map keeps insertion order): the first is the one to drop.
      this.#rules.delete(origin);
      this.#rules.set(origin, rules);
    }
    // Read the clock after the (possible) fetch: the wait is counted from when the rules were stored.
    const now = Date.now();
    if (rules.unreachable !== null) {
      const retryAfterMs = rules.expires > 0 ? Math.max(1, rules.expires - now) : undefined;
      return { kind: 'unreachable', retryAfterMs, reason: rules.unreachable };
    }
    if (rules.robot && !this.#allows(rules, url, parsed)) return { kind: 'disallowed' };
    return { kind: 'allowed', crawlDelayMs: rules.crawlDelayMs };
  }

  #allows(rules: HostRules, url: string, parsed: URL): boolean {
    if (rules.matcher) return rules.matcher.allows(robotsPathOf(parsed));
    return rules.robot?.isAllowed(url, this.#options.agent) !== false;
  }

  /**
   * The `Sitemap:` lines of the origin's robots.txt as last read (absolute URLs, in file order);
   * empty when it has none, was not readable, or has not been read yet (check() reads it).
   */
  sitemaps(url: string): string[] {
    const rules = this.#rules.get(new URL(url).origin);
    try {
      return rules?.robot ? rules.robot.getSitemaps() : [];
    } catch {
      return [];
    }
  }

  #load(origin: string, signal: AbortSignal | undefined): Promise<HostRules> {
    let p = this.#pending.get(origin);
    if (!p) {
      p = this.#fetchRules(origin, signal).finally(() => this.#pending.delete(origin));
      this.#pending.set(origin, p);
    }
    return p;
  }

  async #fetchRules(origin: string, signal: AbortSignal | undefined): Promise<HostRules> {
    const robotsUrl = origin + '/robots.txt';
    const now = Date.now();
    let rules: HostRules;
    try {
      // RFC 9309: at least the first 500 KiB are parsed; a larger file is read that far, not refused.
      const res = await this.#fetcher.fetch(robotsUrl, { anyContentType: true, timeoutMs: this.#options.timeoutMs, timeoutName: "robots.txt's own deadline", cutAt: ROBOTS_MAX_BYTES, ...(signal ? { signal } : {}) });
      if (res.status >= 200 && res.status < 300 && res.body) {
        const text = new TextDecoder('utf-8').decode(res.body);
        const robot = robotsParser(robotsUrl, withUnreservedDecoded(text));
        const delay = robot.getCrawlDelay(this.#options.agent);
        rules = {
          robot,
          matcher: RobotsRules.of(robot, this.#options.agent),
          crawlDelayMs: delay && delay > 0 ? Math.min(delay * 1000, this.#options.maxCrawlDelayMs) : 0,
          unreachable: null,
          expires: now + this.#options.ttlMs,
        };
      } else {
        // 4xx (and a 2xx without a readable body): no restrictions.
        rules = { robot: null, matcher: null, crawlDelayMs: 0, unreachable: null, expires: now + this.#options.ttlMs };
      }
    } catch (err) {
      // Aborted, or the crawl's own failure (a WARC that cannot be written): nothing about the host.
      if (signal?.aborted || (err instanceof FocusCrawlError && err.code === 'STORE')) throw err;
      const status = err instanceof FetchError ? err.status : undefined;
      // RFC 9309 2.3.1.2: after too many redirects (or a loop) the file counts as unavailable: no restrictions.
      const redirects = err instanceof FetchError && /^(more than \d+ redirects|redirect loop)/.test(err.message);
      // A 2xx whose body cannot be read (a coding no client knows, "Content-Encoding: utf-8"): the
      // server answered and its file holds no rule a crawler can parse, which RFC 9309 reads as
      // none, as for a 4xx. Held as unreachable, it kept the whole host waiting.
      const unreadable = status !== undefined && status >= 200 && status < 300 && !(err instanceof FetchError && err.network);
      if ((status !== undefined && status >= 400 && status < 500 && status !== 429) || redirects || unreadable) {
        rules = { robot: null, matcher: null, crawlDelayMs: 0, unreachable: null, expires: now + this.#options.ttlMs };
      } else if (err instanceof FetchError && err.network) {
        // Not stored: expires 0 makes the next check fetch again.
        return { robot: null, matcher: null, crawlDelayMs: 0, unreachable: `robots.txt unreachable: ${err.message}`, expires: 0 };
      } else {
        rules = {
          robot: null,
          matcher: null,
          crawlDelayMs: 0,
          unreachable: `robots.txt unreachable: ${(err as Error).message}`,
          expires: now + this.#options.unreachableRetryMs,
        };
      }
    }
    this.#rules.delete(origin);
    this.#rules.set(origin, rules);
    if (this.#rules.size > this.#options.maxOrigins) this.#rules.delete(this.#rules.keys().next().value!);
    return rules;
  }
}

/**
 * The Allow and Disallow paths with percent-escapes of unreserved characters decoded and the
 * others upper-cased, as normalizeUrl writes the URLs they are matched against: RFC 9309 2.2.2
 * matches "/%62%61%7A" with "/baz" and "/%7Ejoe" with "/~joe", which robots-parser, comparing
 * the text as written, did not.
 */
function withUnreservedDecoded(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/^([ \t]*(?:dis)?allow[ \t]*:[^\n]*)$/gim, fixPercentEscapes);
}
