import type { CrawlRequest } from '../types.js';
import { BinaryHeap } from './binary-heap.js';

/** Politeness limits applied to every host. */
export interface PolitenessOptions {
  /** Requests in flight per host at once. Default 2. */
  perHost: number;
  /** Minimum time between two request starts to one host, and from a completion to the next start. Default 250 ms. */
  delayMs: number;
}

export const defaultPoliteness: PolitenessOptions = { perHost: 2, delayMs: 250 };

/** Better first: higher priority, then earlier discovery. */
const better = (a: CrawlRequest, b: CrawlRequest) => a.priority > b.priority || (a.priority === b.priority && a.id < b.id);

interface HostQueue {
  host: string;
  queue: BinaryHeap<CrawlRequest>;
  inflight: number;
  /** Earliest time the next request may start. */
  nextAt: number;
  /** Crawl-delay from robots.txt, if larger than the default delay. */
  delayMs: number;
  /** Bumped whenever the host is (re)placed in a heap; heap entries with an old token are stale. */
  token: number;
  /** Requests handed out so far (against the host budget). */
  taken: number;
}

interface HeapEntry {
  h: HostQueue;
  token: number;
  /** wait heap: nextAt; ready heap: unused. */
  at: number;
  head: CrawlRequest | null;
}

/**
 * The in-memory scheduling core shared by the embedded frontiers: one priority queue per host,
 * a `ready` heap of hosts that may start a request now (ordered by their best URL) and a `wait`
 * heap of hosts whose politeness delay is running (ordered by when it ends). Best-first thus means
 * the best URL among hosts that may be contacted now, the Mercator front/back split that the Redis
 * frontier also uses (SCALE.md). Knows nothing of relevance beyond the priority number.
 */
export class HostScheduler {
  readonly #hosts = new Map<string, HostQueue>();
  /**
   * The live request of every queued URL. A raise pushes a better copy and points here at it; the
   * copy it replaces stays in its heap, stale, and is dropped when it surfaces (lazy deletion:
   * a binary heap has no cheap decrease-key).
   */
  readonly #live = new Map<string, CrawlRequest>();
  readonly #ready = new BinaryHeap<HeapEntry>((a, b) => better(a.head!, b.head!));
  readonly #wait = new BinaryHeap<HeapEntry>((a, b) => a.at < b.at);
  readonly #opts: PolitenessOptions;
  #queued = 0;
  #inflight = 0;
  /** Requests a host may be handed in all; Infinity: no budget. */
  #budget = Infinity;

  constructor(opts: Partial<PolitenessOptions> = {}) {
    this.#opts = { ...defaultPoliteness, ...opts };
  }

  /** URLs waiting in all host queues. */
  get queued(): number {
    return this.#queued;
  }

  /** Requests handed out and not yet released. */
  get inflight(): number {
    return this.#inflight;
  }

  #host(host: string): HostQueue {
    let h = this.#hosts.get(host);
    if (!h) {
      h = { host, queue: new BinaryHeap(better), inflight: 0, nextAt: 0, delayMs: this.#opts.delayMs, token: 0, taken: 0 };
      this.#hosts.set(host, h);
    }
    return h;
  }

  push(req: CrawlRequest, now: number): void {
    const h = this.#host(req.host);
    const oldHead = this.#head(h);
    h.queue.push(req);
    this.#live.set(req.url, req);
    this.#queued++;
    if (oldHead === undefined || h.queue.peek() !== oldHead) this.#place(h, now);
  }

  /** True when `url` is queued (waiting), not handed out nor finished. */
  isQueued(url: string): boolean {
    return this.#live.has(url);
  }

  /**
   * A queued URL found again through a better link: when `better.priority` is higher than its own,
   * it takes that priority and the better parent's depth, anchor and carried state (SCALE.md's
   * `ZADD GT`). Returns the new request, or null when the URL is not queued or not raised.
   */
  raise(better: Pick<CrawlRequest, 'url' | 'priority' | 'depth' | 'parentId' | 'anchor' | 'data'>, now: number): CrawlRequest | null {
    const old = this.#live.get(better.url);
    if (!old || !(better.priority > old.priority)) return null;
    const req: CrawlRequest = { ...old, priority: better.priority, depth: better.depth, parentId: better.parentId, anchor: better.anchor, data: better.data };
    const h = this.#host(req.host);
    const oldHead = this.#head(h);
    this.#live.set(req.url, req);
    h.queue.push(req);
    if (h.queue.peek() !== oldHead) this.#place(h, now);
    return req;
  }

  /** The host's best live request, after dropping stale copies that surfaced. */
  #head(h: HostQueue): CrawlRequest | undefined {
    for (;;) {
      const top = h.queue.peek();
      if (top === undefined || this.#live.get(top.url) === top) return top;
      h.queue.pop();
    }
  }

