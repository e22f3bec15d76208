import { readableUrl } from '../parse/readable-url.js';
import { getDomain } from 'tldts';
import { hostnameOf, wwwTwin } from './www-twin.js';

export type ScopeMode = 'host' | 'domain' | 'any';

export interface ScopeOptions {
  /** host: the seeds' hosts; domain: their registrable domains (example.co.uk); any: no limit. */
  mode: ScopeMode;
  /** Extra hosts allowed whatever the mode. */
  hosts: string[];
  /** If not empty, a URL must match one of these. */
  allow: RegExp[];
  /** A URL matching one of these is out of scope. */
  deny: RegExp[];
  /** Longer URLs are out of scope. Default DEFAULT_MAX_URL_LENGTH. */
  maxUrlLength?: number;
}

/**
 * 2,083 characters, Scrapy's URLLENGTH_LIMIT (once Internet Explorer's limit): servers refuse far
 * longer URLs (414, 431), and a URL that keeps growing is a trap that the depth limit bounds late.
 */
export const DEFAULT_MAX_URL_LENGTH = 2083;


/** Decides which discovered URLs the crawl may fetch. Pure after construction. */
export class CrawlScope {
  readonly #mode: ScopeMode;
  readonly #hosts = new Set<string>();
  readonly #domains = new Set<string>();
  readonly #allow: RegExp[];
  readonly #deny: RegExp[];
  readonly #maxUrlLength: number;
  readonly #tooLong: string;

  constructor(seedHosts: Iterable<string>, opts: ScopeOptions) {
    this.#mode = opts.mode;
    this.#maxUrlLength = opts.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
    this.#tooLong = `out of scope (longer than ${this.#maxUrlLength} characters)`;
    this.#allow = opts.allow;
    this.#deny = opts.deny;
    for (const h of [...seedHosts, ...opts.hosts.map((h) => h.toLowerCase())]) this.addSeedHost(h);
  }

  /**
   * Widens the scope to a seed added later (resume with more seeds). A name and its `www.` form
   * are one site: `http://example.org/` that redirects to `https://www.example.org/`, as most
   * sites do one way or the other, would otherwise leave a host-scoped crawl with nothing.
   */
  addSeedHost(host: string): void {
    const hn = hostnameOf(host);
    const port = host.slice(hn.length);
    const twin = wwwTwin(hn);
    for (const h of twin ? [hn, twin] : [hn]) {
      this.#hosts.add(h + port);
      this.#hosts.add(h);
      this.#domains.add(getDomain(h) ?? h);
    }
  }

  /** Null when the URL is in scope, else the reason it is not. */
  check(url: string, host: string): string | null {
    if (this.#mode === 'host' && !this.#hosts.has(host)) return 'out of scope (host)';
    if (this.#mode === 'domain' && !this.#hosts.has(host)) {
      const hn = hostnameOf(host);
      if (!this.#domains.has(getDomain(hn) ?? hn)) return 'out of scope (domain)';
    }
    return this.checkFilters(url);
  }

  /**
   * Only the length limit and the allow and deny expressions: what a service probe must pass. A
   * probe is one capabilities request to an endpoint that may sit on any host, not a crawl of that host.
   */
  checkFilters(url: string): string | null {
    if (url.length > this.#maxUrlLength) return this.#tooLong;
    // Every link comes here: with no pattern (the usual crawl) nothing is decoded.
    if (!this.#allow.length && !this.#deny.length) return null;
    // Matched against the URL as stored and as a browser shows it: `--deny 新闻` means /新闻/,
    // which the crawl holds as /%E6%96%B0%E9%97%BB/.
    const shown = readableUrl(url);
    const matches = (r: RegExp) => r.test(url) || (shown !== url && r.test(shown));
    if (this.#allow.length && !this.#allow.some(matches)) return 'out of scope (allow)';
    if (this.#deny.some(matches)) return 'out of scope (deny)';
    return null;
  }
}
