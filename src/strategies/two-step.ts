import { z } from 'zod';
import { FingerprintValues } from '../seen/fingerprint-values.js';
import type { CrawlRequest, Link } from '../types.js';
import { anchorScore } from '../relevance/link-scorers.js';
import type { Topic } from '../relevance/topic.js';
import { fingerprintKey } from '../seen/fingerprint.js';
import type { LinkDecision, PageView, Reoffer, Strategy } from './strategy.js';
import { OutlinkStats } from './two-step-score.js';

export { twoStepScore, OutlinkStats } from './two-step-score.js';

export const twoStepOptions = z.strictObject({
  /** Weight of the page's own relevance against its out-link pages' mean. */
  alpha: z.number().min(0).max(1).default(0.7),
  /** Out-link pages whose relevance a page's score waits for; fetched ahead when not yet known. */
  lookahead: z.number().int().min(0).max(50).default(5),
  /** Waiting links whose parent's score is still tracked (memory bound); the oldest parents go first. */
  track: z.number().int().min(0).default(200_000),
});
export type TwoStepOptions = z.output<typeof twoStepOptions>;

/** Look-ahead priorities sit in a band above every ordinary priority (which are in [0, 1]). */
const LOOKAHEAD_BAND = 10;
/** A parent's waiting links are offered again when its score rose by at least this much. */
const MIN_RISE = 0.01;

/** A fetched page whose score can still change: some of its out-links are not fetched yet. */
interface Parent {
  rel: number;
  depth: number;
  stats: OutlinkStats;
  /** Out-link pages to know before the out-link term is offered (the look-ahead's worth). */
  need: number;
  /** The priority its waiting links carry. */
  offered: number;
  /** Its out-links not fetched yet, by URL fingerprint: [URL, anchor]; those sent ahead are in `ahead`. */
  pending: Map<number, [string, string]>;
  ahead: Set<number>;
}

/**
 * Method C, two-step VSM: the links of a fetched page u wait at score(u) (two-step-score.ts), from
 * the relevance of u's out-link pages. Our reading of the look-ahead (docs/strategies.md):
 * - out-link pages already fetched count at once (their relevance is remembered);
 * - when fewer than `lookahead` are known, the missing number of u's best-anchored unfetched
 *   links is fetched next, in a band above every other priority; every such fetch counts in the
 *   budget, and look-ahead pages get no look-ahead of their own (one level, as in the source);
 * - until those are in, u's other links wait at alpha * rel(u), the least score(u) can be;
 * - whenever one of u's out-link pages is fetched, by the look-ahead or later by the crawl,
 *   score(u) is recomputed and, when it rose, u's waiting links are offered again (reoffers()),
 *   which the frontier's raise applies. A score never lowers waiting links (the frontier only
 *   raises): a link keeps the best score its parent had once its look-ahead was in.
 * Memory: the relevance of every fetched page (by 53-bit fingerprint, 22 to 68 bytes a page) and,
 * for at most `track` waiting links, the parent that may still raise them. A resume reads the
 * first back from the store (restorePages) and the second from snapshot()/restore().
 */
export class TwoStepStrategy implements Strategy {
  readonly name = 'two-step';
  readonly topic: Topic;
  readonly options: TwoStepOptions;
  /** rel of every fetched page, by URL fingerprint (22 to 34 bytes a key; one or two keys a page). */
  readonly #rels = new FingerprintValues();
  /** Tracked parents by request key, oldest first. */
  readonly #parents = new Map<string, Parent>();
  /** Waiting URL fingerprint -> keys of the tracked parents that link to it. */
  readonly #parentsOf = new Map<number, string[]>();
  #tracked = 0;
  #reoffers: Reoffer[] = [];

  constructor(topic: Topic, options: Partial<TwoStepOptions> = {}) {
    this.topic = topic;
    this.options = twoStepOptions.parse(options);
  }

  seed(): LinkDecision {
    return { priority: 1 };
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const rel = view.relevance ?? 0;
    const { request, page } = view;
    const { alpha, lookahead } = this.options;
    const self = new Set([fingerprintKey(request.url), fingerprintKey(page.url)]);
    for (const k of self) this.#report(k, rel);

    // Out-link pages fetched already.
    const stats = new OutlinkStats(this.topic.threshold);
    const counted = new Set<number>(self);
    for (const l of page.links) {
      const k = fingerprintKey(l.url);
      if (counted.has(k)) continue;
      counted.add(k);
      const r = this.#rels.get(k);
      if (r !== undefined) stats.add(r);
    }

    // `la` marks a look-ahead fetch: its parent's key (its id in databases of earlier versions).
    const isAhead = request.data?.la !== undefined && request.data?.la !== null;
    const need = isAhead ? 0 : Math.min(lookahead, stats.n + links.length);
    const ahead = new Set<number>();
    if (stats.n < need) {
      const ranked = links.map((l, i) => ({ i, a: anchorScore(this.topic, l.anchor).score })).sort((x, y) => y.a - x.a || x.i - y.i);
      for (const r of ranked.slice(0, need - stats.n)) ahead.add(r.i);
    }
    const offered = stats.n >= need ? stats.score(rel, alpha) : alpha * rel;
    const pending = new Map<number, [string, string]>();
    const aheadKeys = new Set<number>();
    const decisions = links.map((l, i): LinkDecision => {
      const k = fingerprintKey(l.url);
      pending.set(k, [l.url, l.anchor]);
      if (!ahead.has(i)) return { priority: offered };
      aheadKeys.add(k);
      return { priority: LOOKAHEAD_BAND + rel, data: { la: request.key } };
    });
    if (pending.size) this.#track(request.key, { rel, depth: request.depth, stats, need, offered, pending, ahead: aheadKeys });
    return decisions;
  }

