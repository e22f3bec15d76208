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

/**
 * Where a scheduler keeps the waiting requests it does not hold in memory (SqliteFrontier: the
 * `urls` table), so that a crawl that finds tens of millions of URLs keeps only each host's best
 * ones in memory.
 */
export interface SpillStore {
  /**
   * Up to `limit` waiting requests of `host`, best first and, when `better` is given, only those
   * ahead of it in the order; leaving out those `held` says the scheduler holds already (about
   * `heldCount` of them may be ahead). Requests not yet written may be missing: a later call finds them.
   */
  load(host: string, limit: number, held: (url: string) => boolean, heldCount: number, better?: SpillKey): CrawlRequest[];
  /**
   * False while the store's row of this request is not written yet (queued for the writer): such
   * a request stays in memory, since reading the host back would miss it or find its old row.
   */
  written(req: CrawlRequest): boolean;
}

export interface SpillOptions {
  store: SpillStore;
  /**
   * Waiting requests kept in memory over all hosts (each host keeps at least 2): a host whose
   * queue passes its share by half moves the worse ones to the store. Default 20,000.
   */
  memory?: number;
  /** The least a host keeps in memory however many hosts share `memory` (default 2; tests use 1). */
  minPerHost?: number;
}

/** Spilled requests read back at once, at most. */
const REFILL_CHUNK = 256;

/** How long a host whose spilled requests are not in the store yet waits before it looks again. */
const SPILL_RETRY_MS = 50;

/**
 * A host keeps at least this many waiting requests in memory, whatever the number of hosts: none,
 * so that `memory` bounds them however many hosts wait (past `memory` hosts, each waits in the
 * spill store alone, placed by the best key it may have, and is read back when its turn comes).
 */
const MIN_PER_HOST = 0;

/** Host records held before the first look for idle ones to forget. */
const FIRST_SWEEP_AT = 4096;

/** Better first: higher priority, then earlier discovery. */
const better = (a: SpillKey, b: SpillKey) => a.priority > b.priority || (a.priority === b.priority && a.id < b.id);

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
  /** Waiting requests moved to the spill store, and a key no worse than the best of them. */
  spilled: number;
  spillBest: SpillKey;
  /**
   * The queue size past which a push cuts it back again, when the last cut had to keep rows not
   * written yet (0: the share decides). Without it every link of a page of 50,000 sorted the
   * whole queue again, since none of their rows is written before the page ends.
   */
  evictAt: number;
  /** The newest request the last cut kept only because its row was not written (null: none). */
  unwritten: CrawlRequest | null;
}

/** A request's place in the order: priority, then discovery (id). */
export interface SpillKey {
  priority: number;
  id: number;
}

const NO_SPILL: SpillKey = { priority: -Infinity, id: Infinity };

interface HeapEntry {
  h: HostQueue;
  token: number;
  /** wait heap: nextAt; ready heap: unused. */
  at: number;
  /**
   * ready heap: the key of the host's best request, or a key no worse than it (its best may be
   * spilled). Numbers, not the request: a stale entry must not keep a request the host let go.
   */
  priority: number;
  id: number;
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
  readonly #ready = new BinaryHeap<HeapEntry>((a, b) => better(a, b));
  readonly #wait = new BinaryHeap<HeapEntry>((a, b) => a.at < b.at);
  readonly #opts: PolitenessOptions;
  #queued = 0;
  #inflight = 0;
  /** Requests a host may be handed in all; Infinity: no budget. */
  #budget = Infinity;
  readonly #spill: SpillStore | null;
  /** URLs take() or takeHost() is handing out right now: their leases are not recorded yet, so their rows still say waiting. */
  readonly #handing = new Set<string>();
  readonly #memory: number;
  readonly #minPerHost: number;
  /**
   * Requests handed to hosts whose records were forgotten while a budget was set (or, without a
   * spill store, at any time): the budget still counts them.
   */
  readonly #takenOf = new Map<string, number>();
  /** Some forgotten host had been handed requests that no one counted (no budget then; see `forgotTaken`). */
  #forgot = false;
  /** Host records held before the next look for idle ones. */
  #sweepAt = FIRST_SWEEP_AT;
  /** Requests in memory before the next cut of every host to its share (#trim). */
  #trimAt: number;

