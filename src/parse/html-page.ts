import { metaRefreshUrl } from './meta-refresh.js';
import { Parser } from 'htmlparser2';
import type { Link, Page, ServiceText } from '../types.js';
import { baseUrl, normalizeUrl, resolveLink, type BaseUrl } from './normalize-url.js';
import { isLegacyEncoding, queryInPageEncoding } from './query-encoding.js';
import { clip } from '../text/clip.js';
import { MAX_ANCHOR_CHARS, MAX_TITLE_CHARS } from './stored-text-limits.js';

/** Elements whose text is never visible. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'svg', 'math', 'head']);
/** Inline elements: entering or leaving them does not separate words. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark',
  'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
]);

// Rewrites only whitespace that is not already a single space (runs of two or more, tabs,
// newlines, Unicode spaces): the same result as /\s+/ -> ' ', with far fewer replacements.
const MESSY_SPACE = /\s{2,}|[\t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

/**
 * Characters a browser shows as nothing inside a word: control characters (NUL is dropped from
 * text; the others, printed by `search` or `status`, drove the terminal: ESC [31m), the soft
 * hyphen (photo&shy;voltaic), the zero-width space and the word joiner. Left in, they split the
 * word for search and scoring.
 */
const INVISIBLE = /[\0-\x08\x0e-\x1f\x7f-\x9f\u00ad\u200b\u2060]/g;

function collapse(s: string): string {
  return s.replace(INVISIBLE, '').replace(MESSY_SPACE, ' ').trim();
}

/**
 * A copy of a short string that does not keep a larger one alive. Text from the parser is a
 * V8 "sliced string" of the whole document; an anchor stored in a waiting request would pin the
 * page's HTML for as long as the URL waits (2,146 pages, 47 MB, in a bench/throughput heap
 * snapshot). Concatenation then slicing yields a string whose parent is its own size.
 */
export function detach(s: string): string {
  return s.length ? (' ' + s).slice(1) : s;
}

