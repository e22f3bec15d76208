import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { registerFunctions } from './sql-functions.js';

/**
 * The writer thread of SqliteDb: its own connection to the crawl database. Batches are committed
 * in the order they arrive, all that have arrived in one transaction (so a writer that falls
 * behind commits larger groups), and acknowledged after the commit. Keeping the writes (FTS5
 * indexing above all) off the crawl thread lets the crawl use the second core.
 */
// 0: commit whatever has arrived at each turn of the event loop. Longer waits were measured
// (bench/throughput, 50 and 250 ms) and were slower and held more memory.
const COMMIT_MS = 0;
export interface WriterInit {
  path: string;
}
export type WriterMessage =
  | { type: 'prepare'; id: number; sql: string }
  | { type: 'batch'; seq: number; ops: [number, unknown[]][] }
  /** Commit everything received so far now. */
  | { type: 'sync' }
  | { type: 'close' };
export type WriterReply = { type: 'done'; seq: number } | { type: 'failed'; seq: number; message: string } | { type: 'closed' };

if (parentPort) {
  const port = parentPort;
  const { path } = workerData as WriterInit;
  const db = new Database(path);
  registerFunctions(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const statements: Database.Statement[] = [];
  const run = db.transaction((batches: [number, unknown[]][][]) => {
    for (const ops of batches) for (const [id, params] of ops) statements[id]!.run(params);
  });
  let queued: [number, unknown[]][][] = [];
  let lastSeq = 0;
  let timer: NodeJS.Timeout | null = null;
  /**
   * The first failed commit (a full disk): every later batch is refused, not committed. The
   * batches build on each other (a page's row refers to its URL's, written a batch before), so
   * one committed past a rolled-back one stored a page under another URL's row, and the file no
   * longer held a state the crawl passed through.
   */
  let failed: string | null = null;
  const commit = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!queued.length) return;
    const batches = queued;
    queued = [];
    if (failed !== null) {
      port.postMessage({ type: 'failed', seq: lastSeq, message: `not written after an earlier failure (${failed})` } satisfies WriterReply);
      return;
    }
    try {
      run(batches);
      port.postMessage({ type: 'done', seq: lastSeq } satisfies WriterReply);
    } catch (err) {
      failed = (err as Error).message;
      port.postMessage({ type: 'failed', seq: lastSeq, message: failed } satisfies WriterReply);
    }
  };
  port.on('message', (m: WriterMessage) => {
    if (m.type === 'prepare') {
      statements[m.id] = db.prepare(m.sql);
    } else if (m.type === 'batch') {
      queued.push(m.ops);
      lastSeq = m.seq;
      timer ??= setTimeout(commit, COMMIT_MS);
    } else if (m.type === 'sync') {
      commit();
    } else {
      commit();
      db.close();
      port.postMessage({ type: 'closed' } satisfies WriterReply);
    }
  });
}
