/**
 * The plain, JSON-serialisable records that flow through a crawl:
 * CrawlRequest (frontier) -> FetchResult (fetcher) -> Page (parser).
 * Nothing here holds a handle, so a durable or remote frontier loses nothing.
 */

import type { ServiceType } from './services/service-record.js';

/** Strategy state carried by a URL (m value, anchor path, parent score, ...). Must survive JSON. */
export type CarriedState = Record<string, unknown>;

export interface CrawlRequest {
  /**
   * The URL's identity in every backend: its 64-bit fingerprint as 16 hex digits (urlKey()).
   * Stores, logs and carried state refer to URLs by key, never by a number one process assigned.
   */
  key: string;
  /**
   * Discovery order within the frontier that holds the URL: it only orders ties (equal priority,
   * earlier first). Not an identity: another backend, or another shard, numbers its URLs its own way.
   */
  id: number;
  /** Normalised absolute URL. */
  url: string;
  /** Lower-case host[:port] used for politeness. */
  host: string;
  /** Seeds are depth 0. */
  depth: number;
  /** Key of the page that discovered this URL; null for seeds. */
  parent: string | null;
  /** Anchor text of the discovering link ('' for seeds). */
  anchor: string;
  /** Higher is fetched earlier; ties go to the earlier discovered URL. */
  priority: number;
  /** Strategy state, passed back to the strategy when the page is evaluated. */
  data: CarriedState | null;
  /** Failed attempts so far (transient failures are retried). */
  attempts: number;
  /** Set when the URL is a service probe (a capabilities request), not a page to parse. */
  probe?: ServiceProbe | null;
  /** Set when the URL is a sitemap file to read (src/engine/sitemap-reading.ts), not a page to parse. */
  sitemap?: SitemapFetch | null;
  /**
   * Redirects across hosts that led to this URL (RedirectHandOff: a page's redirect to another
   * host is queued as that host's URL); null or absent for a URL found as a link. It travels with
   * the URL, so a chain is bounded by maxRedirects across resumes and workers.
   */
  redirected?: number | null;
}

/** A sitemap file of a site: `level` 1 for one named by robots.txt (or /sitemap.xml), 2 for one a sitemap index lists. */
export interface SitemapFetch {
  /** The origin (scheme://host[:port]) whose robots.txt or root led to it: its URLs count as that site's. */
  site: string;
  level: number;
  /** True for the guessed /sitemap.xml (robots.txt named none). */
  guessed?: boolean;
}

/** A capabilities request for a candidate endpoint (see src/services/). */
export interface ServiceProbe {
  type: ServiceType;
  /** The endpoint the answer is recorded under. */
  endpoint: string;
  /** A later step of a multi-request probe (OGC API: 'conformance'); absent for the first. */
  step?: string;
  /** Page number of a paged step (OGC API collections followed by their `next` links); absent: 1. */
  page?: number;
  /**
   * The probe fetches a capabilities document as it is (a .xml file): the document's root element
   * decides the type it is registered under, `type` is only what it was probed as.
   */
  document?: boolean;
}

/** A URL offered to the frontier: everything except what the frontier assigns. */
export type NewRequest = Omit<CrawlRequest, 'id' | 'key' | 'attempts'>;

export interface RedirectHop {
  url: string;
  status: number;
}

export interface FetchResult {
  /** URL asked for. */
  url: string;
  /** URL after redirects. */
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  /** Redirect hops followed, in order (empty when none). */
  redirects: RedirectHop[];
  contentType: string;
  /** Decoded (decompressed) body; null when the content type is not parsed. */
  body: Uint8Array | null;
  /** Bytes received after decompression (or announced, for bodies not read). */
  bytes: number;
  fetchMs: number;
  /** The body was cut at FetchOptions.cutAt bytes (set only then). */
  cut?: boolean;
  /**
   * Set when the fetch ended on a redirect whose hop the redirect guard handed off (HAND_OFF):
   * the hop's URL, for the crawl to schedule. `status` is then the redirect's (3xx) and `body` null.
   */
  movedTo?: string;
}

export interface Link {
  /** Normalised absolute URL. */
  url: string;
  /** Visible anchor text, whitespace collapsed ('' for frames or image-only links). */
  anchor: string;
  /** rel=nofollow on the link itself. */
  nofollow: boolean;
  /** Visible text around the link (anchor included), when the parser was asked for it. */
  context?: string;
  /** Set on a URL listed in a sitemap (no page links it here): its <lastmod>, or null when not given. */
  sitemap?: { lastmod: string | null };
}

export interface Page {
  url: string;
  title: string;
  /** Visible text (no script/style), whitespace collapsed. */
  text: string;
  /** Text of the h1-h6 headings, whitespace collapsed (also part of `text`). */
  headings: string;
  links: Link[];
  canonical: string | null;
  /** <meta name=robots> noindex: the page is recorded but not indexed for search. */
  noindex: boolean;
  /** <meta name=robots> nofollow: no link of the page is followed. */
  nofollow: boolean;
  /** Encoding used to decode the body (WHATWG name). */
  encoding: string;
  /** What service detection reads besides the links; present only when the parser was asked (ParseOptions.serviceText). */
  serviceText?: ServiceText;
}

/** Parts of a page that only service detection reads (src/engine/service-probing.ts). */
export interface ServiceText {
  /**
   * Absolute http(s) URLs written in the page but not linked: visible text (plain text, <code>,
   * <pre>, <textarea>), script strings, <input value> and data-* attributes. Anchor ''; the
   * context is the visible text around the URL (empty for scripts and attributes).
   */
  urls: Link[];
  /** The anchor and visible text around each link to a `.xml` file, by the link's URL. */
  xmlLinkWords: Record<string, string>;
}

/** Final or in-between state of every URL the crawl has seen. */
export const UrlState = { waiting: 0, fetching: 1, done: 2, error: 3, discarded: 4 } as const;
export type UrlStateName = keyof typeof UrlState;
export const urlStateName = (n: number): UrlStateName =>
  (['waiting', 'fetching', 'done', 'error', 'discarded'] as const)[n] ?? 'waiting';
