import { createHash } from 'node:crypto';
import type { CrawlRequest, Link } from '../../src/types.js';
import type { LinkDecision, PageView, Reoffer, Strategy } from '../../src/strategies/strategy.js';

/**
 * N copies of a strategy in one embedded crawl, each page scored by the copy its URL's hash
 * picks: what N shared workers' strategies see (each learns from the pages its worker fetched),
 * in a crawl of one request at a time, so its order is the same on every run. With `share`, every
 * copy also hears what the others learned from each page (Strategy.evidence/hear).
 */
export class SplitLearning implements Strategy {
  readonly name: string;
  readonly topic;
  readonly linkContext?: number;
  readonly #copies: Strategy[];
  readonly #share: boolean;

  constructor(copies: Strategy[], share: boolean) {
    this.#copies = copies;
    this.#share = share;
    this.name = copies[0]!.name;
    this.topic = copies[0]!.topic;
    this.linkContext = copies[0]!.linkContext;
    // The first call starts each copy's recording.
    if (share) for (const c of copies) c.evidence?.();
  }

  #of(url: string): Strategy {
    return this.#copies[createHash('sha1').update(url).digest().readUInt32BE(0) % this.#copies.length]!;
  }

  seed(url: string): LinkDecision {
    return this.#of(url).seed(url);
  }

  scoreLinks(view: PageView, links: readonly Link[]): (LinkDecision | null)[] {
    const own = this.#of(view.request.url);
    const out = own.scoreLinks(view, links);
    if (this.#share && own.evidence) {
      const said = own.evidence();
      for (const c of this.#copies) if (c !== own) c.hear?.(said);
    }
    return out;
  }

  reoffers(): Reoffer[] {
    return this.#copies.flatMap((c) => c.reoffers?.() ?? []);
  }

  unscored(request: CrawlRequest): void {
    this.#of(request.url).unscored?.(request);
  }
}