  /** Hands out up to `max` requests from hosts that may be contacted at `now`, best first. */
  take(max: number, now: number): CrawlRequest[] {
    this.#promote(now);
    const out: CrawlRequest[] = [];
    while (out.length < max) {
      const e = this.#ready.pop();
      if (!e) break;
      const h = e.h;
      if (e.token !== h.token) continue;
      const req = this.#head(h);
      if (!req) continue;
      h.queue.pop();
      this.#live.delete(req.url);
      this.#queued--;
      h.inflight++;
      h.taken++;
      this.#inflight++;
      h.nextAt = now + h.delayMs;
      out.push(req);
      this.#place(h, now);
    }
    return out;
  }

  /**
   * Hands out every queued request of `host` regardless of its delay, slots and budget: for
   * ending them without contacting the host, so neither its delay nor its budget is touched.
   */
  takeHost(host: string): CrawlRequest[] {
    const h = this.#hosts.get(host);
    if (!h) return [];
    const out: CrawlRequest[] = [];
    for (let req = this.#head(h); req; req = this.#head(h)) {
      h.queue.pop();
      this.#live.delete(req.url);
      out.push(req);
    }
    this.#queued -= out.length;
    h.inflight += out.length;
    this.#inflight += out.length;
    // Its heap entries are stale now; release() places it again.
    h.token++;
    return out;
  }

  /**
   * A request handed out by take() is finished (whatever its outcome): the host may start another
   * after its delay. `notBefore` blocks the host longer (Retry-After, backoff, robots unreachable).
   */
  release(host: string, now: number, notBefore = 0): void {
    const h = this.#host(host);
    if (h.inflight > 0) {
      h.inflight--;
      this.#inflight--;
    }
    h.nextAt = Math.max(h.nextAt, now + h.delayMs, notBefore);
    this.#place(h, now);
  }

  /** Raises the host's delay (robots.txt Crawl-delay); never lowers it below the default. */
  setHostDelay(host: string, delayMs: number): void {
    const h = this.#host(host);
    h.delayMs = Math.max(this.#opts.delayMs, delayMs);
  }

  /**
   * Caps the requests any host is handed over the crawl (Nutch's and BUbiNG's per-host page
   * budget); a host at its budget keeps its queue but is not scheduled until the budget rises.
   */
  setHostBudget(budget: number, now: number): void {
    this.#budget = budget;
    for (const h of this.#hosts.values()) this.#place(h, now);
  }

  /** Requests already handed to `host` (a resumed crawl restores them, see SqliteFrontier). */
  setTaken(host: string, taken: number): void {
    this.#host(host).taken = taken;
  }

  /**
   * Gives every queued request a new priority (a strategy that learned between rounds); a
   * request for which `priority` returns null keeps its own. Returns the requests changed.
   */
  rescore(priority: (req: CrawlRequest) => number | null, now: number): CrawlRequest[] {
    const changed: CrawlRequest[] = [];
    for (const h of this.#hosts.values()) {
      if (!h.queue.size) continue;
      const reqs = [...h.queue.values()].filter((r) => this.#live.get(r.url) === r);
      h.queue = new BinaryHeap(better);
      for (const r of reqs) {
        const p = priority(r);
        if (p !== null && p !== r.priority) {
          r.priority = p;
          changed.push(r);
        }
        h.queue.push(r);
      }
      this.#place(h, now);
    }
    return changed;
  }

  /** Earliest time a take() could return something: `now` if ready, null if nothing can be (empty, or every host at its budget). */
  nextReadyAt(now: number): number | null {
    this.#promote(now);
    for (;;) {
      const top = this.#ready.peek();
      if (!top) break;
      if (top.token === top.h.token) return now;
      this.#ready.pop();
    }
    for (;;) {
      const top = this.#wait.peek();
      if (!top) return null;
      if (top.token === top.h.token) return top.at;
      this.#wait.pop();
    }
  }

  /** Every queued request (for persistence checks and tests); order unspecified. */
  queuedRequests(): Iterable<CrawlRequest> {
    return this.#live.values();
  }

  #promote(now: number): void {
    for (;;) {
      const top = this.#wait.peek();
      if (!top || top.at > now) return;
      this.#wait.pop();
      if (top.token === top.h.token) this.#place(top.h, now);
    }
  }

  #place(h: HostQueue, now: number): void {
    h.token++;
    const head = this.#head(h);
    if (!head || h.inflight >= this.#opts.perHost || h.taken >= this.#budget) return;
    if (h.nextAt > now) this.#wait.push({ h, token: h.token, at: h.nextAt, head: null });
    else this.#ready.push({ h, token: h.token, at: 0, head });
  }
}
