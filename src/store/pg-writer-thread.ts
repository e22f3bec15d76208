import { Worker } from 'node:worker_threads';
import { FocusCrawlError } from '../errors.js';
import type { RecordParams } from './pg-record-batch.js';
import type { PgWriterInit, PgWriterMessage, PgWriterReply } from './pg-writer.js';

/**
 * PgStore's handle on its writer thread (pg-writer.ts): send() hands a batch's parameters
 * (recordBatchParams, built on the crawl thread) over and settles when the thread has committed
 * it or failed. The thread starts with the first batch, so a command that only reads never
 * starts one.
 *
 * Measured (bench/distributed/cpu-per-page): building the statement and pg's protocol took
 * about a sixth of a worker's crawl thread, which also fetches and parses every page.
 */
export class PgWriterThread {
  readonly #init: PgWriterInit;
  #worker: Worker | null = null;
  #seq = 0;
  readonly #waiting = new Map<number, { resolve: () => void; reject: (err: unknown) => void }>();
  #closing: { resolve: () => void } | null = null;
  #gone: Error | null = null;
  #exited = false;

  constructor(init: PgWriterInit) {
    this.#init = init;
  }

  send(params: RecordParams): Promise<void> {
    if (this.#gone) return Promise.reject(this.#gone);
    const seq = ++this.#seq;
    const done = new Promise<void>((resolve, reject) => this.#waiting.set(seq, { resolve, reject }));
    this.#start().postMessage({ type: 'batch', seq, params } satisfies PgWriterMessage);
    return done;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./pg-writer.js', import.meta.url), {
      workerData: this.#init,
      // One batch at a time, and its weight counts page text (PgStore), so a batch of the largest
      // pages is some tens of MB with its parameters; the old generation leaves room for that many
      // times over. The small young generation makes V8 collect early (as SqliteDb's writer).
      resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 8 },
    });
    worker.on('message', (m: PgWriterReply) => this.#onReply(m));
    worker.on('error', (err) => this.#fail(err));
    worker.on('exit', (code) => {
      this.#exited = true;
      if (this.#closing) this.#closing.resolve();
      else this.#fail(new FocusCrawlError('STORE', `PostgreSQL: the writer thread stopped (exit code ${code})`));
    });
    this.#worker = worker;
    return worker;
  }

  #onReply(m: PgWriterReply): void {
    if (m.type === 'ready') return;
    if (m.type === 'closed') {
      void this.#worker?.terminate();
      return;
    }
    if (m.type === 'done') {
      this.#waiting.get(m.seq)?.resolve();
      this.#waiting.delete(m.seq);
      return;
    }
    const err = m.store ? new FocusCrawlError('STORE', m.message) : Object.assign(new Error(m.message), m.code === null ? {} : { code: m.code });
    if (m.seq === 0) return this.#fail(err); // it could not connect: every batch fails
    this.#waiting.get(m.seq)?.reject(err);
    this.#waiting.delete(m.seq);
  }

  #fail(err: Error): void {
    this.#gone ??= err;
    for (const w of this.#waiting.values()) w.reject(err);
    this.#waiting.clear();
  }

  /** Ends the thread and its connection; batches still in it settle first (in order). */
  async close(): Promise<void> {
    const worker = this.#worker;
    if (!worker || this.#closing || this.#exited) return;
    const exited = new Promise<void>((resolve) => (this.#closing = { resolve }));
    worker.postMessage({ type: 'close' } satisfies PgWriterMessage);
    await exited;
  }
}
