import type { CrawlRequest, Link } from '../types.js';
import type { SampleLibrary } from '../group/sample-library.js';
import type { TopicBridge } from '../group/topic-bridge.js';
import type { LinkDecision, PageView, Strategy } from './strategy.js';

/** The anchor path a URL carries: the anchor texts from its site root. */
export const carriedPath = (req: Pick<CrawlRequest, 'data'>): string[] => ((req.data as { path?: string[] } | null)?.path ?? []);

/**
 * Method D's crawl ordering (the bootstrapping focused crawler for a group of similar sites):
 * a link's priority is the path discriminator's score of its anchor path, the parent's path plus
 * the link's anchor; site roots come first. Nothing is discarded: the per-site page budget bounds
 * the crawl. With an empty library every score is 0 and the order is breadth-first.
 *
 * The library is state the group crawler changes between rounds (src/group/group-crawl.ts);
 * within a round the strategy is a pure function of it. Not in the `--strategy` registry: it needs
 * example pages (`focuscrawl group`).
 */
export class BootstrapGroupStrategy implements Strategy {
  readonly name = 'bootstrap-group';
  readonly topic = null;
  readonly #library: SampleLibrary;
  readonly #bridge: TopicBridge | null;

  /** `bridge`: the user's topic keywords, scored beside the library (the better of the two counts). */
  constructor(library: SampleLibrary, bridge: TopicBridge | null = null) {
    this.#library = library;
    this.#bridge = bridge;
  }

  #score(path: readonly string[]): number {
    const bySamples = this.#library.pathScore(path);
    return this.#bridge ? Math.max(bySamples, this.#bridge.pathScore(path)) : bySamples;
  }

  seed(): LinkDecision {
    return { priority: 2, data: { path: [] } };
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const up = carriedPath(view.request);
    return links.map((l) => {
      const path = [...up, l.anchor];
      return { priority: this.#score(path), data: { path } };
    });
  }

  /** The priority a waiting URL gets after the library changed (Frontier.rescore); roots keep theirs. */
  rescore(req: CrawlRequest): number | null {
    const path = carriedPath(req);
    return path.length ? this.#score(path) : null;
  }
}
