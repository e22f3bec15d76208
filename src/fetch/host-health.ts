import type { FetchResult } from '../types.js';
import { hostOf } from '../parse/normalize-url.js';
import { FetchError, type Fetcher, type FetchOptions } from './fetcher.js';

export interface HostHealthOptions {
  /**
   * Failures without an answer in a row (refused, unreachable, connect or headers timeout) before
   * a host is unreachable, for at least two different URLs. Default 3.
   */
  maxFailures: number;
  /**
   * Unanswered robots.txt requests in a row before a host is unreachable. robots.txt is the first
   * and smallest request to a host, fetched with a short timeout: two silences are enough to call
   * a host dead, so a crawl whose last work is on a dead partner ends seconds after its last live
   * request. Default 2.
   */
  maxRobotsFailures: number;
  /** How long a host stays unreachable the first time; doubled each time it fails again after that. Default 5 min. */
  downMs: number;
  /** Longest time a host stays unreachable. Default 1 h. */
  maxDownMs: number;
  /** Backoff after a host's first network failure, doubled with each further one in a row (failures of requests in flight together count once). Default 1 s. */
  backoffBaseMs: number;
  /** Longest backoff. Default 60 s. */
  maxBackoffMs: number;
}

export const defaultHostHealthOptions: HostHealthOptions = {
  maxFailures: 3,
  maxRobotsFailures: 2,
  downMs: 5 * 60_000,
  maxDownMs: 60 * 60_000,
  backoffBaseMs: 1000,
  maxBackoffMs: 60_000,
};

export { fetchedSql, madeNoRequest, madeNoRequestSql, ROBOTS_UNREACHABLE_PREFIX, UNREACHABLE_PREFIX } from './made-no-request.js';
import { madeNoRequest, ROBOTS_UNREACHABLE_PREFIX, UNREACHABLE_PREFIX } from './made-no-request.js';

interface HostState {
  /** Network failures in a row, answered or not, those in flight together counted once (drives the backoff). */
  strikes: number;
  /** Failures in a row with no answer at all, retries included (drives "unreachable"). */
  silent: number;
  /** Of those, robots.txt requests. */
  robotsSilent: number;
  /** The different URLs behind `silent` (the first maxFailures, at least two, are enough to know). */
  silentUrls: string[];
  /** The failures in a row that marked the host unreachable, and the last one's cause (its reason says them). */
  markedAfter: number;
  markedCause: string;
  lastFailureAt: number;
  /** Unreachable until then (0: not marked). */
  until: number;
  /** Times marked unreachable without an answer since. */
  downs: number;
  cause: string;
  /** Asked to slow down (429, 503) until then: no request of the host before (0: not held). */
  heldUntil: number;
}

/** Hosts remembered as having served a page (a FIFO past it: a forgotten one is judged as new). */
const MAX_SERVED_HOSTS = 65_536;

/**
 * Per-host record of network failures, fed by every request (pages, robots.txt, service probes).
 * A host whose requests fail `maxFailures` times in a row without an answer, for at least two
 * different URLs, is unreachable for a while (two unanswered robots.txt requests are enough:
 * `maxRobotsFailures`); once that time is over, the next request is a trial: one more failure
 * marks it again for twice as long, an answer forgets everything. One URL that hangs, retried
 * with nothing else in between, is that URL's problem and never marks its host. But once a
 * second URL has failed silently too, retries count like any other request: a host that answered
 * robots.txt and then hangs on every service path was held for 70 s when each URL counted once
 * (two URLs and their retries at a 15 s headers timeout before a third was tried;
 * bench/services/dead-partner). That holds until the host serves a page: from then on it takes
 * `maxFailures` different URLs failing in a row, since with two requests in flight two pages that
 * hang and their retries were three failures in a row, and a live site lost all its other pages
 * as "host unreachable" before any of them was asked for. robots.txt counts every time, since a
 * host that cannot serve it cannot be crawled. Pure apart from the clock values it is given; only hosts with failures since
 * their last answer are kept.
 */
