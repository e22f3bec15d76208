import type { CarriedState } from '../types.js';
import type { Reoffer } from './strategy.js';

interface Waiting {
  anchor: string;
  depth: number;
  /** The priority the family's page gave the link. */
  priority: number;
  data: CarriedState | null;
}

interface Family {
  depth: number;
  /** Children fetched through this page, and the sum of their outcomes (0..1). */
  fetched: number;
  sum: number;
  /** The factor last offered to the waiting children (1: none yet). */
  offered: number;
  /** Links the page had when its family was made. */
  size: number;
  waiting: Map<string, Waiting>;
}

export interface SiblingOptions {
  /** Weight of the crawl-wide mean outcome in a family's estimate, in children. */
  prior: number;
  /** Largest factor a family's outcome can give its waiting children. */
  maxLift: number;
  /** Waiting links remembered over all families; past it the oldest families are forgotten. */
  track: number;
}

/**
 * Families of at most this many links are compared with the crawl's mean without their own
 * children; larger ones (a site's whole table of contents) with the crawl's mean (see below).
 */
const OWN_MEAN_UP_TO = 64;

/**
 * Sibling evidence (Aggarwal, Al-Garawi and Yu, "Intelligent crawling on the World Wide Web with
 * arbitrary predicates", WWW 2001): pages linked from the same page tend to be about the same
 * thing, so once some of a page's children have been fetched, how relevant they were predicts
 * the rest. A documentation site files a chapter's pages under one index: when the first pages
 * reached through that index turn out on topic, its other links are raised, even when their
 * anchors (module names, question titles) share no word with the topic.
 *
 * For each page whose links were scored, the links that are not navigation wait in its family.
 * When a child is fetched, its outcome (0..1) joins the family's mean, shrunk towards the crawl's
 * mean outcome by `prior` children; a family above the crawl's mean offers its waiting links again
 * at priority * min(maxLift, mean / crawl mean) ^ (n / (n + prior)) (n: children fetched), which
 * the frontier's raise applies. A family only ever raises its children, never lowers them.
 *
 * The crawl's mean leaves out the family's own children: once a crawl is inside a chapter, the
 * chapter's index is most of what it has fetched, and measured against itself it raised its
 * remaining entries ever less (libvirt's manual pages: after 17 of the index's entries, all on
 * topic, the crawl left for the body links of those pages). Not for a family of more than
 * OWN_MEAN_UP_TO links: a page linking a whole site (a table of contents of 600 entries) has its
 * first children chosen by their anchors, and they say little about the rest; measured against
 * the crawl without them, GIMP's contents page raised all its entries at once
 * (bench/realweb, docs/benchmarks.md).
 */
export class SiblingFamilies {
  readonly #o: SiblingOptions;
  readonly #families = new Map<string, Family>();
  #tracked = 0;
  #reoffers: Reoffer[] = [];
  /** Every fetched page's outcome, for the crawl-wide mean. */
  #pages = 0;
  #sum = 0;

  constructor(options: SiblingOptions) {
    this.#o = options;
  }

  /** The crawl-wide mean outcome (0.5 before any page). */
  get mean(): number {
    return (this.#sum + 0.5) / (this.#pages + 1);
  }

  /** A page was fetched through the page `parent` (a request key, or null for seeds) with this outcome. */
  fetched(url: string, parent: string | null, outcome: number): void {
    this.#pages++;
    this.#sum += outcome;
    const f = parent === null ? undefined : this.#families.get(parent);
    if (!f) return;
    if (f.waiting.delete(url)) this.#tracked--;
    f.fetched++;
    f.sum += outcome;
    const lift = this.lift(f);
    if (lift > f.offered * 1.05 && f.waiting.size) {
      f.offered = lift;
      for (const [u, w] of f.waiting) this.#reoffers.push({ url: u, depth: w.depth, parent: parent!, anchor: w.anchor, priority: w.priority * lift, data: w.data });
    }
    if (f.waiting.size === 0) this.#families.delete(parent!);
  }

  /** The factor a family's outcomes give its waiting links (1 when they say nothing better than the crawl's mean). */
  lift(f: Pick<Family, 'fetched' | 'sum' | 'size'>): number {
    if (f.fetched === 0) return 1;
    const mean = f.size <= OWN_MEAN_UP_TO ? (this.#sum - f.sum + 0.5) / (this.#pages - f.fetched + 1) : this.mean;
    const own = (f.sum + this.#o.prior * mean) / (f.fetched + this.#o.prior);
    if (own <= mean) return 1;
    return Math.min(this.#o.maxLift, own / mean) ** (f.fetched / (f.fetched + this.#o.prior));
  }

  /** The factor the family of page `key` would give its links now (for explanations). */
  liftOf(key: string): number {
    const f = this.#families.get(key);
    return f ? this.lift(f) : 1;
  }

  /** The links of page `key` (not navigation) wait in its family. */
  add(key: string, depth: number, links: { url: string; anchor: string; priority: number; data: CarriedState | null }[]): void {
    if (!links.length || this.#families.has(key)) return;
    const waiting = new Map<string, Waiting>();
    for (const l of links) waiting.set(l.url, { anchor: l.anchor, depth: depth + 1, priority: l.priority, data: l.data });
    this.#families.set(key, { depth, fetched: 0, sum: 0, offered: 1, waiting, size: waiting.size });
    this.#tracked += waiting.size;
    // Oldest families first: their children have mostly been fetched or will not be.
    for (const [k, f] of this.#families) {
      if (this.#tracked <= this.#o.track) break;
      this.#families.delete(k);
      this.#tracked -= f.waiting.size;
    }
  }

  /** Links raised since the last call. */
  reoffers(): Reoffer[] {
    const out = this.#reoffers;
    this.#reoffers = [];
    return out;
  }

  snapshot(): { pages: number; sum: number; families: [string, number, number, number, number, [string, string, number, CarriedState | null][], number?][] } {
    return {
      pages: this.#pages,
      sum: this.#sum,
      families: [...this.#families].map(([k, f]) => [k, f.depth, f.fetched, f.sum, f.offered, [...f.waiting].map(([u, w]): [string, string, number, CarriedState | null] => [u, w.anchor, w.priority, w.data]), f.size]),
    };
  }

  restore(s: ReturnType<SiblingFamilies['snapshot']>): void {
    this.#pages = s.pages;
    this.#sum = s.sum;
    for (const [k, depth, fetched, sum, offered, waiting, size] of s.families) {
      const w = new Map(waiting.map(([u, anchor, priority, data]): [string, Waiting] => [u, { anchor, depth: depth + 1, priority, data }]));
      // A snapshot from before sizes were kept: what still waits is the best guess.
      this.#families.set(k, { depth, fetched, sum, offered, waiting: w, size: size ?? w.size });
      this.#tracked += w.size;
    }
  }
}
