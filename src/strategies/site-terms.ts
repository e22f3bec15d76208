import type { TokenizeOptions } from '../text/tokenize.js';
import { tokenize } from '../text/tokenize.js';

/**
 * Title separators: "page — Site 1.2 documentation", "page - Apache HTTP Server", "Site | page",
 * and a colon written as in prose, "Hash Tables: GLib Reference Manual" (gtk-doc, and sites
 * titled "Product: Documentation: page"; a full-width colon needs no space after it). A colon splits ordinary titles too ("Note: …"), but
 * only an affix on at least half of a host's pages counts, so those add nothing.
 */
const SEPARATOR = /\s+(?:[—–|·:]|-{1,2}|&mdash;|::)\s+|(?<=[\p{L}\p{N})])(?::\s+|：\s*)/u;

/** Hosts remembered; past it the oldest is forgotten (its site terms are learned again). */
const MAX_HOSTS = 2_000;

interface HostTitles {
  pages: number;
  /** Title affix (the part before the first or after the last separator) -> pages that carry it. */
  affixes: Map<string, number>;
  /** The affixes that count as the site's now, joined: terms are made again only when they change. */
  common: string;
  /** Terms of the affixes most of the host's pages carry, and of the host name. */
  terms: Set<string>;
}

/**
 * The words a site puts on every page: the site's name in each page title ("… — CMake 3.25.1
 * Documentation", "… - Apache HTTP Server Version 2.4") and in its host name. A user's topic often
 * names the product beside the subject ("cmake_policy", "celery beat"); on the product's own site
 * those words are in every page, so they score every page and every anchor alike and drown the
 * words that tell pages apart. Unlike a document frequency over the fetched pages, which a focused
 * crawl biases towards its own subject (every page it fetches holds the subject's words), a title
 * affix shared by most pages of a host is the site's, whatever the crawl fetched.
 */
export class SiteTerms {
  readonly #hosts = new Map<string, HostTitles>();
  readonly #opts: TokenizeOptions;
  /** Share of a host's titles an affix must be on, and the fewest titles, to count as the site's. */
  readonly #share: number;
  readonly #min: number;

  constructor(opts: TokenizeOptions, options: { share?: number; minPages?: number } = {}) {
    this.#opts = opts;
    this.#share = options.share ?? 0.5;
    this.#min = options.minPages ?? 3;
  }

  /**
   * A page of `host` titled `title` was fetched. Returns true when the host's site terms changed
   * (a caller caching scores against them should score again).
   */
  observe(host: string, title: string): boolean {
    const h = this.#host(host);
    h.pages++;
    const parts = title.trim().split(SEPARATOR).filter(Boolean);
    if (parts.length > 1) {
      for (const a of new Set([`<${parts[0]!}`, `>${parts[parts.length - 1]!}`])) h.affixes.set(a, (h.affixes.get(a) ?? 0) + 1);
      // A site with thousands of distinct first parts would grow this map: keep its common affixes only.
      if (h.affixes.size > 256) for (const [a, n] of h.affixes) if (n <= 1) h.affixes.delete(a);
    }
    const common = this.#common(h);
    if (common.join('\0') === h.common) return false;
    h.common = common.join('\0');
    h.terms = this.#terms(host, common);
    return true;
  }

  /** The site terms of `host` (empty until enough of its pages were seen, except the host name's). */
  of(host: string): ReadonlySet<string> {
    return this.#hosts.get(host)?.terms ?? this.#hostNameTerms(host);
  }

  #host(host: string): HostTitles {
    let h = this.#hosts.get(host);
    if (!h) {
      if (this.#hosts.size >= MAX_HOSTS) this.#hosts.delete(this.#hosts.keys().next().value!);
      h = { pages: 0, affixes: new Map(), common: '', terms: this.#hostNameTerms(host) };
      this.#hosts.set(host, h);
    }
    return h;
  }

  /** The affixes at least `share` of the host's pages, and `min` of them, carry (sorted). */
  #common(h: HostTitles): string[] {
    if (h.pages < this.#min) return [];
    const out: string[] = [];
    for (const [a, n] of h.affixes) if (n >= this.#min && n >= this.#share * h.pages) out.push(a);
    return out.sort();
  }

  #terms(host: string, common: readonly string[]): Set<string> {
    const out = this.#hostNameTerms(host);
    for (const a of common) for (const t of tokenize(a.slice(1), this.#opts)) out.add(t);
    return out;
  }

  /** docs.celeryq.dev -> celeryq; an address names nothing. */
  #hostNameTerms(host: string): Set<string> {
    const name = host.replace(/:\d+$/, '');
    if (/^[\d.]+$/.test(name) || name.includes(']') || !name.includes('.')) return new Set();
    const labels = name.split('.').slice(0, -1).filter((l) => !['www', 'docs', 'doc', 'help', 'wiki', 'com', 'org', 'net', 'co'].includes(l));
    return new Set(labels.flatMap((l) => tokenize(l.replace(/-/g, ' '), this.#opts)));
  }

  snapshot(): [string, number, [string, number][]][] {
    return [...this.#hosts].map(([host, h]) => [host, h.pages, [...h.affixes].filter(([, n]) => n >= 2)]);
  }

  restore(s: [string, number, [string, number][]][]): void {
    for (const [host, pages, affixes] of s) {
      const h: HostTitles = { pages, affixes: new Map(affixes), common: '', terms: new Set() };
      const common = this.#common(h);
      h.common = common.join('\0');
      h.terms = this.#terms(host, common);
      this.#hosts.set(host, h);
    }
  }
}
