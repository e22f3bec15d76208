import { CountSketch } from './count-sketch.js';
import { fingerprintKey } from '../seen/fingerprint.js';

/**
 * Spider traps that the depth limit does not bound: a page that links to itself with one
 * parameter changed (calendars' next day, a counter, a token per page), relative links that nest
 * a path forever (/a/b/a/b/a/b/), and URL families without end (/cal/2026/11/23). Session ids are
 * removed earlier, by normalizeUrl (src/parse/session-params.ts).
 *
 * Pure: URLs in, reasons out. Counts live in two count-min sketches (count-sketch.ts), a few
 * megabytes whatever the length of the crawl; they are in memory only, and crawl.ts rebuilds the
 * pattern counts from the database on resume.
 */
export interface TrapOptions {
  /**
   * Fetches per URL pattern of a host: the path and query with every run of digits read as '#'
   * (/cal/2026/11/23 and /cal/2026/11/24 are both /cal/#/#/#). URLs past it are discarded.
   * 0: no cap. Default 1,000.
   */
  maxUrlsPerPattern: number;
  /**
   * Values of one query parameter at one path, counted over the links a page of that path makes
   * to its own path with that parameter changed (the rest of the query equal). Links past it are
   * discarded. 0: no cap. Default 100.
   */
  maxParamValues: number;
}

export const defaultTrapOptions: TrapOptions = { maxUrlsPerPattern: 1000, maxParamValues: 100 };

/** A path segment occurring this many times marks a nesting loop. */
export const SEGMENT_REPEATS = 3;
const DIGITS = /^\d+$/;

interface Parts {
  /** scheme://host[:port]/path */
  head: string;
  path: string;
  /** name=value pairs as written (none without a query). */
  pairs: string[];
}

function parts(url: string): Parts {
  const q = url.indexOf('?');
  const head = q < 0 ? url : url.slice(0, q);
  const slash = head.indexOf('/', head.indexOf('//') + 2);
  return { head, path: slash < 0 ? '/' : head.slice(slash), pairs: q < 0 ? [] : url.slice(q + 1).split('&') };
}

const nameOf = (pair: string) => {
  const eq = pair.indexOf('=');
  return eq < 0 ? pair : pair.slice(0, eq);
};

/**
 * The path segment that occurs SEGMENT_REPEATS or more times, if any. Numbers are left out: in
 * /book/1/chapter/1/verse/1 equal ids are a coincidence, while the nesting of relative links
 * repeats names (/css/img/css/img/css/).
 */
export function repeatingSegment(path: string): string | null {
  const seen = new Map<string, number>();
  for (const seg of path.split('/')) {
    if (!seg || DIGITS.test(seg)) continue;
    const n = (seen.get(seg) ?? 0) + 1;
    if (n >= SEGMENT_REPEATS) return seg;
    seen.set(seg, n);
  }
  return null;
}

/**
 * A query value that reads as a random token: 8 or more letters, digits, '-' or '_', with a letter
 * and a digit among them (`ref=a8Xk2mQ9zz`). Paths keep theirs: DocBook's ch01s02.html and the
 * hashed file names of generated sites are pages, not tokens.
 */
