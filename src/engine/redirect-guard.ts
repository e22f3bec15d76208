import { setTimeout as sleep } from 'node:timers/promises';
import type { RobotsCache } from '../fetch/robots-cache.js';
import { hostOf } from '../parse/normalize-url.js';
import type { CrawlScope } from './crawl-scope.js';
import { HAND_OFF, type HopVerdict } from '../fetch/fetcher.js';

export interface RedirectGuardOptions {
  scope: CrawlScope;
  robots: RobotsCache | null;
  /** Answers come from a recording: robots.txt's Crawl-delay is not kept. */
  replaying: boolean;
  /** The crawl's delay between requests to a host. */
  delayMs: number;
  /** The longest a hop waits, so that a chain of waits fits the request's total time. */
  maxHopWaitMs: number;
}

/**
 * What each redirect hop of a fetch passes: the scope (only the filters for a service probe,
 * which may sit on any host), robots.txt, and the host's delay, since a hop is a request like any
 * other (a chain of five redirects went out within milliseconds). A page's hop to another host is
 * handed off (HAND_OFF): the crawl schedules it as a URL of that host, so that host's delay,
 * robots.txt and budget hold; a probe's or a sitemap's is followed at once, as a fetcher would.
 * Returns true, HAND_OFF, or the reason the hop is not followed.
 */
export class RedirectGuard {
  constructor(
    readonly o: RedirectGuardOptions,
    /** The run's abort signal (a new one each run): a stop ends a wait and a robots.txt check. */
    readonly signal: () => AbortSignal,
  ) {}

  async check(from: string, to: string, kind: 'page' | 'probe' | 'sitemap' = 'page'): Promise<HopVerdict> {
    const { scope, robots } = this.o;
    const reason = kind === 'probe' ? scope.checkFilters(to) : scope.check(to, hostOf(to));
    // A seed that moved to another host is the usual cause: say what would follow it.
    if (reason === 'out of scope (host)' || reason === 'out of scope (domain)') return `${reason}; --hosts ${hostOf(to)} would allow it`;
    if (reason) return reason;
    const sameHost = hostOf(from) === hostOf(to);
    // Its own host's robots.txt is read when the crawl claims it.
    if (!sameHost && kind === 'page') return HAND_OFF;
    let crawlDelayMs = 0;
    if (robots) {
      const v = await robots.check(to, this.signal());
      if (v.kind !== 'allowed') return 'disallowed by robots.txt';
      if (!this.o.replaying) crawlDelayMs = v.crawlDelayMs;
    }
    const wait = sameHost ? Math.min(Math.max(this.o.delayMs, crawlDelayMs), this.o.maxHopWaitMs) : 0;
    if (wait > 0) await sleep(wait, undefined, { signal: this.signal() }).catch(() => {});
    return true;
  }
}