function relTokens(rel: string | undefined): string[] {
  return rel ? rel.toLowerCase().split(/\s+/) : [];
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Elements open at once before the parse closes them all and goes on. htmlparser2 keeps its
 * open-element stack with `unshift`, so each unclosed tag costs time in the stack's depth: a
 * 4.8 MB page of 1.2 million unclosed `<b>` kept a crawl busy for minutes. Browsers bound the
 * depth too (Chromium's parser stops nesting at 512 and adds deeper elements as siblings);
 * closing at the bound keeps every word and link of such a page.
 */
export const MAX_OPEN_ELEMENTS = 512;
const PARSER_OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

export interface ParseOptions {
  /**
   * Characters of visible text kept on each side of a link as its context (shark-search's
   * anchor context). 0, the default, keeps none and costs nothing.
   */
  linkContext?: number;
  /**
   * Service detection is on: also fill Page.serviceText (URLs written outside links, the words
   * around links to .xml files). Off by default, so an ordinary crawl's parse does none of it.
   */
  serviceText?: boolean;
  /** `<meta name=…>` besides `robots` whose noindex/nofollow apply: the crawler's robots token. Default 'focuscrawl'. */
  robotsAgent?: string;
}

/** An absolute http(s) URL in text: RFC 3986 characters only, so CJK text or a quote ends it. */
const URL_IN_TEXT = /https?:\/\/[A-Za-z0-9\-._~:/?#@!$&()*+,;=%]+/gi;
/** Sentence punctuation after a URL in prose is not part of it. */
const TRAILING = '.,;:!?*';

/**
 * A URL found in prose without the punctuation after it: trailing sentence marks, and closing
 * parentheses unless the URL opened one. A scan from the end: a regular expression anchored at
 * the end ran in the square of a run of dots (200,000 took 25 s).
 */
function trimProse(u: string): string {
  const opened = u.includes('(');
  let end = u.length;
  while (end > 0 && (TRAILING.includes(u[end - 1]!) || (!opened && u[end - 1] === ')'))) end--;
  return u.slice(0, end);
}
/** A link to an XML file: its surrounding words may say it is a capabilities document. */
const XML_LINK = /\.xml(?:[?#]|$)/i;
/**
 * Characters of text kept on each side of a .xml link for service detection, within the link's
 * block (paragraph, list item, table row): the next paragraph's words are not about the link.
 */
const XML_LINK_CONTEXT = 100;
/** Table cells do not end a .xml link's block: "WMS | <a>hydro.xml</a>" is one row. */
const CELLS = new Set(['td', 'th']);

/** A link to a .xml file and the raw-text span of its words (`to` -1 until its block ends). */
interface XmlLink {
  link: Link;
  from: number;
  end: number;
  to: number;
}
/** At most this many text URLs per page: a page of thousands is a data dump, not a portal. */
const MAX_TEXT_URLS = 1000;

/**
 * The URLs of `text` (JSON-escaped slashes undone for script strings), cleaned of prose
 * punctuation. `at` receives each URL's offset in `text`.
 */
function urlsIn(text: string, add: (url: string, at: number, end: number) => void): void {
  if (!text.includes('http')) return;
  for (const m of text.matchAll(URL_IN_TEXT)) {
    // An escaped ampersand left in text (a <textarea>, which htmlparser2 does not decode, or a
    // page escaped twice) is still the URL's separator.
    const u = trimProse(m[0].replaceAll('&amp;', '&'));
    add(u, m.index, m.index + u.length);
  }
}

/**
 * Parses decoded HTML into a Page: title, visible text, headings, links with anchor text.
 * Honours <base href>, rel=nofollow on links and <meta name=robots>; records rel=canonical.
 * Never throws on malformed markup: htmlparser2 recovers the way browsers mostly do.
 */
export function parseHtml(html: string, url: string, encoding = 'UTF-8', opts: ParseOptions = {}): Page {
  const legacy = isLegacyEncoding(encoding);
  const contextChars = opts.linkContext ?? 0;
  const myMeta = (opts.robotsAgent ?? 'focuscrawl').toLowerCase();
  let base: BaseUrl | null = null;
  const getBase = () => (base ??= baseUrl(url));
  let baseSet = false;
  let title = '';
  let inTitle = 0;
  let hidden = 0;
  const text: string[] = [];
  // True when the text so far ends in whitespace: a tag boundary then adds no separator, which
  // keeps collapse() from having runs of spaces to rewrite.
  let spaced = true;
  const separate = () => {
    if (!spaced) {
      text.push(' ');
      rawLength++;
      spaced = true;
    }
  };
  const headings: string[] = [];
  let inHeading = 0;
  // Characters of raw (uncollapsed) text so far: link context offsets point into it.
  let rawLength = 0;
  const spans: [number, number][] = [];
  const links: Link[] = [];
  let canonical: string | null = null;
  let noindex = false;
  let nofollow = false;
  // The open <a>, if any: its text is collected as the anchor.
  let anchor: { href: string; parts: string[]; nofollow: boolean; start: number } | null = null;
  // Service text (opts.serviceText): script strings and attribute values to scan for URLs, and
  // the links to .xml files with their raw-text span.
  const svc = opts.serviceText === true;
  let inScript = 0;
  const unseen: string[] = [];
  const xmlLinks: XmlLink[] = [];
  // Raw-text offset where the current block began, and the .xml links whose block has not ended.
  let blockAt = 0;
  let openXml: XmlLink[] = [];
  const blockBoundary = () => {
    blockAt = rawLength;
    if (!openXml.length) return;
    for (const x of openXml) x.to = Math.min(rawLength, x.end + XML_LINK_CONTEXT);
    openXml = [];
  };

  const addLink = (href: string, anchorText: string, linkNofollow: boolean, start = rawLength) => {
    const abs = resolveLink(legacy ? queryInPageEncoding(href, encoding) : href, getBase());
    if (!abs) return;
    const link: Link = { url: abs, anchor: detach(anchorText), nofollow: linkNofollow };
    links.push(link);
    if (contextChars) spans.push([start, rawLength]);
    if (svc && XML_LINK.test(abs)) {
      const x: XmlLink = { link, from: Math.max(Math.min(blockAt, start), start - XML_LINK_CONTEXT), end: rawLength, to: -1 };
      xmlLinks.push(x);
      openXml.push(x);
    }
  };
  const closeAnchor = () => {
    if (!anchor) return;
    addLink(anchor.href, clip(collapse(anchor.parts.join('')), MAX_ANCHOR_CHARS), anchor.nofollow, anchor.start);
    anchor = null;
  };

  // Elements the current parser holds open, and where to start a fresh one when they pass
  // MAX_OPEN_ELEMENTS (-1: no restart).
  let open = 0;
  let restartAt = -1;
  let parser: Parser;
  // What closing every open element does to the state above, for a restart.
  // Text runs on across a restart, as across siblings: no separator is added.
  const closeAll = () => {
    closeAnchor();
    if (inHeading) headings.push(' ');
    inHeading = 0;
    inTitle = 0;
    hidden = 0;
    inScript = 0;
    open = 0;
  };
  const handler = {
    onopentag(name: string, attrs: Record<string, string>) {
      if (restartAt >= 0) return;
      if (++open > MAX_OPEN_ELEMENTS) {
        // The fresh parser reads this tag again, at the bottom of its stack.
        restartAt = parser.startIndex;
        parser.pause();
        return;
      }
      if (!INLINE.has(name)) {
        separate();
        if (svc && !CELLS.has(name)) blockBoundary();
      }
      if (svc) {
        if (name === 'script') inScript++;
        else if (name === 'input' && attrs.value) unseen.push(attrs.value);
        for (const k in attrs) if (k.startsWith('data-')) unseen.push(attrs[k]!);
      }
      if (HEADINGS.has(name)) {
        inHeading++;
        headings.push(' ');
      }
      switch (name) {
        case 'title':
          if (!title) inTitle++;
          return;
        case 'base':
          if (!baseSet && attrs.href) {
            try {
              const b = new URL(attrs.href, url);
              baseSet = true;
              // Browsers keep the page's own URL for a data: or javascript: base; any other scheme
              // (ftp:, file:) is the base, and the links it makes are not http(s): dropped.
              if (b.protocol !== 'data:' && b.protocol !== 'javascript:') base = baseUrl(b);
            } catch {
              /* an unusable <base> is ignored, as browsers do */
            }
          }
          return;
        case 'meta': {
          // `<meta http-equiv="refresh" content="0; url=next.html">` sends a browser on: its target is
          // a link of the page (a moved page's stub often has no other), as Scrapy follows it.
          if ((attrs['http-equiv'] ?? '').toLowerCase() === 'refresh') {
            const to = metaRefreshUrl(attrs.content ?? '');
            if (to) addLink(to, '', false);
          }
          const n = (attrs.name ?? '').toLowerCase();
          if (n === 'robots' || n === myMeta) {
            // Directives are comma-separated tokens: "max-image-preview:none" is not "none".
            const c = new Set((attrs.content ?? '').toLowerCase().split(',').map((t) => t.trim()));
            if (c.has('noindex') || c.has('none')) noindex = true;
            if (c.has('nofollow') || c.has('none')) nofollow = true;
          }
          return;
        }
        case 'link':
          if (attrs.href && relTokens(attrs.rel).includes('canonical') && canonical === null) {
            canonical = normalizeUrl(attrs.href, getBase().url);
          }
          return;
        case 'a':
          closeAnchor();
          if (attrs.href !== undefined) {
            anchor = { href: attrs.href, parts: [], nofollow: relTokens(attrs.rel).includes('nofollow'), start: rawLength };
          }
          return;
        case 'area':
          if (attrs.href !== undefined) {
            addLink(attrs.href, clip(collapse(attrs.alt ?? ''), MAX_ANCHOR_CHARS), relTokens(attrs.rel).includes('nofollow'));
          }
          return;
        case 'frame':
        case 'iframe':
          if (attrs.src) addLink(attrs.src, clip(collapse(attrs.title ?? ''), MAX_ANCHOR_CHARS), false);
          if (name === 'iframe') hidden++; // fallback content of an iframe is not rendered
          return;
        case 'img':
          if (anchor && attrs.alt) anchor.parts.push(' ' + attrs.alt + ' ');
          return;
      }
      if (HIDDEN.has(name)) hidden++;
    },
    ontext(data: string) {
      if (inTitle) {
        title += data;
        return;
      }
      if (hidden) {
        if (inScript) unseen.push(data);
        return;
      }
      text.push(data);
      rawLength += data.length;
      const last = data.charCodeAt(data.length - 1);
      spaced = last === 32 || last === 10 || last === 9 || last === 13;
      if (inHeading) headings.push(data);
      if (anchor) anchor.parts.push(data);
    },
    onclosetag(name: string) {
      // A void element's close follows its open even after a pause.
      if (restartAt >= 0) return;
      if (open) open--;
      if (!INLINE.has(name)) {
        separate();
        if (svc && !CELLS.has(name)) blockBoundary();
      }
      if (HEADINGS.has(name) && inHeading) {
        inHeading--;
        headings.push(' ');
      }
      if (name === 'title') {
        if (inTitle) inTitle--;
      } else if (name === 'a') {
        closeAnchor();
      } else if (name === 'iframe' || HIDDEN.has(name)) {
        if (hidden) hidden--;
        if (name === 'script' && inScript) inScript--;
      }
    },
  };
  for (let rest = html; ; ) {
    parser = new Parser(handler, PARSER_OPTIONS);
    parser.end(rest);
    if (restartAt < 0) break;
    closeAll();
    // A slice of a slice refers to the document itself: no copy per restart.
    rest = rest.slice(restartAt);
    restartAt = -1;
  }
  closeAnchor();
  const raw = text.join('');
  if (contextChars) {
    links.forEach((l, i) => {
      const [s, e] = spans[i]!;
      l.context = collapse(raw.slice(Math.max(0, s - contextChars), e + contextChars));
    });
  }

  const page: Page = {
    url,
    title: clip(collapse(title), MAX_TITLE_CHARS),
    text: collapse(raw),
    headings: collapse(headings.join('')),
    links,
    canonical,
    noindex,
    nofollow,
    encoding,
  };
  if (svc) page.serviceText = serviceText(raw, unseen, links, xmlLinks, contextChars);
  return page;
}

/** Page.serviceText: the URLs written outside links (visible text first), and the words around .xml links. */
function serviceText(raw: string, unseen: string[], links: Link[], xmlLinks: XmlLink[], contextChars: number): ServiceText {
  const urls: Link[] = [];
  let known: Set<string> | null = null;
  const add = (context: (at: number, end: number) => string) => (found: string, at: number, end: number) => {
    if (urls.length >= MAX_TEXT_URLS) return;
    const url = normalizeUrl(found);
    if (!url) return;
    known ??= new Set(links.map((l) => l.url));
    if (known.has(url)) return;
    known.add(url);
    const link: Link = { url, anchor: '', nofollow: false };
    if (contextChars) link.context = context(at, end);
    urls.push(link);
  };
  urlsIn(raw, add((at, end) => collapse(raw.slice(Math.max(0, at - contextChars), end + contextChars))));
  for (const part of unseen) urlsIn(part.includes('\\/') ? part.replaceAll('\\/', '/').replaceAll('\\u0026', '&') : part, add(() => ''));
  const xmlLinkWords: Record<string, string> = {};
  for (const { link, from, end, to } of xmlLinks) {
    const around = collapse(raw.slice(from, to < 0 ? end + XML_LINK_CONTEXT : to));
    xmlLinkWords[link.url] = xmlLinkWords[link.url] ? `${xmlLinkWords[link.url]} ${around}` : around;
  }
  return { urls, xmlLinkWords };
}
