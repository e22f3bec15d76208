import type { CrawlReader } from '../store/crawl-reader.js';
import type { Strategy } from '../strategies/strategy.js';
import type { FedLabels } from '../strategies/strategy-state.js';

/**
 * Feeds the dashboard's labels to a learning strategy (Strategy.learnFromLabels) while a crawl
 * runs: each poll reads the labels through the read model and hands over those not fed yet, and
 * again a label a person changed since. One per crawling process: every worker of a shared crawl
 * has its own strategy, which must learn every label. A label of a page not stored yet waits
 * until the page is (the strategy learns from the link that led to it).
 */
export class LabelFeed implements FedLabels {
  readonly #reader: Pick<CrawlReader, 'labels' | 'labelledPages'>;
  readonly #strategy: Strategy;
  /** URL -> the label last fed (relevant or not). */
  readonly #fed = new Map<string, boolean>();
  #pages = 0;

  constructor(reader: Pick<CrawlReader, 'labels' | 'labelledPages'>, strategy: Strategy) {
    this.#reader = reader;
    this.#strategy = strategy;
  }

  /** Labels fed so far (a label changed and fed again counts again). */
  get fed(): number {
    return this.#pages;
  }

  fedLabels(): [string, boolean][] {
    return [...this.#fed];
  }

  assumeFed(labels: Iterable<[string, boolean]>): void {
    for (const [url, relevant] of labels) this.#fed.set(url, relevant);
  }

  /** Feeds the new and changed labels; returns what the strategy said it learned from (0 for a strategy that does not learn). */
  async poll(): Promise<number> {
    if (!this.#strategy.learnFromLabels) return 0;
    // labels() is newest first; the strategy gets them in the order they were given (SGD is order-sensitive).
    const fresh = (await this.#reader.labels()).filter((l) => this.#fed.get(l.url) !== l.relevant).map((l) => l.url).reverse();
    if (!fresh.length) return 0;
    const order = new Map(fresh.map((url, i) => [url, i]));
    const pages = (await this.#reader.labelledPages(fresh)).sort((a, b) => order.get(a.url)! - order.get(b.url)!);
    if (!pages.length) return 0;
    for (const p of pages) this.#fed.set(p.url, p.relevant);
    this.#pages += pages.length;
    return this.#strategy.learnFromLabels(pages.map((p) => ({ relevant: p.relevant, linkData: p.linkData })));
  }
}
