import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WARCParser } from 'warcio';
import { FocusCrawlError } from '../errors.js';
import { normalizeUrl } from '../parse/normalize-url.js';
import { readWebSpec, origin } from '../bench/topical-web.js';
import type { FetchResult, RedirectHop } from '../types.js';
import { FetchError, HAND_OFF, type Fetcher, type FetchOptions } from './fetcher.js';
import { isHtmlType, LINE_JOINED_HEADERS } from './http-fetcher.js';
import { warcDamage } from './warc-damage.js';
import { warcIsGzip } from './is-warc-file.js';

/**
 * Header lines by lower-case name, repeated ones joined as http-fetcher.ts joins them (headerValue).
 */
function lowerCased(lines: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of lines) {
    const k = name.toLowerCase();
    out[k] = out[k] === undefined ? value : `${out[k]}${LINE_JOINED_HEADERS.has(k) ? '\n' : ', '}${value}`;
  }
  return out;
}

interface Stored {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * A robots.txt the recording lacks (a host the recorded crawl never asked, a bench web's foreign
 * link) is absent, as a 404 makes it: read as unreachable, it held each URL of the host for
 * minutes of retries in a replay that has nobody to be polite to.
 */
const NO_ROBOTS: Stored = { status: 404, headers: { 'content-type': 'text/plain' }, body: new Uint8Array() };

/**
 * Answers fetches from a recording instead of the network, deterministically: a WARC file (as
 * written by --record, or any WARC of response records) or a folder written by `bench gen`.
 * Redirects, robots.txt and HTTP statuses come back as recorded; a URL that is not in the
 * recording fails with a reason naming the recording.
 */
export class ReplayFetcher implements Fetcher {
  readonly #source: string;
  readonly #lookup: (url: string) => Stored | null;
  readonly #maxRedirects: number;
  readonly notes: readonly string[];

  private constructor(source: string, lookup: (url: string) => Stored | null, maxRedirects: number, notes: string[] = []) {
    this.#source = source;
    this.#lookup = lookup;
    this.#maxRedirects = maxRedirects;
    this.notes = notes;
  }

  static async open(source: string, maxRedirects = 5): Promise<ReplayFetcher> {
    if (!existsSync(source)) throw new FocusCrawlError('IO', `no recording at ${source}`);
    if (statSync(source).isDirectory()) return new ReplayFetcher(source, webFolderLookup(source), maxRedirects);
    const records = new Map<string, Stored>();
    const size = statSync(source).size;
    const plain = !warcIsGzip(source);
    let read = 0;
    try {
      // Headers as written, one entry per line, so that a header sent several times comes back as
      // the live fetcher gives it (X-Robots-Tag's copies each keep their own scope).
      const parser = new WARCParser(createReadStream(source), { keepHeadersCase: true });
      for await (const record of parser) {
        const warc = lowerCased(record.warcHeaders.headers);
        const target = warc['warc-target-uri'];
        if (warc['warc-type'] !== 'response' || !target) continue;
        const url = normalizeUrl(target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target);
        if (!url) continue;
        const headers = lowerCased(record.httpHeaders?.headers ?? []);
        const body = await record.readFully(false);
        // A plain record ends with two CRLFs after its block; one the file ends before is cut
        // short (its body would replay as a whole page with part of its text). A gzip WARC's cut
        // member is not returned at all.
        if (plain && parser.offset + parser.recordLength + 4 > size) continue;
        records.set(url, { status: Number(record.httpHeaders?.statusCode ?? 200), headers, body });
        read++;
      }
    } catch (err) {
      throw new FocusCrawlError('IO', `cannot read WARC ${source}: ${(err as Error).message}`);
    }
    // The records before a damaged place replay; the crawl says how many, and where it stopped.
    const notes: string[] = [];
    const damage = await warcDamage(source);
    if (damage) {
      notes.push(`the recording ${source} is damaged: ${damage}; replaying the ${read} response records before it`);
    }
    // A file that is no WARC parses as none: replaying it would fail every URL after its retries.
    if (!records.size) throw new FocusCrawlError('IO', `${source} holds no WARC response record: not a recording to replay`);
    return new ReplayFetcher(source, (url) => records.get(url) ?? null, maxRedirects, notes);
  }

  async fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    const redirects: RedirectHop[] = [];
    let current = url;
    for (;;) {
      const hit = this.#lookup(current) ?? (new URL(current).pathname === '/robots.txt' ? NO_ROBOTS : null);
      if (!hit) throw new FetchError(url, `${current} is not in the recording ${this.#source}`, { transient: false });
      const location = hit.headers.location;
      if (hit.status >= 300 && hit.status < 400 && location) {
        const next = normalizeUrl(location, current);
        redirects.push({ url: current, status: hit.status });
        if (!next || redirects.some((h) => h.url === next)) throw new FetchError(url, `redirect loop at ${next}`, { transient: false, status: hit.status });
        if (redirects.length > this.#maxRedirects) throw new FetchError(url, `more than ${this.#maxRedirects} redirects`, { transient: false, status: hit.status });
        const verdict = options.redirectGuard ? await options.redirectGuard(current, next) : true;
        if (verdict === HAND_OFF) return { url, finalUrl: current, status: hit.status, headers: hit.headers, redirects, contentType: hit.headers['content-type'] ?? '', body: null, bytes: 0, fetchMs: 0, movedTo: next };
        if (verdict !== true) throw new FetchError(url, `redirect to ${next} not followed: ${verdict}`, { transient: false, status: hit.status });
        current = next;
        continue;
      }
      const contentType = hit.headers['content-type'] ?? '';
      const parse = options.anyContentType || (hit.status >= 200 && hit.status < 300 && isHtmlType(contentType));
      return { url, finalUrl: current, status: hit.status, headers: hit.headers, redirects, contentType, body: parse ? hit.body : null, bytes: hit.body.length, fetchMs: 0 };
    }
  }

  async close(): Promise<void> {}
}

/** URL -> file for a folder written by bench gen (web.json gives the hosts' origins). */
function webFolderLookup(dir: string): (url: string) => Stored | null {
  const spec = readWebSpec(dir);
  const hosts = new Map(Array.from({ length: spec.hosts }, (_x, h) => [origin(spec, h), join(dir, `h${h}`)] as const));
  return (url) => {
    const u = new URL(url);
    const root = hosts.get(u.origin);
    if (!root) return null;
    if (u.pathname === '/robots.txt') return { status: 200, headers: { 'content-type': 'text/plain' }, body: new TextEncoder().encode('User-agent: *\nAllow: /\n') };
    const file = join(root, u.pathname === '/' ? 'index.html' : u.pathname);
    if (!file.startsWith(root) || !existsSync(file)) return { status: 404, headers: { 'content-type': 'text/html' }, body: new Uint8Array() };
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: readFileSync(file) };
  };
}
