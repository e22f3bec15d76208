import { parentPort, workerData } from 'node:worker_threads';
import type pg from 'pg';
import { FocusCrawlError } from '../errors.js';
import { connectPg } from './pg-connect.js';
import { writeRecordParams, type RecordParams } from './pg-record-batch.js';

/**
 * The writer thread of PgStore: completes each group-commit statement (the tsvectors, pg's
 * protocol) and sends it on a connection of its own. The crawl thread only flattens a batch into
 * the statement's parameters and hands them over, as the embedded crawler hands its rows to
 * SQLite's writer thread. Batches arrive one at a time (GroupWriter) and are answered in order.
 */
export interface PgWriterInit {
  url: string;
  schema: string;
  delays: readonly number[];
}
export type PgWriterMessage = { type: 'batch'; seq: number; params: RecordParams } | { type: 'close' };
export type PgWriterReply =
  | { type: 'ready' }
  | { type: 'done'; seq: number }
  /** `store`: a FocusCrawlError of code STORE (PostgreSQL lost), to be raised as one on the crawl thread. */
  | { type: 'failed'; seq: number; message: string; code: string | null; store: boolean }
  | { type: 'closed' };

const failure = (seq: number, err: unknown): PgWriterReply => ({
  type: 'failed',
  seq,
  message: (err as Error)?.message ?? String(err),
  code: (err as { code?: unknown })?.code === undefined ? null : String((err as { code?: unknown }).code),
  store: err instanceof FocusCrawlError && err.code === 'STORE',
});

if (parentPort) {
  const port = parentPort;
  const { url, schema, delays } = workerData as PgWriterInit;
  // Its own name: a prepared statement lives on a connection, and this thread's are its own.
  const name = `fc_write_${Math.random().toString(36).slice(2, 10)}`;
  let pool: pg.Pool | null = null;
  const connecting = connectPg(url, 1).then(
    (p) => {
      pool = p;
      port.postMessage({ type: 'ready' } satisfies PgWriterReply);
    },
    (err: unknown) => port.postMessage(failure(0, err)),
  );
  const handle = async (m: PgWriterMessage): Promise<void> => {
    if (m.type === 'close') {
      await pool?.end().catch(() => {});
      port.postMessage({ type: 'closed' } satisfies PgWriterReply);
      return;
    }
    if (!pool) return port.postMessage(failure(m.seq, new FocusCrawlError('STORE', 'PostgreSQL: the writer thread could not connect')));
    try {
      await writeRecordParams(pool, schema, m.params, delays, name);
      port.postMessage({ type: 'done', seq: m.seq } satisfies PgWriterReply);
    } catch (err) {
      port.postMessage(failure(m.seq, err));
    }
  };
  // In arrival order, one at a time, whatever the sender does.
  let chain: Promise<void> = connecting;
  port.on('message', (m: PgWriterMessage) => {
    chain = chain.then(() => handle(m));
  });
}
