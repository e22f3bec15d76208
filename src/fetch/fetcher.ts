import type { FetchResult } from '../types.js';

/** Why a fetch failed; `transient` failures are retried by the engine with backoff. */
export class FetchError extends Error {
  readonly url: string;
  readonly transient: boolean;
  /** Milliseconds the server asked us to wait (Retry-After), if it did. */
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  /**
   * A failure of the connection rather than of the answer: 'no-answer' when no response came
   * (refused, unreachable, DNS, connect or headers timeout, reset before the status line), 'body'
   * when the server answered and the body then failed (timeout, too slow, reset). Host health
   * counts the first toward "unreachable", both toward a host's backoff.
   */
  readonly network: 'no-answer' | 'body' | undefined;
  constructor(
    url: string,
    message: string,
    opts: { transient: boolean; retryAfterMs?: number; status?: number; cause?: unknown; network?: 'no-answer' | 'body' },
  ) {
    super(message, { cause: opts.cause });
    this.name = 'FetchError';
    this.url = url;
    this.transient = opts.transient;
    this.retryAfterMs = opts.retryAfterMs;
    this.status = opts.status;
    this.network = opts.network;
  }
}

/**
 * The verdict that a hop is not the fetcher's to follow but a new request for the crawl to
 * schedule (a hop to another host, held to that host's delay and budget like any URL): the
 * fetch ends with the redirect itself, and FetchResult.movedTo names the hop.
 */
export const HAND_OFF = Object.freeze({ handOff: true as const });
export type HopVerdict = true | string | typeof HAND_OFF;

/**
 * Decides whether a redirect hop may be followed: return true, the reason it may not (out of
 * scope, disallowed by robots.txt), or HAND_OFF. Called before the hop is requested.
 */
export type RedirectGuard = (from: string, to: string) => Promise<HopVerdict> | HopVerdict;

export interface FetchOptions {
  redirectGuard?: RedirectGuard;
  signal?: AbortSignal;
  /** Read the body whatever its content type and status (robots.txt, capabilities documents). */
  anyContentType?: boolean;
  /**
   * Return a 5xx (or 429) answer with its body instead of failing with a transient FetchError:
   * the caller judges it (an OGC exception report often comes with HTTP 500, and is final).
   */
  anyStatus?: boolean;
  /** A total deadline for this request shorter than the fetcher's own (robots.txt). */
  timeoutMs?: number;
  /** What sets `timeoutMs`, as a timeout's reason names it ("robots.txt's 4 s deadline"); without it, "the caller's deadline". */
  timeoutName?: string;
  /**
   * Read at most this many bytes, on the wire and after Content-Encoding is undone (instead of
   * maxBytes and maxDecompressedBytes): a bigger body is cut there and FetchResult.cut is set,
   * where it would otherwise fail (documents read in part: sitemaps).
   */
  cutAt?: number;
}

/**
 * Fetches one URL. Resolves with the response (any HTTP status the engine records: 2xx, 4xx) or
 * rejects with a FetchError. Implementations: HttpFetcher (undici), replay fetchers later.
 */
export interface Fetcher {
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  close(): Promise<void>;
  /** Ends at once, failing the requests in flight (after a write failure: nothing can record them). */
  destroy?(): Promise<void>;
  /** What the user should know of it before the crawl (a recording read only in part), said as the crawl starts. */
  readonly notes?: readonly string[];
}
