import { fetchedSql, madeNoRequestSql } from '../fetch/made-no-request.js';
import { parseStored } from '../store/stored-json.js';
import type { CrawlRequest } from '../types.js';
import { UrlState } from '../types.js';
import { fingerprintFromBigInt, keyToBigInt, urlKey } from '../seen/fingerprint.js';
import { ClockCache } from '../seen/clock-cache.js';
import { FingerprintSet } from '../seen/fingerprint-set.js';
import { LayeredSeenSet } from '../seen/layered-seen-set.js';
import { SqliteSeenBacking } from '../seen/sqlite-seen-backing.js';
import type { SqliteDb, WriteStatement } from '../store/sqlite-db.js';
import { BY_STRATEGY, isRevivable, TOO_DEEP, type Outcome } from './frontier.js';
import type { PolitenessOptions, SpillKey } from './host-scheduler.js';
import type { Statement } from 'better-sqlite3';
import type { NewRequest } from '../types.js';
import { MemoryFrontier } from './memory-frontier.js';
import { kindJson, requestKind, type RequestKind } from './request-kind.js';

interface UrlRow {
  id: number;
  /** The fingerprint as 16 hex digits (ROW_COLUMNS), exact: the number itself would not fit a double. */
  key: string;
  url: string;
  host: string;
  depth: number;
  parent_key: string | null;
  anchor: string;
  priority: number;
  data: string | null;
  state: number;
  attempts: number;
  probe: string | null;
}

/**
 * The embedded durable frontier: scheduling happens in memory (MemoryFrontier's host queues), and
 * every transition is journaled to the `urls` table of the crawl database. Opening a database that
 * holds a crawl reloads its seen set and waiting URLs; leases left open by a crash return to waiting.
 *
 * The URL-seen test is the whole fingerprint set in memory by default (`seenCache` 0), or, with
 * `seenCache` N, a CLOCK cache of N fingerprints in front of the `urls` table (method E's layering:
 * little memory for a huge crawl, an index lookup per cache miss). The revivable discards (too
 * deep, by the strategy) are then held for the N most recent only; older ones become final.
 *
 * Waiting URLs: about `memory` of them are held in memory, each host's best (at least 2 a host);
 * the others wait only in the `urls` table and are read back, best first, when their host runs
 * short (HostScheduler's spill store). A URL read back must not be one this process holds, leased
 * or claimed in a write the writer thread has not committed yet (its row still says waiting).
 */
/** The columns a waiting URL is read back with; fingerprints as hex, since doubles cannot hold them. */
const ROW_COLUMNS = `id, printf('%016x', fp) AS key, url, host, depth, CASE WHEN parent IS NULL THEN NULL ELSE printf('%016x', parent) END AS parent_key,
  anchor, priority, data, state, attempts, probe`;

export class SqliteFrontier extends MemoryFrontier {
  readonly #sql: SqliteDb;
  readonly #insert: WriteStatement;
  readonly #setState: WriteStatement;
  readonly #setWaiting: WriteStatement;
  readonly #setPriority: WriteStatement;
  readonly #setRaised: WriteStatement;
  readonly #raiseByFp: WriteStatement;
  readonly #revive: WriteStatement;
  readonly #rediscard: WriteStatement;
  readonly #loadHost: Statement;
  readonly #loadHostAhead: Statement;
  /** Claimed URLs -> the flush that writes the claim; their rows say "waiting" until it commits. */
  readonly #claims = new Map<string, number>();
  /** Waiting URLs whose rows are being written (added, retried, revived, raised, rescored) -> the flush that writes them. */
  readonly #unwritten = new Map<string, number>();
  /** Raises of URLs that wait in the file, not yet committed: a row read back before then takes them. */
  readonly #raisedSpilled = new Map<string, { seq: number; b: NewRequest }>();
  /** The file holds fetches the scheduler has not counted (see setHostBudget). */
  #countsStale = false;

