import type { CrawlRequest } from '../types.js';
import type { FetchError } from '../fetch/fetcher.js';
import type { HostHealth } from '../fetch/host-health.js';
import { retryDelay, type RetryPolicy } from '../fetch/retry-policy.js';

/** What becomes of a URL whose request (or robots.txt check) failed. */
export type FailureStep =
  /** Not the URL's fault (the crawl was stopped, its host is unreachable): it waits again, attempts unchanged. */
  | { step: 'release'; notBefore: number }
  | { step: 'retry'; notBefore: number }
  | { step: 'error'; reason: string };

/**
 * Decides a failure's consequence. Pure: `stopped` says the crawl aborted the request, `health`
 * is read, not changed (trackHealth has already recorded the failure).
 */
export function afterFailure(req: CrawlRequest, err: FetchError, now: number, o: { stopped: boolean; health: HostHealth | null; retry: RetryPolicy }): FailureStep {
  if (o.stopped) return { step: 'release', notBefore: now };
  const down = o.health?.unreachable(req.host, now);
  if (down) return { step: 'release', notBefore: down.until };
  if (err.transient) {
    const delay = retryDelay(o.retry, req.attempts + 1, err.retryAfterMs);
    // The host backs off, not just the URL: its next request waits for the later of both.
    if (delay !== null) return { step: 'retry', notBefore: Math.max(now + delay, o.health?.retryAt(req.host, now) ?? 0) };
  }
  // A Retry-After past what a retry waits fails the URL at once; the host is paused (HostHealth.throttled).
  const tooLong = err.transient && err.retryAfterMs !== undefined && err.retryAfterMs > o.retry.maxRetryAfterMs && req.attempts < o.retry.maxRetries;
  if (tooLong) return { step: 'error', reason: `${err.message} (Retry-After ${Math.round(err.retryAfterMs! / 1000)} s, longer than the ${Math.round(o.retry.maxRetryAfterMs / 1000)} s a retry waits)` };
  return { step: 'error', reason: err.transient && req.attempts > 0 ? `${err.message} (after ${req.attempts + 1} attempts)` : err.message };
}

/**
 * The unreachable hosts whose waiting URLs should end now, as errors without a request: when
 * nothing is in flight (the caller's check) and no host can be contacted before their pause ends
 * (`nextReadyAt`, the frontier's), the crawl's only work left is on dead hosts, and waiting for
 * them would hold its end for minutes. While other hosts have work, their URLs wait instead, and
 * a host that comes back in the meantime is crawled after all.
 */
export function hostsToEnd(health: HostHealth | null, nextReadyAt: number | null, now: number): { host: string; reason: string }[] {
  const down = health?.unreachableHosts(now) ?? [];
  if (!down.length) return [];
  if (nextReadyAt !== null && nextReadyAt < down.reduce((m, d) => Math.min(m, d.until), Infinity)) return [];
  return down;
}