  /** Without `spill`, every waiting request stays in memory. */
  constructor(opts: Partial<PolitenessOptions> = {}, spill: SpillOptions | null = null) {
    this.#opts = { ...defaultPoliteness, ...opts };
    this.#spill = spill?.store ?? null;
    this.#memory = spill?.memory ?? 20_000;
    this.#minPerHost = spill?.minPerHost ?? MIN_PER_HOST;
    this.#trimAt = 2 * this.#memory + 1024;
  }

  /** Waiting requests held in memory (the rest, if any, are in the spill store). */
  get inMemory(): number {
    return this.#live.size;
  }

  /** URLs waiting in all host queues. */
  get queued(): number {
    return this.#queued;
  }

  /** Entries in the ready and wait heaps, stale ones included (each heap at most twice the hosts and 1,024). */
  get heapEntries(): number {
    return this.#ready.size + this.#wait.size;
  }

  /** Requests handed out and not yet released. */
  get inflight(): number {
    return this.#inflight;
  }

  /** Host records held (hosts with waiting or running requests, and idle ones not yet forgotten). */
  get hostRecords(): number {
    return this.#hosts.size;
  }

  /**
   * True when hosts were forgotten, or counts never restored, while no budget was set: a budget
   * set now needs every host's count from the caller's record (`restoreTaken`).
   */
  get forgotTaken(): boolean {
    return this.#forgot;
  }

  #host(host: string): HostQueue {
    let h = this.#hosts.get(host);
    if (!h) {
      const taken = this.#takenOf.get(host) ?? 0;
      if (taken) this.#takenOf.delete(host);
      h = { host, queue: new BinaryHeap<CrawlRequest>(better), inflight: 0, nextAt: 0, delayMs: this.#opts.delayMs, token: 0, taken, spilled: 0, spillBest: NO_SPILL, evictAt: 0, unwritten: null };
      this.#hosts.set(host, h);
    }
    return h;
  }

