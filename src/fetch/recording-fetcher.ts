import { createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { once } from 'node:events';
import { WARCRecord, WARCSerializer } from 'warcio';
import { FocusCrawlError, fileError } from '../errors.js';
import type { FetchResult } from '../types.js';
import type { Fetcher, FetchOptions } from './fetcher.js';
import { warcDamage } from './warc-damage.js';
import { warcIsGzip } from './is-warc-file.js';

/** Headers that describe the transfer, not the content we keep (bodies are stored decoded). */
const TRANSFER_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Wraps a fetcher and appends every response it returns to a WARC file (webrecorder's warcio):
 * one `response` record per redirect hop (status and Location) and one for the final response,
 * its body decoded (non-HTML bodies, which the crawler never reads, are stored empty). Failed
 * fetches are not recorded, so a replay reports them as not in the recording. Records go as gzip
 * members, or as plain records when appended to a plain WARC, and only to a whole file.
 */
export class RecordingFetcher implements Fetcher {
  readonly #inner: Fetcher;
  readonly #out: WriteStream;
  #chain: Promise<void>;
  /**
   * The recording's write error (a full disk, /dev/full): a STORE error, so the crawl stops as for
   * a failed database write, the URL in hand returns to waiting, and resume records from there.
   */
  #failure: FocusCrawlError | null = null;
  readonly #gzip: boolean;

  private constructor(inner: Fetcher, out: WriteStream, first: Promise<void>, file: string, gzip: boolean) {
    this.#inner = inner;
    this.#gzip = gzip;
    this.#out = out;
    this.#chain = first;
    out.on('error', (err) => (this.#failure ??= new FocusCrawlError('STORE', `cannot write WARC ${file}: ${err.message}`, { cause: err })));
  }

  static async open(inner: Fetcher, file: string): Promise<RecordingFetcher> {
    let gzip = true;
    if (existsSync(file) && statSync(file).isFile() && statSync(file).size > 0) {
      // Appended after a cut record, every new record would be unreadable to a replay.
      const damage = await warcDamage(file);
      if (damage) throw new FocusCrawlError('IO', `--record ${file}: ${damage}; records are appended only to a whole WARC: give a new file (a replay of this one reads the records before the damage)`);
      gzip = warcIsGzip(file);
    }
    const out = createWriteStream(file, { flags: 'a' });
    // once() rejects with the stream's own error (EISDIR, ENOENT, EACCES): named here.
    try {
      await once(out, 'open');
    } catch (e) {
      throw new FocusCrawlError('IO', `cannot write WARC ${file}: ${fileError(e, 'write')}`);
    }
    const info = await WARCRecord.createWARCInfo({ filename: file, warcVersion: 'WARC/1.1' }, { software: 'focuscrawl' });
    const rec = new RecordingFetcher(inner, out, Promise.resolve(), file, gzip);
    rec.#append(info);
    return rec;
  }

  get notes(): readonly string[] {
    return this.#inner.notes ?? [];
  }

  async fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    if (this.#failure) throw this.#failure;
    const res = await this.#inner.fetch(url, options);
    if (this.#failure) throw this.#failure;
    const date = new Date().toISOString();
    res.redirects.forEach((hop, i) => {
      const next = res.redirects[i + 1]?.url ?? res.movedTo ?? res.finalUrl;
      this.#record(hop.url, hop.status, { location: next }, new Uint8Array(), date);
    });
    // A redirect handed off to the crawl (another host) ends on its last hop, recorded just above.
    if (res.movedTo) return res;
    // A header sent several times (X-Robots-Tag) keeps one line per copy in the result, and one
    // header line per copy in the WARC: joined by commas, its scopes would run together on replay.
    const headers: [string, string][] = [];
    for (const [k, v] of Object.entries(res.headers)) if (!TRANSFER_HEADERS.has(k)) for (const copy of v.split('\n')) headers.push([k, copy]);
    this.#record(res.finalUrl, res.status, headers, res.body ?? new Uint8Array(), date);
    return res;
  }

  #record(url: string, status: number, httpHeaders: Record<string, string> | [string, string][], body: Uint8Array, date: string): void {
    const content = async function* () {
      yield body;
    };
    // Create and write in one step of the chain: close() awaits the chain as it stands.
    this.#chain = this.#chain.then(async () => {
      const record = await WARCRecord.create({ url, date, type: 'response', warcVersion: 'WARC/1.1', statusline: `HTTP/1.1 ${status} -`, httpHeaders }, content());
      await this.#write(record);
    });
  }

  #append(record: WARCRecord): void {
    this.#chain = this.#chain.then(() => this.#write(record));
  }

  async #write(record: WARCRecord): Promise<void> {
    if (this.#failure) return;
    const bytes = await WARCSerializer.serialize(record, { gzip: this.#gzip });
    // The stream may have failed while the record was serialised: a destroyed stream emits
    // neither 'drain' nor another 'error', and waiting for one hung the crawl's close for good.
    const out = this.#out;
    if (this.#failure || out.destroyed) return;
    if (out.write(bytes) || out.destroyed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done).off('error', done).off('close', done);
        resolve();
      };
      out.on('drain', done).on('error', done).on('close', done);
    });
  }

  /**
   * Ends the recording; throws its write failure when there was one, also one that came after the
   * last fetch (writes are asynchronous): a crawl whose recording failed must not end as if it was whole.
   */
  async close(): Promise<void> {
    await this.#chain;
    this.#out.end();
    await finished(this.#out).catch(() => {});
    await this.#inner.close();
    if (this.#failure) throw this.#failure;
  }
}
