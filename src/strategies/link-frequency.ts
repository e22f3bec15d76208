import { hashTerm } from '../text/term-hasher.js';
import { packBytes, unpackBytes } from './packed-bytes.js';

const ROWS = 4;

/** Hosts whose page counts are kept; a crawl past it forgets the hosts it met first (their links then look rarer). */
const MAX_HOSTS = 100_000;

/**
 * How often a link target appears on the pages of its host: the share of a host's scored pages
 * that link to a URL. Navigation that repeats on every page (sidebars, menus, footers) approaches
 * 1; a link in one page's body stays near 1 / pages. Counts live in a count-min sketch (fixed
 * memory whatever the crawl's size; it can only over-count, so a rare link may look slightly more
 * repeated than it is, never less).
 */
export class LinkFrequency {
  readonly #width: number;
  readonly #counts: Uint32Array;
  readonly #pages = new Map<string, number>();

  /** `bits`: log2 of the sketch's width; 4 rows of 2^bits 32-bit counters. */
  constructor(bits = 17) {
    this.#width = 2 ** bits;
    this.#counts = new Uint32Array(ROWS * this.#width);
  }

  /** A page of `host` was scored. */
  page(host: string): void {
    const n = this.#pages.get(host);
    if (n === undefined && this.#pages.size >= MAX_HOSTS) this.#pages.delete(this.#pages.keys().next().value!);
    this.#pages.set(host, (n ?? 0) + 1);
  }

  /** Hosts whose page counts are kept. */
  get hosts(): number {
    return this.#pages.size;
  }

  /**
   * The scored page links to `url` (call once per distinct URL per page). Returns the new ratio.
   * Conservative update: only the counters at the minimum grow, which keeps collisions from
   * inflating counts more than they must.
   */
  link(host: string, url: string): number {
    return this.linkHash(host, hashTerm(url));
  }

  /** link() for a URL given by its hashTerm (another worker's page: Strategy.hear). */
  linkHash(host: string, h: number): number {
    const slots: number[] = [];
    let min = Infinity;
    for (let r = 0; r < ROWS; r++) {
      const i = r * this.#width + this.#slot(h, r);
      slots.push(i);
      min = Math.min(min, this.#counts[i]!);
    }
    for (const i of slots) if (this.#counts[i] === min) this.#counts[i] = min + 1;
    return this.#ratio(host, min + 1);
  }

  /** Share of the host's pages that link to `url`, smoothed so a host's first pages do not call every link navigation. */
  ratio(host: string, url: string): number {
    const h = hashTerm(url);
    let min = Infinity;
    for (let r = 0; r < ROWS; r++) min = Math.min(min, this.#counts[r * this.#width + this.#slot(h, r)]!);
    return this.#ratio(host, min);
  }

  #ratio(host: string, count: number): number {
    return Math.min(1, count / ((this.#pages.get(host) ?? 0) + PRIOR_PAGES));
  }

  #slot(h: number, row: number): number {
    const lo = h % 4294967296;
    const hi = Math.floor(h / 4294967296);
    return (Math.imul(lo ^ Math.imul(hi, 0x85ebca6b + row * 2), 0x9e3779b1 + row * 0x632be5ab) >>> 0) & (this.#width - 1);
  }

  /** Plain arrays for a snapshot (strategy state that outlives the process). */
  snapshot(): { pages: [string, number][]; counts: string } {
    return { pages: [...this.#pages], counts: packBytes(this.#counts) };
  }

  restore(s: { pages: [string, number][]; counts: string }): void {
    this.#pages.clear();
    for (const [h, n] of s.pages) this.#pages.set(h, n);
    const b = unpackBytes(s.counts, this.#counts.byteLength);
    if (b) this.#counts.set(new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)));
  }
}

/**
 * Pages assumed before the first: with 4, a link on the first page of a host has ratio 1/5, and a
 * sidebar link reaches 0.7 after 10 pages.
 */
const PRIOR_PAGES = 4;