export class HostHealth {
  readonly options: HostHealthOptions;
  readonly #hosts = new Map<string, HostState>();
  readonly #served = new Set<string>();

  constructor(options: Partial<HostHealthOptions> = {}) {
    this.options = { ...defaultHostHealthOptions, ...options };
  }

  /** Hosts with a record: failures since their last answer, or a pause in force. */
  get size(): number {
    return this.#hosts.size;
  }

  /** The host answered (any HTTP status, a complete body) at `now`; `page`: not robots.txt. */
  answered(host: string, now: number, page = true): void {
    if (page && !this.#served.has(host)) {
      this.#served.add(host);
      if (this.#served.size > MAX_SERVED_HOSTS) this.#served.delete(this.#served.values().next().value!);
    }
    const s = this.#hosts.get(host);
    if (!s) return;
    // A pause the host asked for (429, 503) stays in force: with two requests in flight, the
    // other one's 200 would have ended it at once. The answer forgets the failures all the same.
    // Once the pause is over the record goes: every host that ever asked for one was kept.
    if (s.heldUntil > now) Object.assign(s, { strikes: 0, silent: 0, robotsSilent: 0, silentUrls: [], markedAfter: 0, markedCause: '', lastFailureAt: 0, until: 0, downs: 0, cause: '' });
    else this.#hosts.delete(host);
  }

  /** A network failure of `url`: `answered` when the server had sent its status line (the body failed). */
  failed(host: string, url: string, cause: string, answered: boolean, now: number): void {
    let s = this.#hosts.get(host);
    if (!s) {
      s = this.#fresh(host);
    }
    this.#strike(s, now);
    s.cause = cause;
    if (answered) {
      s.silent = 0;
      s.robotsSilent = 0;
      s.silentUrls = [];
      return;
    }
    const robots = url.endsWith('/robots.txt');
    const { maxFailures } = this.options;
    if (s.silentUrls.length < Math.max(2, maxFailures) && !s.silentUrls.includes(url)) s.silentUrls.push(url);
    s.silent++;
    if (robots) s.robotsSilent++;
    const silentEnough = this.#served.has(host)
      ? s.silentUrls.length >= maxFailures
      : s.silent >= maxFailures && s.silentUrls.length >= Math.min(2, maxFailures);
    // A failure while already marked (a request that was in flight) does not extend the mark.
    if ((silentEnough || s.robotsSilent >= this.options.maxRobotsFailures) && s.until <= now) {
      s.until = now + Math.min(this.options.maxDownMs, this.options.downMs * 2 ** s.downs);
      s.downs++;
      s.markedAfter = s.silent;
      s.markedCause = cause;
    }
  }

  /**
   * The host answered 429 or 503: it asks the crawl to slow down. Its requests pause for its
   * Retry-After, or without one for the backoff of its failures in a row (1, 2, 4 ... s), at
   * most `maxBackoffMs` either way; every URL of the host waits (heldUntil), not only the one
   * that was answered so. Before, such an answer cleared the host's record like any other, so an
   * overloaded server saw the next URL a delay later, and a Retry-After of an hour failed one URL
   * and let the rest go on at full pace.
   */
  throttled(host: string, now: number, retryAfterMs: number | undefined): void {
    const s = this.#hosts.get(host) ?? this.#fresh(host);
    this.#strike(s, now);
    s.silent = 0;
    s.robotsSilent = 0;
    s.silentUrls = [];
    const pause = retryAfterMs ?? this.options.backoffBaseMs * 2 ** (s.strikes - 1);
    s.heldUntil = Math.max(s.heldUntil, now + Math.min(this.options.maxBackoffMs, pause));
  }

  /** Until when `host` asked the crawl to wait (throttled), if that is after `now`; else null. */
  heldUntil(host: string, now: number): number | null {
    const s = this.#hosts.get(host);
    return s && s.heldUntil > now ? s.heldUntil : null;
  }

  /**
   * Until when no request may go to `host`, whichever holds it (unreachable, or a pause it asked
   * for), if that is after `now`; else null. A URL claimed meanwhile waits again, unfetched.
   */
  pausedUntil(host: string, now: number): number | null {
    const until = Math.max(this.unreachable(host, now)?.until ?? 0, this.heldUntil(host, now) ?? 0);
    return until > now ? until : null;
  }

  /**
   * One more strike, unless the host is still backing off from the last: a failure within the
   * backoff almost always came from a request in flight beside the last one (a retry never starts
   * during it), and the two are one strike. Counted one each, four pages of one host closing
   * mid-body together paused it 8 s, the next four 60 s.
   */
  #strike(s: HostState, now: number): void {
    if (s.strikes === 0 || now >= s.lastFailureAt + this.#backoff(s.strikes)) s.strikes++;
    s.lastFailureAt = now;
  }

  #backoff(strikes: number): number {
    return Math.min(this.options.maxBackoffMs, this.options.backoffBaseMs * 2 ** (strikes - 1));
  }

