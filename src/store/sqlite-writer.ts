import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * The writer thread of SqliteDb: its own connection to the crawl database, running each journal
 * batch in one transaction, in the order the batches arrive, and acknowledging each. Keeping the
 * writes (FTS5 indexing above all) off the crawl thread lets the crawl use the second core.
 */
export interface WriterInit {
  path: string;
}
export type WriterMessage =
  | { type: 'prepare'; id: number; sql: string }
  | { type: 'batch'; seq: number; ops: [number, unknown[]][] }
  | { type: 'close' };
export type WriterReply = { type: 'done'; seq: number } | { type: 'failed'; seq: number; message: string } | { type: 'closed' };

if (parentPort) {
  const port = parentPort;
  const { path } = workerData as WriterInit;
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const statements: Database.Statement[] = [];
  const run = db.transaction((ops: [number, unknown[]][]) => {
    for (const [id, params] of ops) statements[id]!.run(params);
  });
  port.on('message', (m: WriterMessage) => {
    if (m.type === 'prepare') {
      statements[m.id] = db.prepare(m.sql);
    } else if (m.type === 'batch') {
      try {
        run(m.ops);
        port.postMessage({ type: 'done', seq: m.seq } satisfies WriterReply);
      } catch (err) {
        port.postMessage({ type: 'failed', seq: m.seq, message: (err as Error).message } satisfies WriterReply);
      }
    } else {
      db.close();
      port.postMessage({ type: 'closed' } satisfies WriterReply);
    }
  });
}
