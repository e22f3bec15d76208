/** Pure retry decisions, tested without I/O. */

export interface RetryPolicy {
  /** Retries after the first attempt (0 disables retries). Default 2. */
  maxRetries: number;
  /** First backoff; doubled on each further attempt. Default 1000 ms. */
  baseDelayMs: number;
  /** A Retry-After longer than this is not waited for: the URL fails. Default 60 s. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 2, baseDelayMs: 1000, maxRetryAfterMs: 60_000 };

/** HTTP statuses worth another try: the server may answer differently later. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599 && status !== 501);
}

/** Parses Retry-After (delta seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/**
 * After a transient failure at `attempts` failed attempts so far (1 after the first failure),
 * returns the delay before the next try, or null when the URL should fail for good.
 */
export function retryDelay(policy: RetryPolicy, attempts: number, retryAfterMs?: number): number | null {
  if (attempts > policy.maxRetries) return null;
  if (retryAfterMs !== undefined) return retryAfterMs > policy.maxRetryAfterMs ? null : retryAfterMs;
  return policy.baseDelayMs * 2 ** (attempts - 1);
}
