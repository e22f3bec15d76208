import { EventEmitter } from 'node:events';
import type { PageRecord } from '../store/store.js';

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
    /**
     * The page as stored (title, text, outlinks, headers, relevance), for a page that was stored;
     * null for an error, and for a page the store does not keep (a service probe's answer).
     */
    page: PageRecord | null;
    /**
     * The response's body as served, decompressed, not decoded (`page.encoding` names its
     * charset); null where none was read (no request made, a type that is not parsed). Held by the
     * event only: a listener that keeps it keeps its memory.
     */
    body: Uint8Array | null;
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

/**
 * A listener may be async: the crawl does not wait for it, and a rejection is reported as a throw
 * is. What it returns is otherwise ignored (`(e) => list.push(e)` is a listener too).
 */
type Listener<K extends keyof CrawlEvents> = (e: CrawlEvents[K]) => unknown;

const EVENT_NAMES: readonly (keyof CrawlEvents)[] = ['fetched', 'discarded', 'retried', 'probe', 'backlog'];

/**
 * A typed event emitter over CrawlEvents; a listener that throws, or whose promise rejects, is
 * reported as a process warning, not fatal to the crawl (an async listener's rejection was an
 * unhandled rejection, which ends a Node process mid-crawl).
 */
export class CrawlEventBus {
  readonly #emitter = new EventEmitter();

  constructor() {
    this.#emitter.setMaxListeners(50);
  }

  /** Subscribes to one event; returns the function that unsubscribes. */
  on<K extends keyof CrawlEvents>(name: K, fn: Listener<K>): () => void {
    // JavaScript callers have no type check: a misspelt name ('fetch') would never fire.
    if (!EVENT_NAMES.includes(name)) throw new TypeError(`no crawl event '${String(name)}': the events are ${EVENT_NAMES.join(', ')}`);
    if (typeof fn !== 'function') throw new TypeError(`the '${name}' listener is not a function`);
    this.#emitter.on(name, fn);
    return () => this.#emitter.off(name, fn);
  }

  emit<K extends keyof CrawlEvents>(name: K, e: CrawlEvents[K]): void {
    if (this.#emitter.listenerCount(name) === 0) return;
    const failed = (err: unknown) => process.emitWarning(`focuscrawl: a '${name}' listener failed: ${err instanceof Error ? err.message : String(err)}`);
    for (const fn of this.#emitter.listeners(name) as Listener<K>[]) {
      try {
        const done = fn(e);
        if (typeof (done as PromiseLike<unknown> | null)?.then === 'function') (done as PromiseLike<unknown>).then(undefined, failed);
      } catch (err) {
        failed(err);
      }
    }
  }
}
