import type { CrawlRequest, FetchResult, Link, NewRequest } from '../types.js';
import type { Frontier, Outcome } from '../frontier/frontier.js';
import { FetchError, type Fetcher, type HopVerdict } from '../fetch/fetcher.js';
import type { RobotsCache } from '../fetch/robots-cache.js';
import { decompressPrefix } from '../fetch/decompress.js';
import { hostOf, normalizeUrl } from '../parse/normalize-url.js';
import { isGzipBody, parseSitemap } from '../parse/sitemap.js';
import { xmlText } from '../parse/xml-text.js';
import type { PageView } from '../strategies/strategy.js';
import type { CrawlScope } from './crawl-scope.js';
import type { CrawlStats } from './crawl-stats.js';
import { SitemapSites } from './sitemap-sites.js';

/** Limits of sitemap reading (the protocol's: 50,000 URLs and 50 MB uncompressed per file). */
export interface SitemapOptions {
  /** Entries read from one sitemap file; the rest are cut. Default 50,000. */
  maxUrls: number;
  /** Bytes read from one sitemap file, uncompressed; the rest are cut. Default 50 MB. */
  maxBytes: number;
  /** Sitemap files fetched per site, index children included. Default 50. */
  perSite: number;
  /** Levels followed: 1, the sitemaps robots.txt names (or /sitemap.xml); 2, also those an index lists. Default 2. */
  levels: number;
}

export const defaultSitemapOptions: SitemapOptions = { maxUrls: 50_000, maxBytes: 50_000_000, perSite: 50, levels: 2 };

/**
 * Priority of a sitemap file in its host's queue: above any page, so its URLs join the frontier
 * early and the strategy orders them with the rest.
 */
export const SITEMAP_PRIORITY = 1e6;

/** What sitemap reading needs of the crawl it is part of. */
export interface SitemapCrawl {
  frontier: Frontier;
  scope: CrawlScope;
  robots: RobotsCache | null;
  fetcher: Fetcher;
  stats: CrawlStats;
  /** Whether the crawl scores relevance (a sitemap is seen with relevance 0, else null). */
  topic(): boolean;
  signal(): AbortSignal;
  redirectGuard(from: string, to: string): Promise<HopVerdict>;
  finish(req: CrawlRequest, outcome: Outcome, res: FetchResult | null, extra?: { note?: string }): Promise<void>;
  failed(req: CrawlRequest, err: FetchError): Promise<void>;
  addLinks(parent: CrawlRequest, links: Link[], view: PageView): Promise<number>;
  logDiscards(discards: { req: NewRequest; reason: string }[], parentUrl: string | null): Promise<void>;
}

/**
 * The sitemaps of the sites a crawl visits: offered to the frontier once per site (robots.txt
 * `Sitemap:` lines, else /sitemap.xml), fetched through it like pages, and read into links of
 * their own kind. Per-site counts are this process's; the frontier dedups across resumes.
 */
export class SitemapReading {
  readonly #opts: SitemapOptions | null;
  readonly #c: SitemapCrawl;
  /** Sites (origins) whose sitemaps were offered to the frontier in this process, with the files offered for each. */
  readonly #sites = new SitemapSites();

  constructor(opts: SitemapOptions | null, crawl: SitemapCrawl) {
    this.#opts = opts;
    this.#c = crawl;
  }

  /**
   * On the first request of a site (origin) this process handles, once robots.txt has been read
   * (or at once without robots): its sitemap files join the frontier, the `Sitemap:` lines of
   * robots.txt, else the guessed /sitemap.xml. A named sitemap file out of scope is discarded like
   * a link; a guessed one is not offered. The frontier's dedup makes this idempotent across resumes.
   */
  async offer(req: CrawlRequest): Promise<void> {
    const opts = this.#opts;
    // A service probe visits an endpoint, not a site's pages: a partner host reached only by probes gets no sitemap.
    if (!opts || req.probe) return;
    let site: string;
    try {
      site = new URL(req.url).origin;
    } catch {
      return;
    }
    if (this.#sites.has(site)) return;
    this.#sites.offered(site);
    const named = this.#c.robots?.sitemaps(req.url) ?? [];
    const guessed = named.length === 0;
    const urls = guessed ? [site + '/sitemap.xml'] : named;
    await this.#queue(site, urls, 1, guessed, null, '');
  }

  /** Offers sitemap files of a site at a level, within the per-site cap; out of scope ones are discarded. */
  async #queue(site: string, raw: string[], level: number, guessed: boolean, parent: CrawlRequest | null, parentUrl: string): Promise<string | null> {
    const opts = this.#opts!;
    const batch: NewRequest[] = [];
    let dropped = 0;
    for (const r of raw) {
      const url = normalizeUrl(r);
      if (!url) continue;
      const host = hostOf(url);
      const req: NewRequest = { url, host, depth: 0, parent: parent?.key ?? null, anchor: '', priority: SITEMAP_PRIORITY, data: null, sitemap: { site, level, ...(guessed ? { guessed: true } : {}) } };
      const out = this.#c.scope.check(url, host);
      // The guessed /sitemap.xml is no link anyone wrote: out of scope it is not offered, and not counted as a discard.
      if (out && guessed) continue;
      if (out) {
        const [fresh] = await this.#c.frontier.discard([req], out);
        if (fresh) await this.#c.logDiscards([{ req, reason: out }], parentUrl || null);
        continue;
      }
      // A URL listed twice (an index naming one file 60 times) is one file against the cap.
      const offered = this.#sites.offered(site);
      if (offered.has(url)) continue;
      if (offered.size >= opts.perSite) {
        dropped++;
        continue;
      }
      offered.add(url);
      batch.push(req);
    }
    if (batch.length) await this.#c.frontier.add(batch, Date.now());
    return dropped ? `${dropped} sitemaps over the limit of ${opts.perSite} per site not read` : null;
  }

