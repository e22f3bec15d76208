import type { CrawlRequest, ServiceProbe, SitemapFetch } from '../types.js';

/**
 * What a URL is, as the stores keep it in one column (SQLite's urls.probe, PostgreSQL's
 * urls.kind): a service probe, a sitemap file, or a page queued by redirects across hosts
 * (RedirectHandOff); null for a page found as a link, the common case.
 */
export type RequestKind = ServiceProbe | { sitemap: SitemapFetch } | { redirected: number };

/** The kind column's JSON for a request (null for a page found as a link). */
export function kindJson(r: Pick<CrawlRequest, 'probe' | 'sitemap' | 'redirected'>): string | null {
  if (r.probe) return JSON.stringify(r.probe);
  if (r.sitemap) return JSON.stringify({ sitemap: r.sitemap });
  return r.redirected ? JSON.stringify({ redirected: r.redirected }) : null;
}

/** The request fields a kind column's value stands for. */
export function requestKind(kind: RequestKind | null): Pick<CrawlRequest, 'probe' | 'sitemap' | 'redirected'> {
  if (!kind) return { probe: null, sitemap: null, redirected: null };
  if ('sitemap' in kind) return { probe: null, sitemap: kind.sitemap, redirected: null };
  if ('redirected' in kind) return { probe: null, sitemap: null, redirected: kind.redirected };
  return { probe: kind, sitemap: null, redirected: null };
}

/**
 * SQL that holds for the rows of pages (not probes, not sitemap files), given the kind column's
 * name: a page's kind is null, or says only how many redirects led to it.
 */
export const pageKindSql = (column: string, dialect: 'sqlite' | 'pg'): string =>
  dialect === 'sqlite' ? `(${column} IS NULL OR ${column} LIKE '{"redirected":%')` : `(${column} IS NULL OR ${column} ? 'redirected')`;