  /**
   * Forgets the records of idle hosts (nothing waiting, in memory or spilled, nothing running,
   * their delay over, no Crawl-delay of their own), which a crawl of many sites otherwise keeps
   * for every host it ever touched (about 420 bytes each). A forgotten host's next URL starts a
   * fresh record: its delay has passed, and a Crawl-delay comes back with its next robots check.
   * Runs when the records have doubled since the last look, so its cost per new host is constant.
   */
  #sweep(now: number): void {
    if (this.#hosts.size < this.#sweepAt) return;
    const keepTaken = this.#budget !== Infinity || !this.#spill;
    for (const [host, h] of this.#hosts) {
      if (h.inflight > 0 || h.spilled > 0 || h.nextAt > now || h.delayMs !== this.#opts.delayMs || this.#head(h) !== undefined) continue;
      this.#hosts.delete(host);
      // Its heap entries, if any, become stale.
      h.token++;
      if (h.taken > 0) {
        if (keepTaken) this.#takenOf.set(host, h.taken);
        else this.#forgot = true;
      }
    }
    this.#sweepAt = Math.max(FIRST_SWEEP_AT, 2 * this.#hosts.size);
  }

  /**
   * Requests already handed to each host, from the caller's record (a reopened crawl, or a budget
   * set after hosts were forgotten): a host this scheduler holds keeps the larger count.
   */
  restoreTaken(counts: Iterable<{ host: string; n: number }>): void {
    for (const { host, n } of counts) {
      const h = this.#hosts.get(host);
      if (h) h.taken = Math.max(h.taken, n);
      else if (n > 0) this.#takenOf.set(host, Math.max(n, this.#takenOf.get(host) ?? 0));
    }
    this.#forgot = false;
  }

  /**
   * Cuts every host back to its share once memory holds twice `memory` requests: a host cuts
   * itself back only when it is given more, so hosts filled while few hosts shared the memory
   * kept their larger share as more hosts came. Runs when memory has doubled again, so its cost
   * per request is constant.
   */
  #trim(): void {
    if (!this.#spill || this.#live.size <= this.#trimAt) return;
    const share = this.#perHost();
    for (const h of this.#hosts.values()) if (h.queue.size > share) this.#evict(h);
    // Rows not written yet stay in memory: the next cut waits until memory has grown again.
    this.#trimAt = Math.max(2 * this.#memory + 1024, 2 * this.#live.size);
  }

  push(req: CrawlRequest, now: number): void {
    this.#sweep(now);
    this.#trim();
    const h = this.#host(req.host);
    const oldHead = this.#head(h);
    h.queue.push(req);
    this.#live.set(req.url, req);
    this.#queued++;
    if (this.#overShare(h)) this.#evict(h);
    if (oldHead === undefined || h.queue.peek() !== oldHead) this.#place(h, now);
  }

  /**
   * Waiting requests of a host that are in the spill store, not in memory, as a reopened crawl
   * finds them: `best` is the best priority among them.
   */
  restoreSpilled(host: string, count: number, best: SpillKey, now: number): void {
    const h = this.#host(host);
    h.spilled += count;
    if (better(best, h.spillBest)) h.spillBest = { priority: best.priority, id: best.id };
    this.#queued += count;
    this.#place(h, now);
  }

  /**
   * A waiting request that is in the spill store was raised to `priority` there: the host loads
   * from the store again when that beats what it holds.
   */
  raiseSpilled(host: string, priority: number): void {
    const h = this.#hosts.get(host);
    if (!h || h.spilled === 0 || !(priority > h.spillBest.priority)) return;
    // Its id is not known here: the best one possible makes the host look in the store the next
    // time it is placed (after its next request), not now: a page can raise a hundred links.
    h.spillBest = { priority, id: 0 };
  }

  /** True when some waiting requests of `host` are in the spill store rather than in memory. */
  hasSpilled(host: string): boolean {
    return (this.#hosts.get(host)?.spilled ?? 0) > 0;
  }

  /** The best priority a spilled request of `host` may have (-Infinity: none). */
  spillBest(host: string): number {
    return this.#hosts.get(host)?.spillBest.priority ?? -Infinity;
  }

  /** Waiting requests each host keeps in memory, when `hosts` hosts share the budget. */
  perHostShare(hosts: number): number {
    return Math.max(this.#minPerHost, Math.floor(this.#memory / Math.max(1, hosts)));
  }

  #perHost(): number {
    return this.perHostShare(this.#hosts.size);
  }

  /**
   * A host's queue (stale copies included) may pass its share by half before it is cut back; with
   * no share, anything it is given goes to the spill store at once.
   */
  #evictAbove(): number {
    const share = this.#perHost();
    return share === 0 ? 0 : share + Math.max(2, share >> 1);
  }

  /** True when a push or raise must cut the host's queue back (#evict). */
  #overShare(h: HostQueue): boolean {
    if (!this.#spill || h.queue.size <= this.#evictAbove()) return false;
    if (h.queue.size > h.evictAt) return true;
    // Held back by rows not written then: cut again once the newest of them is (rows are written in order).
    return h.unwritten !== null && this.#spill.written(h.unwritten);
  }

  /**
   * Drops the host's stale copies and, when more live requests than its share remain, keeps the
   * best share in memory and forgets the rest, which the spill store holds. What it must keep
   * (rows not written yet) waits for the queue to double before the next cut, so a page's
   * thousands of links cost a sort each doubling, not one each.
   */
  #evict(h: HostQueue): void {
    const unwritten = this.#cut(h);
    const over = h.queue.size > this.#evictAbove();
    h.evictAt = over ? 2 * h.queue.size : 0;
    // Only while it holds the host back: a request kept here would outlive its claim.
    h.unwritten = over ? unwritten : null;
  }

  /** Returns the newest request kept only because its row is not written yet, or null. */
  #cut(h: HostQueue): CrawlRequest | null {
    const live = [...h.queue.values()].filter((r) => this.#live.get(r.url) === r);
    const keep = this.#perHost();
    h.queue = new BinaryHeap<CrawlRequest>(better);
    if (live.length <= keep) {
      // Only stale copies (left by raises) made the queue long: compacting is enough.
      for (const r of live) h.queue.push(r);
      return null;
    }
    live.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
    const out: CrawlRequest[] = [];
    let unwritten: CrawlRequest | null = null;
    live.forEach((r, i) => {
      if (i < keep) h.queue.push(r);
      else if (!this.#spill!.written(r)) {
        // Not written yet: it stays too, and a later cut moves it (#overShare, #trim).
        h.queue.push(r);
        if (!unwritten || r.id > unwritten.id) unwritten = r;
      } else out.push(r);
    });
    if (!out.length) return unwritten;
    for (const r of out) this.#live.delete(r.url);
    h.spilled += out.length;
    if (better(out[0]!, h.spillBest)) h.spillBest = { priority: out[0]!.priority, id: out[0]!.id };
    return unwritten;
  }

  /**
   * Brings a host's best spilled requests back when its queue is empty or one of them beats its
   * head (`all`: every one, for takeHost and rescore).
   */
  #refill(h: HostQueue, all = false): void {
    if (!this.#spill || h.spilled === 0) return;
    const head = this.#head(h);
    if (!all && head && !better(h.spillBest, head)) return;
    // Only what beats the head is needed (everything in memory is behind it), a chunk at a time.
    const limit = all ? h.spilled : Math.max(1, Math.min(this.#perHost(), REFILL_CHUNK));
    const after = all ? undefined : head;
    const rows = this.#spill.load(h.host, limit, (url) => this.#live.has(url) || this.#handing.has(url), (all ? h.queue.size : 0) + this.#handing.size, after);
    for (const r of rows) {
      h.queue.push(r);
      this.#live.set(r.url, r);
    }
    h.spilled = Math.max(0, h.spilled - rows.length);
    // The rest are behind the last row read (a full chunk) or behind the old head, which is in
    // memory; rows not yet written are found by a later call.
    const last = rows[rows.length - 1];
    // Nothing read and nothing held: the rows are not written yet, and the old key still bounds them.
    if (h.spilled === 0) h.spillBest = NO_SPILL;
    else if (last && rows.length >= limit) h.spillBest = { priority: last.priority, id: last.id };
    else if (head) h.spillBest = { priority: head.priority, id: head.id };
    // With no share the row read is handed out or given back by take(); cutting back here would
    // give it back at once when the host holds a request whose row is not written yet.
    if (!all && this.#perHost() > 0 && h.queue.size > Math.max(limit, this.#evictAbove())) this.#evict(h);
  }

  /** True when `url` is queued (waiting), not handed out nor finished. */
  isQueued(url: string): boolean {
    return this.#live.has(url);
  }

  /**
   * A queued URL found again through a better link: when `better.priority` is higher than its own,
   * it takes that priority and the better parent's anchor and carried state (SCALE.md's
   * `ZADD GT`), and keeps the smaller depth. Returns the new request, or null when the URL is not
   * queued or not raised.
   */
  raise(better: Pick<CrawlRequest, 'url' | 'priority' | 'depth' | 'parent' | 'anchor' | 'data'>, now: number): CrawlRequest | null {
    const old = this.#live.get(better.url);
    if (!old || !(better.priority > old.priority)) return null;
    const depth = Math.min(old.depth, better.depth);
    const req: CrawlRequest = { ...old, priority: better.priority, depth, parent: better.parent, anchor: better.anchor, data: better.data };
    const h = this.#host(req.host);
    const oldHead = this.#head(h);
    this.#live.set(req.url, req);
    h.queue.push(req);
    // Raises leave stale copies behind; cutting back also drops them.
    if (this.#overShare(h)) this.#evict(h);
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
      // Its best may be spilled (placed by a key no worse than it, or raised since it was placed).
      this.#refill(h);
      const req = this.#head(h);
      if (!req) {
        // Its spilled rows are not written yet: it looks again shortly.
        if (h.spilled > 0) this.#wait.push({ h, token: ++h.token, at: now + SPILL_RETRY_MS, priority: 0, id: 0 });
        continue;
      }
      const next = this.#readyTop();
      if (next && better(next, req)) {
        // Placed by a key better than what it holds: it goes back in line with its real best
        // (and what was read for it goes back to the store when its share is none).
        if (this.#spill && h.queue.size > this.#perHost()) this.#evict(h);
        this.#place(h, now);
        continue;
      }
      h.queue.pop();
      this.#live.delete(req.url);
      this.#queued--;
      h.inflight++;
      h.taken++;
      this.#inflight++;
      h.nextAt = now + h.delayMs;
      out.push(req);
      this.#handing.add(req.url);
      this.#place(h, now);
    }
    this.#handing.clear();
    return out;
  }

  /**
   * Hands out every queued request of `host` regardless of its delay, slots and budget: for
   * ending them without contacting the host, so neither its delay nor its budget is touched.
   */
  takeHost(host: string): CrawlRequest[] {
    const h = this.#hosts.get(host);
    if (!h) return [];
    this.#refill(h, true);
    const out: CrawlRequest[] = [];
    for (let req = this.#head(h); req; req = this.#head(h)) {
      h.queue.pop();
      this.#live.delete(req.url);
      out.push(req);
    }
    this.#handing.clear();
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

  /** Keeps the host from being contacted before `notBefore` (a request's slot was already released). */
  hold(host: string, now: number, notBefore: number): void {
    const h = this.#host(host);
    if (notBefore <= h.nextAt) return;
    h.nextAt = notBefore;
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


  /**
   * A request take() counted against the host's budget did not become a fetch (it was retried,
   * released, or ended without a request): the count goes back, and a host that was at its
   * budget may be scheduled again.
   */
  untake(host: string, now: number): void {
    const h = this.#hosts.get(host);
    if (!h) {
      // Forgotten since it was handed the request (its slot went back first, with no delay to wait).
      const n = this.#takenOf.get(host) ?? 0;
      if (n > 1) this.#takenOf.set(host, n - 1);
      else this.#takenOf.delete(host);
      return;
    }
    if (h.taken === 0) return;
    h.taken--;
    this.#place(h, now);
  }

  /**
   * Gives every queued request a new priority (a strategy that learned between rounds); a
   * request for which `priority` returns null keeps its own. Returns the requests changed.
   */
  rescore(priority: (req: CrawlRequest) => number | null, now: number): CrawlRequest[] {
    const changed: CrawlRequest[] = [];
    for (const h of this.#hosts.values()) {
      // Every waiting request is rescored, spilled ones included (group crawls are small).
      this.#refill(h, true);
      if (!h.queue.size) continue;
      const reqs = [...h.queue.values()].filter((r) => this.#live.get(r.url) === r);
      h.queue = new BinaryHeap<CrawlRequest>(better);
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

  /** The ready heap's top that is not stale. */
  #readyTop(): HeapEntry | undefined {
    for (;;) {
      const top = this.#ready.peek();
      if (!top || top.token === top.h.token) return top;
      this.#ready.pop();
    }
  }

  /**
   * Puts the host in the ready or the wait heap. Its key is the better of its best request in
   * memory and the bound on its spilled ones: the spill store is read when the host's turn comes
   * (take), not each time it is placed.
   */
  #place(h: HostQueue, now: number): void {
    h.token++;
    const head = this.#head(h);
    if (h.inflight >= this.#opts.perHost || h.taken >= this.#budget) return;
    const key = h.spilled > 0 && (!head || better(h.spillBest, head)) ? h.spillBest : head;
    if (!key) return;
    if (h.nextAt > now) this.#wait.push({ h, token: h.token, at: h.nextAt, priority: 0, id: 0 });
    else this.#ready.push({ h, token: h.token, at: 0, priority: key.priority, id: key.id });
    this.#compact();
  }

  /**
   * Drops stale entries (a host placed again since) once they outnumber the hosts: they leave a
   * heap only when they reach its top, and a best-first crawl's low entries never do, so a long
   * crawl held about one per two fetches (60 bytes each, and the request each named), without end.
   */
  #compact(): void {
    const limit = 2 * this.#hosts.size + 1024;
    const live = (e: HeapEntry) => e.token === e.h.token;
    if (this.#ready.size > limit) this.#ready.retain(live);
    if (this.#wait.size > limit) this.#wait.retain(live);
  }
}