  /**
   * Reads a sitemap file: an index offers its child sitemaps (up to SitemapOptions.levels), a
   * urlset offers its URLs as links of their own kind (Link.sitemap, with lastmod) at depth 1,
   * through the checks and the strategy every link passes (the crawler's addLinks). The sitemap is not a page:
   * the strategy sees it with relevance 0 and no carried state, so a sitemap URL is ranked by its
   * own evidence (its URL's words as the link's context) and topical links found on pages rank
   * above bare sitemap URLs. Gzip (Content-Encoding or a gzip body, .xml.gz) is undone; a file
   * over maxUrls or maxBytes is cut there, the cut noted on its log entry; a malformed one ends
   * as an error with the parser's reason (the URLs read before the fault are kept).
   */
  async read(req: CrawlRequest): Promise<void> {
    const opts = this.#opts ?? defaultSitemapOptions;
    const sm = req.sitemap!;
    let res: FetchResult;
    try {
      res = await this.#c.fetcher.fetch(req.url, { anyContentType: true, cutAt: opts.maxBytes, redirectGuard: (from, to) => this.#c.redirectGuard(from, to), signal: this.#c.signal() });
    } catch (err) {
      if (err instanceof FetchError) return this.#c.failed(req, err);
      throw err;
    }
    this.#c.stats.bytes += res.bytes;
    this.#c.stats.sitemaps++;
    // Most sites have no /sitemap.xml: when the guess is answered 404 or 410 the site said so, and a
    // crawl that went well does not end with an error for a file it only guessed at.
    if (sm.guessed && (res.status === 404 || res.status === 410)) return this.#c.finish(req, { state: 'done' }, res, { note: `sitemap: none (HTTP ${res.status} for the guessed /sitemap.xml)` });
    if (res.status >= 400) return this.#c.finish(req, { state: 'error', reason: `HTTP ${res.status}` }, res, { note: 'sitemap' });
    let body = res.body ?? new Uint8Array(0);
    let bodyCut = res.cut ? `cut at ${opts.maxBytes} bytes` : null;
    if (isGzipBody(body)) {
      try {
        const out = await decompressPrefix(body, 'gzip', opts.maxBytes, res.cut === true);
        body = out!.body;
        if (out!.cut) bodyCut = `cut at ${opts.maxBytes} bytes`;
      } catch (err) {
        return this.#c.finish(req, { state: 'error', reason: `sitemap: corrupt gzip file: ${(err as Error).message}` }, res);
      }
    }
    const text = xmlText(body, res.contentType);
    // A site that answers every path with its HTML page (a soft 404) has no sitemap either: the
    // guess ends as a 404 does, not as an error of a file the site never offered.
    if (sm.guessed && !isGzipBody(res.body ?? new Uint8Array(0)) && /^\s*(?:<!--[^]*?-->\s*)*<(?:!doctype\s+html|html[\s>])/i.test(text.slice(0, 2048))) {
      return this.#c.finish(req, { state: 'done' }, res, { note: `sitemap: none (the guessed /sitemap.xml is an HTML page, HTTP ${res.status})` });
    }
    const doc = parseSitemap(text, res.finalUrl, { maxUrls: opts.maxUrls }, bodyCut);
    const notes: string[] = [];
    let added = 0;
    if (doc.kind === 'index') {
      if (sm.level < opts.levels) {
        const over = await this.#queue(sm.site, doc.sitemaps, sm.level + 1, false, req, req.url);
        if (over) notes.push(over);
      } else if (doc.sitemaps.length) {
        notes.push(`nested index not followed (more than ${opts.levels} levels)`);
      }
    } else if (doc.urls.length) {
      const links: Link[] = doc.urls.map((u) => ({ url: u.url, anchor: '', nofollow: false, context: urlWords(u.url), sitemap: { lastmod: u.lastmod } }));
      // Children at depth 1: the sitemap stands for the site's root.
      const parent: CrawlRequest = { ...req, depth: 0, data: null };
      const page = { url: req.url, title: '', text: '', headings: '', links, canonical: null, noindex: false, nofollow: false, encoding: 'utf-8' };
      added = await this.#c.addLinks(parent, links, { request: parent, page, relevance: this.#c.topic() ? 0 : null });
      this.#c.stats.sitemapUrls += added;
    }
    const what = doc.kind === 'index' ? `sitemap index: ${doc.sitemaps.length} sitemaps` : `sitemap: ${doc.urls.length} URLs, ${added} new`;
    if (doc.cut && !doc.malformed) {
      this.#c.stats.sitemapsCut++;
      notes.push(doc.cut);
    }
    const note = [what, ...notes].join('; ');
    if (doc.malformed) return this.#c.finish(req, { state: 'error', reason: `malformed sitemap: ${doc.cut} (${note})` }, res);
    return this.#c.finish(req, { state: 'done' }, res, { note });
  }
}

/** The words of a URL's path and query ('/solar-panels/roof_mounting.html' -> 'solar panels roof mounting html'): a sitemap link's only context. */
export function urlWords(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '';
  }
  let p = u.pathname + ' ' + u.search;
  try {
    p = decodeURIComponent(p);
  } catch {
    /* keep it encoded */
  }
  return p.split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');
}