const QUERY_TOKEN = /(?<=[=&?])(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[\w-]{8,}(?=&|$)/g;

/** host + path + query with every run of digits, and every token-like query value, replaced by '#'. */
export function urlPattern(url: string): string {
  const start = url.indexOf('//') + 2;
  const slash = url.indexOf('/', start);
  if (slash < 0) return `${url.slice(start)}/`;
  const rest = url.slice(slash);
  const q = rest.indexOf('?');
  const query = q < 0 ? '' : rest.slice(q).replace(QUERY_TOKEN, '#');
  return url.slice(start, slash) + ((q < 0 ? rest : rest.slice(0, q)) + query).replace(/\d+/g, '#');
}

/** A page as mirror detection compares it: its title, text and link anchors (not the links' URLs, which relative links change). */
export function pageSignature(title: string, text: string, anchors: readonly string[]): number {
  // The URL fingerprint's hash over the three: a collision costs one page's links, rarely.
  return fingerprintKey(`${title}\u0000${text}\u0000${anchors.join('\u0001')}`);
}

/** Pages whose signature is kept for their children's comparison: the most recent ones. */
const SIGNATURES_KEPT = 100_000;

/**
 * The parameters of `url` that a page at `parent` changed in a link to its own path, each with the
 * key of "this URL with that parameter's value left open" (the other parameters as they are).
 * Empty when the link goes to another host or path.
 */
export function changedParams(url: string, parent: string): { name: string; path: string; key: string }[] {
  const a = parts(url);
  const b = parts(parent);
  if (a.head !== b.head || !a.pairs.length) return [];
  const out: { name: string; path: string; key: string }[] = [];
  a.pairs.forEach((pair, i) => {
    const name = nameOf(pair);
    if (b.pairs.includes(pair)) return;
    const open = a.pairs.map((p, j) => (j === i ? `${name}=*` : p)).join('&');
    out.push({ name, path: a.path, key: `${a.head}?${open}` });
  });
  return out;
}

export class TrapGuard {
  readonly options: TrapOptions;
  #patterns: CountSketch | null = null;
  #params: CountSketch | null = null;
  /** Page key -> signature of the pages fetched lately, oldest first. */
  readonly #signatures = new Map<string, number>();

  constructor(options: Partial<TrapOptions> = {}) {
    this.options = { ...defaultTrapOptions, ...options };
  }

  get #patternCounts(): CountSketch {
    return (this.#patterns ??= new CountSketch());
  }

  get #paramCounts(): CountSketch {
    return (this.#params ??= new CountSketch());
  }

  /** The reason to discard a link found on `parent`, or null to keep it. Counts nothing. */
  check(url: string, parent: string): string | null {
    const p = parts(url);
    const seg = repeatingSegment(p.path);
    if (seg !== null) return `trap: repeating path segment '${seg}'`;
    const max = this.options.maxParamValues;
    if (max > 0) {
      for (const c of changedParams(url, parent)) {
        if (this.#paramCounts.estimate(c.key) >= max) return `trap: parameter '${c.name}' of ${c.path} has more than ${max} values`;
      }
    }
    return this.#overPattern(url);
  }

  /**
   * Whether the page under `key` is a copy of the page that linked to it (`parentKey`): the same
   * title, text and link anchors at another URL. A server that answers every unknown path with the
   * same page (a soft 404 with relative links: /news/about/ -> /news/about/blog/ -> ...) nests
   * such copies without end, each segment at most twice so that the repeating-segment rule never
   * fires: its links are not followed (the first copy's were). The signature is kept for the
   * page's own children; the most recent SIGNATURES_KEPT pages are.
   */
  mirrorsParent(key: string, parentKey: string | null, signature: number): boolean {
    this.#signatures.set(key, signature);
    if (this.#signatures.size > SIGNATURES_KEPT) this.#signatures.delete(this.#signatures.keys().next().value!);
    return parentKey !== null && this.#signatures.get(parentKey) === signature;
  }

  /** A link that check() kept was new to the frontier: counts the parameter values it adds. */
  admitted(url: string, parent: string): void {
    if (this.options.maxParamValues <= 0) return;
    for (const c of changedParams(url, parent)) this.#paramCounts.add(c.key);
  }

  /** A URL is about to be fetched: the reason to discard it instead, or null (and it is counted). */
  claim(url: string): string | null {
    const over = this.#overPattern(url);
    if (over === null) this.fetched(url);
    return over;
  }

  /** Counts a URL fetched (claim() does; crawl.ts replays the fetches of earlier runs). */
  fetched(url: string): void {
    if (this.options.maxUrlsPerPattern > 0) this.#patternCounts.add(urlPattern(url));
  }

  #overPattern(url: string): string | null {
    const max = this.options.maxUrlsPerPattern;
    if (max <= 0) return null;
    const pattern = urlPattern(url);
    return this.#patternCounts.estimate(pattern) >= max ? `trap: more than ${max} URLs like ${pattern} (--max-urls-per-pattern)` : null;
  }
}