  reoffers(): Reoffer[] {
    const out = this.#reoffers;
    this.#reoffers = [];
    return out;
  }

  /**
   * A URL ended with no page to score (an HTTP error, no HTML, ...): it is no out-link page, so
   * its parents wait for one fewer, and score from the ones they know (the source's mean is over
   * the out-link pages there are). Without this, one look-ahead link answering 404 kept its
   * parent's other links at alpha * rel(u) for the rest of the crawl.
   */
  unscored(request: CrawlRequest): void {
    this.#report(fingerprintKey(request.url), null);
  }

  /** A page was fetched (its relevance), or ended with none (null): tell the tracked parents that link to it. */
  #report(key: number, rel: number | null): void {
    if (rel !== null) this.#rels.set(key, rel);
    const ids = this.#parentsOf.get(key);
    if (!ids) return;
    this.#parentsOf.delete(key);
    for (const id of ids) {
      const p = this.#parents.get(id);
      if (!p) continue;
      if (!p.pending.delete(key)) continue;
      const wasAhead = p.ahead.delete(key);
      this.#tracked--;
      if (rel !== null) p.stats.add(rel);
      // A look-ahead link with no page is one fewer to wait for (no other is sent ahead in its
      // place); any other only when too few are left to reach the number waited for.
      else p.need = wasAhead ? p.need - 1 : Math.min(p.need, p.stats.n + p.pending.size);
      if (p.stats.n >= p.need) {
        const score = p.stats.score(p.rel, this.options.alpha);
        if (score >= p.offered + MIN_RISE) {
          p.offered = score;
          for (const [k, [u, anchor]] of p.pending) if (!p.ahead.has(k)) this.#reoffers.push({ url: u, depth: p.depth + 1, parent: id, anchor, priority: score });
        }
      }
      if (p.pending.size === 0) this.#parents.delete(id);
    }
  }

  #track(id: string, p: Parent): void {
    this.#parents.set(id, p);
    for (const k of p.pending.keys()) {
      const ids = this.#parentsOf.get(k);
      if (ids) ids.push(id);
      else this.#parentsOf.set(k, [id]);
    }
    this.#tracked += p.pending.size;
    // Oldest parents first: their links have waited longest and most of their scores are settled.
    for (const [oldId, old] of this.#parents) {
      if (this.#tracked <= this.options.track) break;
      this.#untrack(oldId, old);
    }
  }

  #untrack(id: string, p: Parent): void {
    this.#parents.delete(id);
    this.#tracked -= p.pending.size;
    for (const k of p.pending.keys()) {
      const ids = this.#parentsOf.get(k);
      if (!ids) continue;
      const rest = ids.filter((x) => x !== id);
      if (rest.length) this.#parentsOf.set(k, rest);
      else this.#parentsOf.delete(k);
    }
  }

  /**
   * What a resumed crawl needs besides the pages' relevance (restorePages reads that back from the
   * store): the tracked parents, at most `track` links. It held every page's relevance once: at 38
   * characters a page, the checkpoint stalled the crawl a second per million pages every 30 s and
   * failed past about 14 million (V8's longest string).
   */
  snapshot(): unknown {
    return {
      parents: [...this.#parents].map(([id, p]) => [id, p.rel, p.depth, p.need, p.offered, p.stats.toJSON(), [...p.pending.values()], [...p.ahead]]),
    };
  }

  /** Reported as fetched now: a restored parent waiting for one of them stops waiting (its links are offered again). */
  restorePages(pages: Iterable<{ url: string; finalUrl: string; relevance: number }>): void {
    for (const p of pages) {
      this.#report(fingerprintKey(p.url), p.relevance);
      if (p.finalUrl !== p.url) this.#report(fingerprintKey(p.finalUrl), p.relevance);
    }
  }


  restore(state: unknown): void {
    const s = state as { rels?: [number, number][]; parents?: [string | number, number, number, number, number, number[], [string, string][], number[]][] } | null;
    // Snapshots of earlier versions carry every page's relevance; restorePages reads it too.
    for (const [k, r] of s?.rels ?? []) this.#rels.set(k, r);
    for (const [id, rel, depth, need, offered, stats, pending, ahead] of s?.parents ?? []) {
      const links = new Map(pending.map(([u, a]): [number, [string, string]] => [fingerprintKey(u), [u, a]]));
      // A snapshot of an earlier version tracked parents by row id: any unique string does.
      this.#track(String(id), { rel, depth, need, offered, stats: OutlinkStats.from(this.topic.threshold, stats), pending: links, ahead: new Set(ahead) });
    }
  }
}
