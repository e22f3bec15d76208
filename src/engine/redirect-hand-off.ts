import type { CrawlRequest, FetchResult, NewRequest } from '../types.js';
import type { Frontier } from '../frontier/frontier.js';
import { hostOf } from '../parse/normalize-url.js';
import type { TrapGuard } from './trap-guard.js';
import type { Discard } from './link-admission.js';
import type { EndingExtra } from './url-ending.js';
import type { Outcome } from '../frontier/frontier.js';

export interface RedirectHandOffDeps {
  frontier: Frontier;
  traps: TrapGuard | null;
  /** Redirects a chain may take across hosts, as one fetch may take within one. */
  maxRedirects: number;
  finish(req: CrawlRequest, outcome: Outcome, res: FetchResult | null, extra?: EndingExtra): Promise<void>;
  logDiscards(discards: Discard[], parentUrl: string | null): Promise<void>;
}

/**
 * A page's redirect to another host (RedirectGuard's HAND_OFF), as a URL of that host: queued
 * with the redirecting URL's depth, priority, anchor and carried state (a hop is no link), so that
 * host's delay, robots.txt and budget hold for it. The redirecting URL ends done, its log line
 * naming where it went. Two hosts redirecting to each other with a counter in the URL never repeat
 * a URL: the chain is bounded by `maxRedirects` as one fetch's is. The count travels with the
 * queued URL (CrawlRequest.redirected, kept by every frontier and store), so it holds whichever
 * worker fetches the next hop, and across a resume.
 */
export class RedirectHandOff {
  constructor(readonly d: RedirectHandOffDeps) {}

  /** Redirects that led to this URL from other hosts (0 for a URL found as a link). */
  hopsBefore(req: CrawlRequest): number {
    return req.redirected ?? 0;
  }

  /** Queues `to` for `req`, whose fetch ended on a redirect to it after `hops` redirects in all. */
  async handOff(req: CrawlRequest, res: FetchResult, to: string, hops: number): Promise<void> {
    const { frontier, traps, maxRedirects } = this.d;
    if (hops > maxRedirects) return this.d.finish(req, { state: 'error', reason: `more than ${maxRedirects} redirects (across hosts, the last to ${to})` }, res);
    const target: NewRequest = { url: to, host: hostOf(to), depth: req.depth, parent: req.key, anchor: req.anchor, priority: req.priority, data: req.data ?? null, redirected: hops };
    const trap = traps?.check(to, req.url) ?? null;
    if (trap) {
      const [fresh] = await frontier.discard([target], trap);
      if (fresh) await this.d.logDiscards([{ req: target, reason: trap }], req.url);
      return this.d.finish(req, { state: 'done' }, res, { note: `redirected to ${to}, not followed: ${trap}` });
    }
    const [admitted] = await frontier.add([target], Date.now());
    if (admitted) traps?.admitted(to, req.url);
    return this.d.finish(req, { state: 'done' }, res, { note: admitted ? `redirected to ${to} (another host: queued)` : `redirected to ${to} (another host: already seen)` });
  }
}
