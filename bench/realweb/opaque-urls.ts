import { metaRefreshUrl } from '../../src/parse/meta-refresh.js';
import { createHash } from 'node:crypto';
import { posix } from 'node:path';

/**
 * Opaque URLs for bench/realweb. A documentation tree names its files after their subject
 * (ref/models/querysets.html, std/collections/index.html), so a crawler reading URL words would be
 * graded on the file names rather than on the pages. Every served page therefore gets a path
 * `/p/<10 hex chars>.html`, and every link inside the site is rewritten to it.
 */

/** Changing the salt changes every URL of every built site (and so needs a rebuild). */
export const URL_SALT = 'focuscrawl-realweb-1';

/** The opaque path of a page, from its site and its path in the original tree. */
export function opaquePath(site: string, original: string): string {
  return `/p/${createHash('sha1').update(`${URL_SALT}\0${site}\0${original}`).digest('hex').slice(0, 10)}.html`;
}

/**
 * The page a link points to, as a path in the original tree (no fragment, no query), or null for
 * links that leave the tree (other schemes, other hosts, absolute paths, `..` above the root).
 * A link to a folder means its index.html, as a web server would answer.
 */
export function resolveOriginal(fromPage: string, href: string): { path: string; fragmentOnly: boolean } | null {
  const raw = decodeEntities(href.trim());
  if (raw === '' || raw.startsWith('#')) return { path: fromPage, fragmentOnly: true };
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//') || raw.startsWith('/')) return null;
  let p = raw.replace(/[?#].*$/s, '');
  try {
    p = decodeURIComponent(p);
  } catch {
    /* a stray '%' is kept as written */
  }
  const joined = posix.normalize(posix.join(posix.dirname(fromPage), p));
  if (joined.startsWith('..') || joined.startsWith('/')) return null;
  const path = p.endsWith('/') || joined === '.' ? posix.join(joined === '.' ? '' : joined, 'index.html') : joined;
  return { path, fragmentOnly: false };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_m, e: string) => {
    const l = e.toLowerCase();
    if (l.startsWith('#x')) return String.fromCodePoint(parseInt(l.slice(2), 16));
    if (l.startsWith('#')) return String.fromCodePoint(parseInt(l.slice(1), 10));
    return ENTITIES[l]!;
  });
}

// One start tag with its attributes; quoted values may hold '>' (title="a > b").
const TAG = /<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
const ATTR = /(\s+)([^\s=>/]+)(?:(\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+))?/g;

/** Tags dropped whole: stylesheets, canonical and alternate links (they carry URLs), base. */
const DROP_TAGS = new Set(['link', 'base']);
/** The only attributes the crawler follows; they are rewritten or removed. */
const FOLLOWED: Record<string, string> = { a: 'href', area: 'href', frame: 'src', iframe: 'src' };
/** Other URL-bearing attributes: removed, since nothing but pages is served. */
const URL_ATTRS = new Set(['href', 'src', 'action', 'srcset', 'longdesc', 'cite', 'data', 'poster', 'background', 'usemap', 'formaction']);

/**
 * Rewrites the links of one page. `target(original)` gives the opaque URL of a served page, or
 * null. A link to a served page points to its opaque URL without the fragment (fragment ids are
 * words: `#spatial-lookups`); every other URL attribute is removed, so no word of the original
 * layout reaches the crawler, and the page keeps its text and anchors.
 */
export function rewriteLinks(html: string, fromPage: string, target: (original: string) => string | null): string {
  // Links resolve against a relative <base href> as a browser would (LibreOffice's help writes
  // <base href="../../../../"> and every link from the help's root); the tag itself is dropped.
  const from = baseOf(html, fromPage) ?? fromPage;
  return html.replace(TAG, (whole, name: string, attrs: string, selfClose: string) => {
    const tag = name.toLowerCase();
    if (DROP_TAGS.has(tag)) return '';
    if (!attrs) return whole;
    // A meta refresh is a link the crawler follows: to its opaque URL, or gone with its tag.
    if (tag === 'meta' && /http-equiv\s*=\s*["']?refresh/i.test(attrs)) {
      const content = /content\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
      const to = metaRefreshUrl(decodeEntities(content?.[1] ?? content?.[2] ?? content?.[3] ?? ''));
      const res = to ? resolveOriginal(from, to) : null;
      const url = res && !res.fragmentOnly ? target(res.path) : null;
      return url === null ? '' : `<meta http-equiv="refresh" content="0; url=${url}">`;
    }
    const followed = FOLLOWED[tag];
    let changed = false;
    const out = attrs.replace(ATTR, (a, sp: string, attr: string, eq: string | undefined, value: string | undefined) => {
      const an = attr.toLowerCase();
      if (!URL_ATTRS.has(an)) return a;
      changed = true;
      if (an !== followed || value === undefined) return '';
      const unquoted = value.startsWith('"') || value.startsWith("'") ? value.slice(1, -1) : value;
      const res = resolveOriginal(from, unquoted);
      if (!res || res.fragmentOnly) return '';
      const url = target(res.path);
      return url === null ? '' : `${sp}${attr}${eq}"${url}"`;
    });
    return changed ? `<${name}${out}${selfClose ? ' /' : ''}>` : whole;
  });
}

/**
 * A page standing in for `fromPage` when links resolve against its relative <base href>: a
 * page in the base's folder. Null without one, or when the base leaves the tree or names a
 * scheme or host (its links would leave the tree too, and resolveOriginal drops them anyway).
 */
export function baseOf(html: string, fromPage: string): string | null {
  const m = /<base\s[^>]*href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(html);
  if (!m) return null;
  const href = decodeEntities((m[1] ?? m[2] ?? m[3] ?? '').trim());
  if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return null;
  const dir = posix.normalize(posix.join(posix.dirname(fromPage), href.endsWith('/') ? href : posix.dirname(href)));
  if (dir === '..' || dir.startsWith('../')) return null;
  return posix.join(dir === '.' ? '' : dir, '_base_');
}

/**
 * The page a redirect stub sends to (rustdoc writes one per re-export: a meta refresh and a
 * "Redirecting to" link), as a path in the original tree; null for an ordinary page.
 */
export function redirectTarget(html: string, fromPage: string): string | null {
  const m = /<meta\s+http-equiv\s*=\s*["']?refresh["']?\s+content\s*=\s*["']\s*\d+\s*;\s*url\s*=\s*([^"']+)["']/i.exec(html.slice(0, 2048));
  if (!m) return null;
  const res = resolveOriginal(fromPage, m[1]!);
  return res && !res.fragmentOnly ? res.path : null;
}