  /**
   * `spill.memory`: waiting URLs held in memory over all hosts (default 20,000; the rest wait in
   * the file); `spill.minPerHost`: the least a host holds (default 2).
   */
  constructor(sql: SqliteDb, politeness: Partial<PolitenessOptions> = {}, seenCache = 0, spill: { memory?: number; minPerHost?: number } = {}) {
    const self: { f?: SqliteFrontier } = {};
    const store = {
      load: (host: string, limit: number, held: (url: string) => boolean, heldCount: number, after?: SpillKey) => self.f!.#readBack(host, limit, held, heldCount, after),
      written: (req: CrawlRequest) => self.f!.#written(req.url),
    };
    super(politeness, seenCache > 0 ? new LayeredSeenSet(new ClockCache(seenCache), new SqliteSeenBacking(sql)) : new FingerprintSet(), { store, ...spill }, seenCache);
    self.f = this;
    this.#sql = sql;
    this.#loadHost = sql.db.prepare(`SELECT ${ROW_COLUMNS} FROM urls WHERE host = ? AND state = 0 ORDER BY priority DESC, id LIMIT ?`);
    this.#loadHostAhead = sql.db.prepare(
      `SELECT ${ROW_COLUMNS} FROM urls WHERE host = ? AND state = 0 AND (priority > ? OR (priority = ? AND id < ?)) ORDER BY priority DESC, id LIMIT ?`,
    );
    this.#raiseByFp = sql.prepareWrite('UPDATE urls SET priority = ?, depth = min(depth, ?), parent = ?, anchor = ?, data = ? WHERE fp = ? AND state = 0 AND priority < ?');
    this.#insert = sql.prepareWrite(
      'INSERT INTO urls(id, fp, url, host, depth, parent, anchor, priority, data, state, attempts, reason, probe) VALUES (?,?,?,?,?,?,?,?,?,?,0,?,?)',
    );
    // A revived URL takes a new id: it is discovered now, and ties are served in discovery order.
    // Nothing refers to a discarded URL's id (its log line has none, and it has no page).
    this.#revive = sql.prepareWrite(
      'UPDATE urls SET id = ?, depth = ?, parent = ?, anchor = ?, priority = ?, data = ?, state = 0, attempts = 0, reason = NULL, probe = ? WHERE fp = ? AND state = 4',
    );
    // A new id, as a revival takes: the log leaves out the discard line of the old one (crawlLogRows).
    this.#rediscard = sql.prepareWrite('UPDATE urls SET id = ?, depth = ?, parent = ?, anchor = ?, reason = ? WHERE fp = ? AND state = 4');
    this.#setState = sql.prepareWrite('UPDATE urls SET state = ?, reason = ? WHERE id = ?');
    this.#setWaiting = sql.prepareWrite('UPDATE urls SET state = 0, attempts = ? WHERE id = ?');
    this.#setPriority = sql.prepareWrite('UPDATE urls SET priority = ? WHERE id = ?');
    this.#setRaised = sql.prepareWrite('UPDATE urls SET priority = ?, depth = ?, parent = ?, anchor = ?, data = ? WHERE id = ?');
    this.#load();
  }

  #load(): void {
    const db = this.#sql.db;
    const now = Date.now();
    // Leases are in-process: whatever was fetching when the last process died is waiting again.
    db.prepare('UPDATE urls SET state = 0 WHERE state = 1').run();
    if (this.seen instanceof FingerprintSet) {
      const fps = db.prepare('SELECT fp FROM urls').pluck().safeIntegers(true);
      for (const fp of fps.iterate() as Iterable<bigint>) {
        const f = fingerprintFromBigInt(fp);
        this.seen.addFingerprint(f.hi, f.lo);
      }
    }
    // Only the revivable discards (prefix matches on the reason, not every discarded row's text).
    // Oldest first, so that a bounded set (with a seen cache) keeps the most recent.
    const discarded = db.prepare('SELECT fp, reason FROM urls WHERE state = 4 AND (substr(reason, 1, ?) = ? OR substr(reason, 1, ?) = ?) ORDER BY id').safeIntegers(true);
    for (const { fp, reason } of discarded.iterate(TOO_DEEP.length, TOO_DEEP, BY_STRATEGY.length, BY_STRATEGY) as Iterable<{ fp: bigint; reason: string | null }>) {
      if (!isRevivable(reason)) continue;
      const f = fingerprintFromBigInt(fp);
      this.revivable.addFingerprint(f.hi, f.lo);
    }
    // Each host's best waiting URLs come into memory; the rest stay in the file until needed.
    const hosts = db.prepare('SELECT host, count(*) AS n, max(priority) AS best FROM urls WHERE state = 0 GROUP BY host').all() as { host: string; n: number; best: number }[];
    const share = this.scheduler.perHostShare(hosts.length);
    for (const { host, n, best } of hosts) {
      // Past `memory` hosts none is read now: each is placed by its best priority and read when its turn comes.
      const rows = share > 0 ? (this.#loadHost.all(host, share) as UrlRow[]).map(toRequest) : [];
      for (const r of rows) this.scheduler.push(r, now);
      if (n > rows.length) this.scheduler.restoreSpilled(host, n - rows.length, rows[rows.length - 1] ?? { priority: best, id: 0 }, now);
    }
    // Fetches per host so far are read when a budget is set (setHostBudget): most crawls set none.
    this.#countsStale = db.prepare(`SELECT 1 FROM urls WHERE ${fetchedSql()} LIMIT 1`).get() !== undefined;
    const max = db.prepare('SELECT max(id) FROM urls').pluck().get() as number | null;
    this.nextId = (max ?? 0) + 1;
    for (const { state, n } of db.prepare('SELECT state, count(*) AS n FROM urls WHERE state >= 2 GROUP BY state').all() as {
      state: number;
      n: number;
    }[]) {
      if (state === UrlState.done) this.tally.done = n;
      else if (state === UrlState.error) this.tally.error = n;
      else if (state === UrlState.discarded) this.tally.discarded = n;
    }
    this.tally.notFetched = db.prepare(`SELECT count(*) FROM urls WHERE state = 3 AND ${madeNoRequestSql()}`).pluck().get() as number;
  }

  /**
   * A per-host budget counts each host's fetches so far: on the first budget of a reopened crawl,
   * or when the scheduler forgot idle hosts while no budget was set, they are read from the file
   * (ends without a request are no fetch).
   */
  override async setHostBudget(budget: number): Promise<void> {
    if (Number.isFinite(budget) && (this.#countsStale || this.scheduler.forgotTaken)) {
      // Every fetch recorded so far, the writer thread's queue included.
      this.#sql.flush();
      await this.#sql.settle();
      const counts = this.#sql.db.prepare(`SELECT host, count(*) AS n FROM urls WHERE ${fetchedSql()} GROUP BY host`).all() as { host: string; n: number }[];
      this.scheduler.restoreTaken(counts);
      this.#countsStale = false;
    }
    await super.setHostBudget(budget);
  }

  /** HostScheduler's spill store: `host`'s best waiting rows that this process does not hold. */
  #readBack(host: string, limit: number, held: (url: string) => boolean, heldCount: number, after?: SpillKey): CrawlRequest[] {
    // Rows still queued for writing are not in the file, or are there as they were. Written inline,
    // a flush commits them at once; with a writer thread (the crawl's) they arrive at its next
    // commit (the crawl flushes every 25 ms; flushing here on every read back flooded it with tiny
    // transactions), and meanwhile the scheduler keeps such URLs in memory (#written) and a raise
    // not yet committed is applied to the row read (#raisedSpilled).
    if (this.#sql.inline && this.#sql.pending) this.#sql.flush();
    this.#pruneClaims();
    const n = limit + heldCount + this.#claims.size;
    const query = () => (after ? this.#loadHostAhead.all(host, after.priority, after.priority, after.id, n) : this.#loadHost.all(host, n)) as UrlRow[];
    const rows = query();
    const out: CrawlRequest[] = [];
    for (const r of rows) {
      if (held(r.url) || this.#claims.has(r.url)) continue;
      const req = toRequest(r);
      const raise = this.#raisedSpilled.get(req.url);
      if (raise && raise.seq > this.#sql.committedSeq && raise.b.priority > req.priority) {
        Object.assign(req, { priority: raise.b.priority, depth: Math.min(req.depth, raise.b.depth), parent: raise.b.parent, anchor: raise.b.anchor, data: raise.b.data });
      }
      out.push(req);
      if (out.length >= limit) break;
    }
    return out;
  }

  #pruneClaims(): void {
    const committed = this.#sql.committedSeq;
    for (const [url, seq] of this.#claims) if (seq <= committed) this.#claims.delete(url);
  }

  /** True when the file's row of this waiting URL is as the frontier has it (HostScheduler's spill store). */
  #written(url: string): boolean {
    // Written inline, every queued row is committed before a read back (#readBack).
    if (this.#sql.inline) return true;
    const seq = this.#unwritten.get(url);
    if (seq === undefined) return true;
    if (seq > this.#sql.committedSeq) return false;
    this.#unwritten.delete(url);
    return true;
  }

  /**
   * Notes a waiting URL's row write. The map is in flush order (a URL written again moves to the
   * end), so the committed ones are forgotten from its front: a scan of the whole map on every
   * write once it held 4,096 slowed the crawl by a sixth (bench/throughput).
   */
  #writing(url: string): void {
    if (this.#sql.inline) return;
    forgetCommitted(this.#unwritten, (seq) => seq, this.#sql.committedSeq);
    this.#unwritten.delete(url);
    this.#unwritten.set(url, this.#sql.nextFlushSeq);
  }

  #insertRow(req: CrawlRequest, state: number, reason: string | null): void {
    const data = req.data ? JSON.stringify(req.data) : null;
    this.#sql.write(this.#insert, [req.id, keyToBigInt(req.key), req.url, req.host, req.depth, req.parent === null ? null : keyToBigInt(req.parent), req.anchor, req.priority, data, state, reason, probeColumn(req)]);
  }

  protected override onRevived(req: CrawlRequest): void {
    this.#writing(req.url);
    const data = req.data ? JSON.stringify(req.data) : null;
    this.#sql.write(this.#revive, [req.id, req.depth, req.parent === null ? null : keyToBigInt(req.parent), req.anchor, req.priority, data, probeColumn(req), keyToBigInt(req.key)]);
  }

  protected override onRediscarded(req: CrawlRequest, reason: string): void {
    this.#sql.write(this.#rediscard, [req.id, req.depth, req.parent === null ? null : keyToBigInt(req.parent), req.anchor, reason, keyToBigInt(req.key)]);
  }

  protected override onAdded(req: CrawlRequest): void {
    this.#writing(req.url);
    this.#insertRow(req, UrlState.waiting, null);
  }

  protected override onDiscarded(req: CrawlRequest, reason: string): void {
    this.#insertRow(req, UrlState.discarded, reason);
  }

  protected override onClaimed(reqs: CrawlRequest[]): void {
    // Committed claims need no remembering; without this the map grew by every URL ever claimed.
    if (this.#claims.size > 1024) this.#pruneClaims();
    const seq = this.#sql.nextFlushSeq;
    for (const r of reqs) {
      this.#sql.write(this.#setState, [UrlState.fetching, null, r.id]);
      this.#claims.set(r.url, seq);
    }
  }

  protected override onRaiseSpilled(b: NewRequest): void {
    if (!this.#sql.inline) {
      // In flush order, as #unwritten.
      forgetCommitted(this.#raisedSpilled, (r) => r.seq, this.#sql.committedSeq);
      this.#raisedSpilled.delete(b.url);
      this.#raisedSpilled.set(b.url, { seq: this.#sql.nextFlushSeq, b });
    }
    const fp = keyToBigInt(urlKey(b.url));
    this.#sql.write(this.#raiseByFp, [b.priority, b.depth, b.parent === null ? null : keyToBigInt(b.parent), b.anchor, b.data ? JSON.stringify(b.data) : null, fp, b.priority]);
  }

  protected override onCompleted(req: CrawlRequest, outcome: Outcome): void {
    const reason = outcome.state === 'done' ? null : outcome.reason;
    this.#sql.write(this.#setState, [UrlState[outcome.state], reason, req.id]);
  }

  protected override onRescored(req: CrawlRequest): void {
    this.#writing(req.url);
    this.#sql.write(this.#setPriority, [req.priority, req.id]);
  }

  protected override willWrite(url: string): void {
    this.#writing(url);
  }

  protected override onRaised(req: CrawlRequest): void {
    this.#sql.write(this.#setRaised, [req.priority, req.depth, req.parent === null ? null : keyToBigInt(req.parent), req.anchor, req.data ? JSON.stringify(req.data) : null, req.id]);
  }

  protected override onRetried(req: CrawlRequest): void {
    this.#sql.write(this.#setWaiting, [req.attempts, req.id]);
  }
}

/** Drops the committed entries from the front of a map kept in flush order. */
function forgetCommitted<V>(map: Map<string, V>, seqOf: (v: V) => number, committed: number): void {
  for (const [key, v] of map) {
    if (seqOf(v) > committed) return;
    map.delete(key);
  }
}

/** The probe column holds the request's kind (request-kind.ts; no schema change). */
const probeColumn = kindJson;

function toRequest(r: UrlRow): CrawlRequest {
  const { probe, sitemap, redirected } = requestKind(r.probe ? parseStored<RequestKind>(r.probe, () => `kind of ${r.url}`, 'the crawl database') : null);
  return {
    key: r.key,
    id: r.id,
    url: r.url,
    host: r.host,
    depth: r.depth,
    parent: r.parent_key,
    anchor: r.anchor,
    priority: r.priority,
    data: r.data ? parseStored<CrawlRequest['data']>(r.data, () => `carried state of ${r.url}`, 'the crawl database') : null,
    attempts: r.attempts,
    probe,
    sitemap,
    redirected,
  };
}
