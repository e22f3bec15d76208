import { SaxesParser } from 'saxes';
import { normalizeUrl } from './normalize-url.js';

/** What one sitemap file says (sitemaps.org protocol 0.9). */
export interface SitemapDocument {
  kind: 'urlset' | 'index';
  /** <url> entries of a urlset: normalised loc and lastmod (null when absent). */
  urls: { url: string; lastmod: string | null }[];
  /** <sitemap> entries of an index: normalised locs of the child sitemaps. */
  sitemaps: string[];
  /** Why the document was not read to its end: a limit ('cut at 50000 URLs') or a fault ('not well-formed XML: ...'); null when read whole. */
  cut: string | null;
  /** True when `cut` is a fault of the document (malformed XML, not a sitemap), not a limit. */
  malformed: boolean;
}

export interface SitemapLimits {
  /** Entries (<url> or <sitemap>) read; the protocol's limit is 50,000. */
  maxUrls: number;
}

const GZIP_MAGIC = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** True when a body is gzip data (a .xml.gz file served as it is, or with a Content-Type only). */
export function isGzipBody(body: Uint8Array): boolean {
  return GZIP_MAGIC(body);
}

/**
 * Reads a sitemap or sitemap index with saxes, as a stream of events: the entries read before a
 * limit or a fault are kept, which a whole-tree parse (services/xml-tree.ts) could not do for a
 * file cut at its size limit. Like xml-tree, no DTD or entity is ever resolved: saxes reads a
 * DOCTYPE as text, and an undefined entity is a fault. `bodyCut` says the text was cut at a byte
 * limit, so the fault at its end is the cut, not the document's.
 *
 * Elements are matched by local name (sitemaps in the wild use the 0.9 namespace, an old Google
 * one, or none). A loc that is not an absolute http(s) URL is skipped.
 */
export function parseSitemap(text: string, base: string, limits: SitemapLimits, bodyCut: string | null = null): SitemapDocument {
  const doc: SitemapDocument = { kind: 'urlset', urls: [], sitemaps: [], cut: null, malformed: false };
  const parser = new SaxesParser({ xmlns: true });
  const stack: string[] = [];
  let root: string | null = null;
  let loc: string | null = null;
  let lastmod: string | null = null;
  let textBuf = '';
  let stop: string | null = null;
  const full = () => doc.urls.length + doc.sitemaps.length >= limits.maxUrls;
  parser.on('error', (err) => {
    // saxes names the line and column ('3:17: unexpected close tag.').
    const msg = /undefined entity/.test(err.message) ? `${err.message} (entities declared in a DTD are never expanded)` : err.message;
    throw new SitemapStop(`not well-formed XML: ${msg}`, true);
  });
  parser.on('opentag', (tag) => {
    if (stack.length === 0) {
      root = tag.local;
      if (root === 'sitemapindex') doc.kind = 'index';
      else if (root !== 'urlset') throw new SitemapStop(`not a sitemap: root element <${tag.name}>`, true);
    }
    if (stack.length > 8) throw new SitemapStop('elements nested deeper than 8', true);
    stack.push(tag.local);
    textBuf = '';
    if (stack.length === 2 && (tag.local === 'url' || tag.local === 'sitemap')) {
      loc = null;
      lastmod = null;
    }
  });
  const onText = (t: string) => {
    if (stack.length === 3 && textBuf.length < 4096) textBuf += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    stack.pop();
    if (stack.length === 2) {
      if (tag.local === 'loc') loc = textBuf.trim();
      else if (tag.local === 'lastmod') lastmod = textBuf.trim() || null;
    } else if (stack.length === 1 && (tag.local === 'url' || tag.local === 'sitemap') && loc) {
      const url = /^https?:\/\//i.test(loc) ? normalizeUrl(loc, base) : null;
      if (url) {
        if (full()) throw new SitemapStop(`cut at ${limits.maxUrls} ${doc.kind === 'index' ? 'sitemaps' : 'URLs'}`, false);
        if (doc.kind === 'index' && tag.local === 'sitemap') doc.sitemaps.push(url);
        else if (doc.kind === 'urlset' && tag.local === 'url') doc.urls.push({ url, lastmod });
      }
    }
  });
  try {
    parser.write(text).close();
    if (root === null) throw new SitemapStop('not well-formed XML: no root element', true);
  } catch (err) {
    if (!(err instanceof SitemapStop)) throw err;
    stop = err.message;
    doc.malformed = err.fault && bodyCut === null;
    if (err.fault && bodyCut !== null) stop = bodyCut;
  }
  if (stop === null && bodyCut !== null) stop = bodyCut;
  doc.cut = stop;
  return doc;
}

class SitemapStop extends Error {
  readonly fault: boolean;
  constructor(message: string, fault: boolean) {
    super(message);
    this.fault = fault;
  }
}
