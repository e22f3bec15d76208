import { cosine } from '../relevance/cosine.js';
import { pathTerms } from './anchor-path.js';

/** A page in the sample library: an example, or a page a round found most similar. */
export interface Sample {
  site: string;
  url: string;
  path: string[];
  /** The page's term frequencies (boilerplate removed, see group-ranking.ts). */
  terms: Map<string, number>;
  /** One of the user's examples (their names alone define the kind's name: group-ranking.ts). */
  example?: boolean;
}

/**
 * Method D's sample library and the two judgements made from it, in place of trained
 * discriminators:
 * - the path discriminator: how much a link's anchor path (the list of anchor texts from the
 *   site root, including the link's own) looks like the path to a sample, read against every
 *   prefix of every sample's path as the mean of two cosines: the whole path's terms against the
 *   prefix's, and the link's own anchor against the prefix's last step (so "Admissions" scores as
 *   the first step towards "Admissions > Score lines > 2023", and a year link under any menu
 *   looks like the last step);
 * - the target ranking: a page's TF-IDF cosine to its nearest sample.
 * Adding samples updates both: that is the online learning between rounds. The path
 * discriminator also learns from the paths that led nowhere (the source's "reinforcement-like"
 * learning: a path taken that earned nothing lowers the value of paths like it): a dead end's
 * path, read the same way against a link's path (as a whole, not by prefix), takes
 * `deadEndWeight` times its similarity off the link's score.
 */
export class SampleLibrary {
  readonly samples: Sample[] = [];
  /** Per distinct sample-path prefix: the terms of the whole prefix and of its last step. */
  #prefixes: { all: Map<string, number>; last: Map<string, number> }[] = [];
  readonly #prefixKeys = new Set<string>();
  readonly #pathCache = new Map<string, number>();
  /** Paths of fetched pages whose whole subtree held no target (see addDeadEnd). */
  #deadEnds: { all: Map<string, number>; last: Map<string, number> }[] = [];
  readonly #deadKeys = new Set<string>();
  /** How much a dead end's similarity lowers a path's score (0: positives only). */
  deadEndWeight = 0.5;
  /** Dead ends kept at most (the first recorded: rounds record the most misleading first). */
  maxDeadEnds = 300;

  add(sample: Sample): void {
    this.samples.push(sample);
    for (let k = 1; k <= sample.path.length; k++) {
      const key = sample.path.slice(0, k).join('\u0000').toLowerCase();
      if (this.#prefixKeys.has(key)) continue;
      this.#prefixKeys.add(key);
      const all = pathTerms(sample.path.slice(0, k));
      if (all.size) this.#prefixes.push({ all, last: pathTerms([sample.path[k - 1]!]) });
    }
    this.#pathCache.clear();
  }

  /**
   * Records the anchor path of a page that led nowhere: fetched, not a target, and every page
   * found below it fetched without a target either. Returns false when it was known or the
   * store is full.
   */
  addDeadEnd(path: readonly string[]): boolean {
    const key = path.join('\u0000').toLowerCase();
    if (!path.length || this.#deadKeys.has(key) || this.#deadKeys.size >= this.maxDeadEnds || this.#prefixKeys.has(key)) return false;
    this.#deadKeys.add(key);
    const all = pathTerms(path);
    if (all.size) this.#deadEnds.push({ all, last: pathTerms(path.slice(-1)) });
    this.#pathCache.clear();
    return true;
  }

  get deadEnds(): number {
    return this.#deadKeys.size;
  }

  has(url: string): boolean {
    return this.samples.some((s) => s.url === url);
  }

  /** The path discriminator, in [0, 1]: 0 with an empty library; lowered by similar dead ends. */
  pathScore(path: readonly string[]): number {
    const key = path.join('\u0000');
    const cached = this.#pathCache.get(key);
    if (cached !== undefined) return cached;
    const bag = pathTerms(path);
    const last = pathTerms(path.slice(-1));
    let best = 0;
    if (bag.size) for (const p of this.#prefixes) best = Math.max(best, (cosine(bag, p.all) + cosine(last, p.last)) / 2);
    if (best > 0 && this.deadEndWeight > 0) {
      let worst = 0;
      for (const d of this.#deadEnds) worst = Math.max(worst, (cosine(bag, d.all) + cosine(last, d.last)) / 2);
      best = Math.max(0, best - this.deadEndWeight * worst);
    }
    if (this.#pathCache.size > 100_000) this.#pathCache.clear();
    this.#pathCache.set(key, best);
    return best;
  }
}