  #fresh(host: string): HostState {
    const s: HostState = { strikes: 0, silent: 0, robotsSilent: 0, silentUrls: [], markedAfter: 0, markedCause: '', lastFailureAt: 0, until: 0, downs: 0, cause: '', heldUntil: 0 };
    this.#hosts.set(host, s);
    return s;
  }

  /** While `host` is unreachable: until when, and the reason its URLs end with. */
  unreachable(host: string, now: number): { until: number; reason: string } | null {
    const s = this.#hosts.get(host);
    if (!s || s.until <= now) return null;
    // What marked it: a failed body since (an answer) restarted the count, not the mark.
    return { until: s.until, reason: `${UNREACHABLE_PREFIX}${s.markedCause} (${s.markedAfter} ${s.markedAfter === 1 ? 'failure' : 'failures'} in a row)` };
  }

  /** Hosts unreachable at `now`. */
  unreachableHosts(now: number): { host: string; until: number; reason: string }[] {
    const out: { host: string; until: number; reason: string }[] = [];
    for (const host of this.#hosts.keys()) {
      const u = this.unreachable(host, now);
      if (u) out.push({ host, ...u });
    }
    return out;
  }

  /**
   * The earliest time to contact `host` again after a failure: the end of its backoff (from its
   * last failure, doubled per failure in a row) or of its unreachable period; 0 when none.
   */
  retryAt(host: string, now: number): number {
    const s = this.#hosts.get(host);
    if (!s) return 0;
    if (s.until > now) return s.until;
    return Math.max(s.heldUntil, s.lastFailureAt + this.#backoff(s.strikes));
  }
}

/**
 * Wraps a fetcher so that every request's outcome reaches `health`. A request the caller aborted
 * (the crawl was stopped) says nothing about the host and is not recorded.
 */
export function trackHealth(fetcher: Fetcher, health: HostHealth): Fetcher {
  return {
    async fetch(url: string, options?: FetchOptions): Promise<FetchResult> {
      const host = hostOf(url);
      // robots.txt answered says the host is up, not that it serves pages (HostHealth.answered).
      const page = !url.endsWith('/robots.txt');
      try {
        const res = await fetcher.fetch(url, options);
        health.answered(host, Date.now(), page);
        return res;
      } catch (err) {
        if (!options?.signal?.aborted && err instanceof FetchError) {
          if (err.network) health.failed(host, url, err.message, err.network === 'body', Date.now());
          else if (err.status === 429 || err.status === 503) health.throttled(host, Date.now(), err.retryAfterMs);
          else health.answered(host, Date.now(), page);
        }
        throw err;
      }
    },
    close: () => fetcher.close(),
  };
}
