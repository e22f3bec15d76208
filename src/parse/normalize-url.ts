import { SESSION_HINT, stripSessionIds } from './session-params.js';

/**
 * URL normalisation for dedup (RFC 3986 section 6 plus WHATWG URL parsing):
 * scheme and host lower-cased, default ports dropped, dot segments removed, fragment dropped,
 * percent-escapes upper-cased and unreserved ones decoded, non-ASCII percent-encoded, IDN hosts
 * in punycode, session ids removed (session-params.ts). Query parameter order is kept:
 * reordering changes meaning on some servers.
 */

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-escapes of unreserved characters decoded, the others upper-cased (RFC 3986 6.2.2). */
export function fixPercentEscapes(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : '%' + hex.toUpperCase();
  });
}

/**
 * Resolves `href` against `base` and normalises it.
 * Returns null for anything that is not an http(s) URL or does not parse.
 * `keepSessionIds` is for the URL actually requested on a redirect hop: a server that redirects
 * a page to itself with a session id added serves the page only under that name.
 */
export function normalizeUrl(href: string, base?: string | URL, opts?: { keepSessionIds?: boolean }): string | null {
  let u: URL;
  try {
    u = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!u.hostname) return null;
  u.hash = '';
  let out = u.href;
  // An empty query reads as '' yet serialises as a trailing '?'.
  if (out.endsWith('?')) {
    u.search = '';
    out = u.href;
  }
  if (out.includes('%')) {
    // Only the path and query may carry escapes; the host is already canonical.
    u.pathname = fixPercentEscapes(u.pathname);
    if (u.search) u.search = fixPercentEscapes(u.search);
    out = u.href;
  }
  if (out.endsWith('#')) out = out.slice(0, -1);
  return opts?.keepSessionIds ? out : stripSessionIds(out);
}

/** host[:port] of a normalised URL, the unit of politeness. */
export function hostOf(url: string): string {
  const start = url.indexOf('//') + 2;
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  const authority = url.slice(start, end);
  const at = authority.lastIndexOf('@');
  return at >= 0 ? authority.slice(at + 1) : authority;
}

/** A page's base URL, parsed once for all of its links. */
export interface BaseUrl {
  url: URL;
  /**
   * scheme://host[:port] as normalizeUrl writes it, or null where a link may not be joined to it
   * as text: a base that is not http(s) (an ftp: <base> makes "/p1" an ftp: URL, and a data:
   * one's origin is "null") or that carries a user name (normalizeUrl keeps it; the origin has none).
   */
  origin: string | null;
}

export function baseUrl(href: string | URL): BaseUrl {
  const url = typeof href === 'string' ? new URL(href) : href;
  const plain = (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  return { url, origin: plain ? url.origin : null };
}

// Characters WHATWG serialisation never changes in a path or a query of an http(s) URL.
const SAFE_PATH_QUERY = /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]+)?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;

/**
 * normalizeUrl for a link on a page. Most links are same-origin absolute paths ("/p/12") already
 * in normal form; those skip URL parsing, which is most of the cost of link extraction. Anything
 * else takes the full path. test/parse/normalize-url.test.ts checks both paths agree.
 */
export function resolveLink(href: string, base: BaseUrl): string | null {
  if (SESSION_HINT.test(href)) return normalizeUrl(href, base.url);
  const origin = base.origin;
  if (origin === null) return normalizeUrl(href, base.url);
  const c0 = href.charCodeAt(0);
  if (c0 === 47 /* / */ && SAFE_PATH_QUERY.test(href) && !DOT_SEGMENT.test(href)) return origin + href;
  if (c0 === 104 /* h */ && href.startsWith(origin) && href.charCodeAt(origin.length) === 47) {
    const rest = href.slice(origin.length);
    if (SAFE_PATH_QUERY.test(rest) && !DOT_SEGMENT.test(rest)) return href;
  }
  return normalizeUrl(href, base.url);
}

/** An absolute http(s) URL that parses: what a seed, a page given by URL or a service link must be. */
export const isHttpUrl = (s: string): boolean => /^https?:\/\//i.test(s) && URL.canParse(s);
