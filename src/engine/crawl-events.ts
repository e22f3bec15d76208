import { EventEmitter } from 'node:events';

/** What the crawl loop reports as it goes: the progress bar, the dashboard and the metrics listen. */
export interface CrawlEvents {
  /** A URL was fetched (done, or an error after a request) or ended without a request (error). */
  fetched: {
    key: string;
    url: string;
    host: string;
    state: 'done' | 'error';
    /** False for an error that made no request (host or robots.txt unreachable). */
    requested: boolean;
    status: number | null;
    relevance: number | null;
    relevant: boolean;
    bytes: number;
    fetchMs: number;
    depth: number;
    priority: number;
  };
  /** A URL was discarded (with the reason) before or instead of a fetch. */
  discarded: { url: string; reason: string; kind: string };
  /** A fetch failed and the URL waits for another attempt. */
  retried: { url: string; attempts: number; notBefore: number; reason: string };
  /** A service probe was judged. */
  probe: { endpoint: string; type: string; status: string };
  /** The store's back-pressure changed: congested, the crawl stops claiming until it clears. */
  backlog: { congested: boolean };
}

type Listener<K extends keyof CrawlEvents> = (e: CrawlEvents[K]) => void;

/** A typed event emitter over CrawlEvents; a listener that throws is reported, not fatal to the crawl. */
export class CrawlEventBus {
  readonly #emitter = new EventEmitter();

  constructor() {
    this.#emitter.setMaxListeners(50);
  }

  on<K extends keyof CrawlEvents>(name: K, fn: Listener<K>): () => void {
    this.#emitter.on(name, fn);
    return () => this.#emitter.off(name, fn);
  }

  emit<K extends keyof CrawlEvents>(name: K, e: CrawlEvents[K]): void {
    if (this.#emitter.listenerCount(name) === 0) return;
    for (const fn of this.#emitter.listeners(name) as Listener<K>[]) {
      try {
        fn(e);
      } catch (err) {
        process.emitWarning(`focuscrawl: a '${name}' listener failed: ${(err as Error).message}`);
      }
    }
  }
}
