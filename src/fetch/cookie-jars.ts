import { CookieJar } from 'tough-cookie';
import { getDomain } from 'tldts';

/** Sites whose cookies are kept; past it the site used least recently loses its cookies. */
export const MAX_COOKIE_SITES = 10_000;
/** Cookies kept for one site (RFC 6265 6.1 asks for at least 50); a site that sets more loses them all. */
export const MAX_COOKIES_PER_SITE = 50;
/** Bytes of a cookie's name and value (RFC 6265 6.1's 4096, as browsers enforce): longer ones are ignored. */
export const MAX_COOKIE_BYTES = 4096;
/**
 * Characters of a whole Set-Cookie line: the name and value, plus its attributes (RFC 6265bis
 * ignores an attribute value over 1,024 bytes; tough-cookie keeps a Path or an unknown
 * attribute of any length). A longer line is ignored.
 */
export const MAX_SET_COOKIE_LINE = 8192;
/** Characters of Set-Cookie lines kept over all sites; past it the sites used least recently lose their cookies. */
export const MAX_COOKIE_TOTAL = 16 * 1024 * 1024;

interface SiteJar {
  jar: CookieJar;
  /** Cookies set since the last exact count: an upper bound of what the jar holds. */
  bound: number;
  /** Characters of the lines set since the jar was last emptied: an upper bound of what it holds. */
  chars: number;
  /** Times the cookies sent to an answering URL changed: a redirect back to that URL with new cookies is no loop. */
  version: number;
}

/**
 * The cookies sites set, sent back as a browser would (RFC 6265, through tough-cookie: domain and
 * path matching, expiry, Secure, public suffixes refused as cookie domains), as Scrapy's
 * CookiesMiddleware and Crawlee's sessions do. Some sites answer a first visit with a cookie and
 * a redirect and loop without it.
 *
 * One jar per site (registrable domain), in memory only: a crawl of many hosts keeps at most
 * MAX_COOKIE_SITES jars of MAX_COOKIES_PER_SITE cookies, so a site that sets a new cookie on
 * every answer cannot grow the crawl's memory. Nothing is stored: a resumed crawl, and each worker
 * of a shared crawl, starts with no cookies (as a Scrapy job does).
 */
export class CookieJars {
  readonly #sites = new Map<string, SiteJar>();
  /** The sum of the jars' `chars`. */
  #chars = 0;

  /** The Cookie header for `url`, or '' when the site set none. */
  header(url: string, host: string): string {
    if (this.#sites.size === 0) return '';
    const site = this.#sites.get(siteOf(host));
    if (!site) return '';
    return site.jar.getCookieStringSync(url);
  }

  /** How often `host`'s site has set a cookie: equal before and after a request, the site's cookies did not change. */
  version(host: string): number {
    return this.#sites.size === 0 ? 0 : (this.#sites.get(siteOf(host))?.version ?? 0);
  }

  /** Keeps the cookies of one answer (`setCookie`: its Set-Cookie headers, the first MAX_COOKIES_PER_SITE) from `url`. */
  store(url: string, host: string, setCookie: string | string[] | undefined): void {
    if (setCookie === undefined) return;
    // A browser keeps about that many a site anyway; 10,000 Set-Cookie lines (256 KB of headers) took 0.24 s.
    const lines = (Array.isArray(setCookie) ? setCookie.slice(0, MAX_COOKIES_PER_SITE) : [setCookie]).filter((line) => {
      const semicolon = line.indexOf(';');
      return line.length <= MAX_SET_COOKIE_LINE && (semicolon < 0 ? line.length : semicolon) <= MAX_COOKIE_BYTES;
    });
    if (lines.length === 0) return;
    const key = siteOf(host);
    let site = this.#sites.get(key);
    if (site) {
      // Most recently used last: the first entry is the one to forget.
      this.#sites.delete(key);
      this.#sites.set(key, site);
    } else {
      site = { jar: new CookieJar(), bound: 0, chars: 0, version: 0 };
      this.#sites.set(key, site);
    }
    const before = site.jar.getCookieStringSync(url);
    for (const line of lines) {
      // A malformed or foreign cookie (another site's domain, a public suffix) is ignored, as a browser does.
      if (!site.jar.setCookieSync(line, url, { ignoreError: true })) continue;
      site.chars += line.length;
      this.#chars += line.length;
      if (++site.bound > MAX_COOKIES_PER_SITE) {
        const kept = site.jar.serializeSync()?.cookies ?? [];
        site.bound = kept.length;
        this.#chars -= site.chars;
        site.chars = site.bound > MAX_COOKIES_PER_SITE ? 0 : kept.reduce((n, c) => n + JSON.stringify(c).length, 0);
        this.#chars += site.chars;
        if (site.bound > MAX_COOKIES_PER_SITE) {
          site.jar.removeAllCookiesSync();
          site.bound = 0;
        }
      }
    }
    // The same cookie sent again on every answer changes nothing, so a redirect loop stays one.
    if (site.jar.getCookieStringSync(url) !== before) site.version++;
    this.#evict();
  }

  /** Forgets the sites used least recently while there are too many, or their cookies too large. */
  #evict(): void {
    while (this.#sites.size > MAX_COOKIE_SITES || (this.#chars > MAX_COOKIE_TOTAL && this.#sites.size > 1)) {
      const [key, site] = this.#sites.entries().next().value!;
      this.#chars -= site.chars;
      this.#sites.delete(key);
    }
  }

  /** Sites with cookies kept. */
  get sites(): number {
    return this.#sites.size;
  }
}

/** The jar a host's cookies go to: its registrable domain, else the host itself (IP addresses, localhost). */
function siteOf(host: string): string {
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}
