import type { lookup } from 'node:dns';
import { Agent, EnvHttpProxyAgent, ProxyAgent, buildConnector, request, type Dispatcher } from 'undici';
import type { FetchResult, RedirectHop } from '../types.js';
import { RequestHeaders } from './request-headers.js';
import { hostOf, normalizeUrl } from '../parse/normalize-url.js';
import { CookieJars } from './cookie-jars.js';
import { stripSessionIds } from '../parse/session-params.js';
import { decompress, decompressPrefix, isSizeError } from './decompress.js';
import { FetchError, HAND_OFF, type Fetcher, type FetchOptions } from './fetcher.js';
import { isTransientStatus, parseRetryAfter } from './retry-policy.js';
import { isPrivateAddressError, type AddressPolicy } from './address-policy.js';
import { networkErrorWords } from './network-error-words.js';
import { AbortLinks } from './abort-links.js';
import type { ResolveMap } from './resolve-map.js';

export interface HttpFetcherOptions {
  /** Sent on every request. Default 'focuscrawl/0.1 (+https://github.com/focuscrawl)'. */
  userAgent: string;
  /** TCP connect timeout. Default 10 s. */
  connectTimeoutMs: number;
  /** Time to the response headers. Default 15 s. */
  headersTimeoutMs: number;
  /** Longest silence while reading the body. Default 15 s. */
  bodyTimeoutMs: number;
  /** Whole request including the body, so a slow drip cannot hold a slot forever. Default 60 s. */
  totalTimeoutMs: number;
  /**
   * A body that arrives slower than this many bytes per second over `lowSpeedTimeMs` is abandoned
   * (curl's --speed-limit): a drip of a few bytes a second never trips `bodyTimeoutMs` and would
   * hold a per-host slot for the whole `totalTimeoutMs`. Default 500; 0 disables.
   */
  lowSpeedLimit: number;
  /** The window of `lowSpeedLimit` (curl's --speed-time). Default 5 s. */
  lowSpeedTimeMs: number;
  /** Bytes read off the wire before the response fails. Default 5 MiB. */
  maxBytes: number;
  /** Bytes after Content-Encoding is undone. Default 20 MiB. */
  maxDecompressedBytes: number;
  /** Redirect hops followed before failing. Default 5. */
  maxRedirects: number;
  /** Connections kept per origin. Default 8. */
  connectionsPerOrigin: number;
  /** Which addresses may be connected to (the crawl's private-address rule); null: any. Default null. */
  addressPolicy: AddressPolicy | null;
  /** Resolves host names (dns.lookup by default; tests map names to local addresses). */
  lookup?: typeof lookup;
  /** Host names resolved by hand (config `resolve`, curl's --resolve); not applied through a proxy, which resolves names itself. */
  resolve?: ResolveMap | null;
  /**
   * Every request through this proxy (http://, https:// or socks5://, credentials in the URL);
   * 'env': the environment's HTTP_PROXY, HTTPS_PROXY and NO_PROXY, as curl reads them; null:
   * direct. Default null.
   */
  proxy?: string | 'env' | null;
  /** Headers added to every request (config `headers`); the credential ones only to `credentialHosts`. */
  headers?: Record<string, string>;
  /** Send back the cookies sites set (CookieJars). Default true. */
  cookies?: boolean;
  /** Hosts (name:port, as hostOf gives them) that get the credential headers: the seeds' hosts. */
  credentialHosts?: readonly string[];
}

export const defaultHttpFetcherOptions: HttpFetcherOptions = {
  userAgent: 'focuscrawl/0.1 (+https://github.com/focuscrawl/focuscrawl)',
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  totalTimeoutMs: 60_000,
  lowSpeedLimit: 500,
  lowSpeedTimeMs: 5_000,
  maxBytes: 5 * 1024 * 1024,
  maxDecompressedBytes: 20 * 1024 * 1024,
  maxRedirects: 5,
  connectionsPerOrigin: 8,
  addressPolicy: null,
};

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A response's headers as the crawl records them: one string each. */
function responseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) headers[k] = headerValue(v, k);
  // Of two Content-Type headers the last counts, as in the Fetch standard (joined, neither would).
  const types = raw['content-type'];
  if (Array.isArray(types)) headers['content-type'] = types[types.length - 1]!;
  return headers;
}
const TRANSIENT_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_SOCKET',
  'UND_ERR_CLOSED', 'UND_ERR_ABORTED', 'ABORT_ERR',
]);

/** Response headers in all, as Chromium allows. */
const MAX_HEADER_BYTES = 256 * 1024;

/** True for content types the parser reads; a missing type is sniffed as HTML, as browsers do. */
export function isHtmlType(contentType: string): boolean {
  return contentType === '' || HTML_TYPES.test(contentType);
}

/**
 * True when a body sent without a Content-Type is no text: a PDF, or binary bytes in its first
 * 512 (WHATWG MIME sniffing's "binary data bytes": PNG, GIF, JPEG, ZIP and most formats have
 * them), unless a UTF-16 byte order mark explains the zeros.
 */
export function isBinaryBody(body: Uint8Array): boolean {
  if ((body[0] === 0xfe && body[1] === 0xff) || (body[0] === 0xff && body[1] === 0xfe)) return false;
  if (body[0] === 0x25 && body[1] === 0x50 && body[2] === 0x44 && body[3] === 0x46 && body[4] === 0x2d) return true; // %PDF-
  const n = Math.min(body.length, 512);
  for (let i = 0; i < n; i++) {
    const b = body[i]!;
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return true;
  }
  return false;
}

/**
 * A Location header as the server meant it: undici reads header bytes as Latin-1, so a UTF-8
 * path sent raw (/中文页面, as Chinese and Japanese servers do) arrives as mojibake. Browsers and
 * curl take such bytes as UTF-8.
 */
function locationOf(raw: string): string {
  if (!/[\x80-\xff]/.test(raw) || /[^\x00-\xff]/.test(raw)) return raw;
  const utf8 = Buffer.from(raw, 'latin1').toString('utf8');
  return utf8.includes('\uFFFD') ? raw : utf8;
}

/** Drops a body we will not read; the connection is closed rather than drained. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * Headers whose copies are kept one a line (joined by a line feed) rather than folded with commas:
 * X-Robots-Tag, whose leading user agent scopes the rest of that copy only (robots-header.ts), and
 * Set-Cookie, never folded (RFC 6265 3: an Expires date holds a comma). The recorder writes and
 * the replayer reads them the same way.
 */
export const LINE_JOINED_HEADERS: ReadonlySet<string> = new Set(['x-robots-tag', 'set-cookie']);

/** A header's copies as one value: by line for LINE_JOINED_HEADERS, else folded with commas as HTTP allows. */
function headerValue(h: string | string[] | undefined, name: string): string {
  return Array.isArray(h) ? h.join(LINE_JOINED_HEADERS.has(name) ? '\n' : ', ') : (h ?? '');
}

/** Fetches over HTTP(S) with undici's `request` (about half the CPU per page of its `fetch`). */
export class HttpFetcher implements Fetcher {
  readonly options: HttpFetcherOptions;
  readonly #agent: Dispatcher;
  readonly #proxied: boolean;
  readonly #headers: RequestHeaders;
  readonly #cookies: CookieJars | null;
  readonly #abortLinks = new AbortLinks();

  constructor(options: Partial<HttpFetcherOptions> = {}) {
    this.options = { ...defaultHttpFetcherOptions, ...options };
    const { addressPolicy: policy, lookup: resolve, connectTimeoutMs: timeout, proxy, resolve: byHand } = this.options;
    // With a proxy, `connect` serves only the direct connections (NO_PROXY hosts): the proxy's own
    // connection is one the user asked for.
    const direct = policy ? policy.connector({ timeout, lookup: resolve }) : byHand?.size ? buildConnector({ timeout, ...(resolve ? { lookup: resolve } : {}) } as buildConnector.BuildOptions) : null;
    const agent = {
      connect: direct ? (byHand?.size ? byHand.connector(direct) : direct) : { timeout, ...(resolve ? { lookup: resolve } : {}) },
      headersTimeout: this.options.headersTimeoutMs,
      bodyTimeout: this.options.bodyTimeoutMs,
      // Node's 16 KB would refuse every page of a site that sends a 20 KB Content-Security-Policy;
      // browsers take 256 KB.
      maxHeaderSize: MAX_HEADER_BYTES,
      connections: this.options.connectionsPerOrigin,
    };
    this.#proxied = !!proxy;
    const base = { 'user-agent': this.options.userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5', 'accept-encoding': 'gzip, deflate, br' };
    this.#headers = new RequestHeaders(base, this.options.headers ?? {}, this.options.credentialHosts ?? []);
    this.#cookies = this.options.cookies === false ? null : new CookieJars();
    this.#agent = proxy === 'env' ? new EnvHttpProxyAgent(agent) : proxy ? new ProxyAgent({ ...agent, uri: proxy }) : new Agent(agent);
  }

  async fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    const started = performance.now();
    const redirects: RedirectHop[] = [];
    // URL -> the cookies' version when it was asked for: asked again with the same cookies, it answers the same.
    const visited = new Map([[url, this.#cookieVersion(url)]]);
    // A timer cleared when the fetch ends: AbortSignal.timeout() would keep its timer, and the
    // request state reachable from it, alive for the whole timeout after every fetch.
    const deadline = new AbortController();
    const total = Math.min(this.options.totalTimeoutMs, options.timeoutMs ?? Infinity);
    // The setting that ran out, for the reason: a robots.txt deadline is no totalTimeoutMs.
    const setting = total < this.options.totalTimeoutMs ? (options.timeoutName ?? "the caller's deadline") : 'totalTimeoutMs';
    const timer = setTimeout(() => deadline.abort(new DOMException(`timed out after ${total} ms (${setting})`, 'TimeoutError')), total);
    const unlink = options.signal ? this.#abortLinks.link(options.signal, deadline) : null;
    try {
      return await this.#fetchWithin(url, options, deadline.signal, started, redirects, visited);
    } finally {
      clearTimeout(timer);
      unlink?.();
    }
  }

  async #fetchWithin(url: string, options: FetchOptions, signal: AbortSignal, started: number, redirects: RedirectHop[], visited: Map<string, number>): Promise<FetchResult> {
    let current = url;
    for (;;) {
      const res = await this.#requestOnce(current, signal).catch((err: FetchError) => {
        // Name the hop a redirect led to: the error is recorded on the URL that was asked for.
        if (current !== url && isPrivateAddressError(err.cause)) throw new FetchError(url, `redirect to ${current} refused: ${err.message}`, { transient: false, cause: err.cause });
        throw err;
      });
      // Every hop's cookies count: a site may set one on a redirect and expect it at the target.
      this.#cookies?.store(current, hostOf(current), res.headers['set-cookie']);
      // The same Location twice is one place (Chromium agrees); two different ones are none.
      const given = res.headers.location;
      const places = Array.isArray(given) ? [...new Set(given)] : [given ?? ''];
      const location = places.length === 1 ? locationOf(places[0]!) : '';
      // A redirect that says nowhere, or two places, is an error with its reason, not a stored page.
      if (REDIRECTS.has(res.statusCode) && !location.trim()) {
        await res.body.dump();
        const why = places.length > 1 ? `${places.length} Location headers` : 'no Location header';
        throw new FetchError(url, `HTTP ${res.statusCode} redirect with ${why}`, { transient: false, status: res.statusCode });
      }
      if (REDIRECTS.has(res.statusCode) && location) {
        await res.body.dump();
        const next = normalizeUrl(location, current, { keepSessionIds: true });
        redirects.push({ url: current, status: res.statusCode });
        if (!next) throw new FetchError(url, `redirect to an unusable location '${location}'`, { transient: false, status: res.statusCode });
        // A site that sets a cookie and sends the browser back to the same page (a cookie check) is no loop.
        if (visited.get(next) === this.#cookieVersion(next)) throw new FetchError(url, `redirect loop at ${next}`, { transient: false, status: res.statusCode });
        if (redirects.length > this.options.maxRedirects) {
          throw new FetchError(url, `more than ${this.options.maxRedirects} redirects`, { transient: false, status: res.statusCode });
        }
        const verdict = options.redirectGuard ? await options.redirectGuard(current, next) : true;
        if (verdict === HAND_OFF) {
          const headers = responseHeaders(res.headers);
          return { url, finalUrl: stripSessionIds(current), status: res.statusCode, headers, redirects, contentType: headers['content-type'] ?? '', body: null, bytes: 0, fetchMs: performance.now() - started, movedTo: stripSessionIds(next) };
        }
        if (verdict !== true) throw new FetchError(url, `redirect to ${next} not followed: ${verdict}`, { transient: false, status: res.statusCode });
        visited.set(next, this.#cookieVersion(next));
        current = next;
        continue;
      }
      // The page is known by its name without a session id, whatever name it was served under.
      return this.#finish(url, stripSessionIds(current), res, redirects, started, options.anyContentType === true, options.cutAt, options.anyStatus === true);
    }
  }

  async #requestOnce(url: string, signal: AbortSignal) {
    try {
      const refused = this.#proxied ? this.options.addressPolicy?.refusesThroughProxy(new URL(url).hostname) : null;
      if (refused) throw refused;
      return await request(url, {
        method: 'GET',
        dispatcher: this.#agent,
        signal,
        headers: this.#requestHeaders(url),
      });
    } catch (err) {
      throw this.#networkError(url, err);
    }
  }

  #cookieVersion(url: string): number {
    return this.#cookies && this.#cookies.sites > 0 ? this.#cookies.version(hostOf(url)) : 0;
  }

  #requestHeaders(url: string): Record<string, string> {
    const headers = this.#headers.for(url);
    const cookie = this.#cookies && this.#cookies.sites > 0 ? this.#cookies.header(url, hostOf(url)) : '';
    if (!cookie) return headers;
    // A user's Cookie header (seeds' hosts only) comes first; the site's own cookies follow it.
    return { ...headers, cookie: headers.cookie ? `${headers.cookie}; ${cookie}` : cookie };
  }

  /** `status`: the response's, when the failure came while reading its body. */
  #networkError(url: string, err: unknown, status?: number): FetchError {
    if (isPrivateAddressError(err)) return new FetchError(url, err.message, { transient: false, cause: err });
    const e = err as { code?: unknown; name?: string; message?: string; cause?: { code?: unknown } };
    // A DOMException's numeric legacy code (23 for a timeout) is no error name.
    const text = (c: unknown) => (typeof c === 'string' ? c : undefined);
    const code = text(e.code) ?? text(e.cause?.code) ?? e.name ?? 'ERROR';
    // The server answered, in bytes that are no HTTP (a bad chunk size, a bare LF, a status line
    // of garbage): a fault of this answer, as final as a 404, and no sign the host is down, so
    // it neither backs the host off nor is retried (a 56-URL site of such answers took 130 s).
    if (e.name === 'HTTPParserError' || code.startsWith('HPE_')) {
      const why = /\(([^)]+)\)\s*$/.exec(e.message ?? '')?.[1] ?? e.message ?? code;
      return new FetchError(url, `malformed HTTP response: ${why}`, { transient: false, cause: err, status });
    }
    // undici's own checks of what the server sent: a status below 100 trips an assertion (whose
    // message spans lines), and a 100 Continue nobody asked for ends the socket as a "bad response".
    if (code === 'ERR_ASSERTION') return new FetchError(url, 'malformed HTTP response: a status line the HTTP client refuses (ERR_ASSERTION)', { transient: false, cause: err, status });
    if (code === 'UND_ERR_SOCKET' && (e.message === 'bad response' || (e.cause as { message?: unknown } | undefined)?.message === 'bad response')) {
      return new FetchError(url, "an interim '100 Continue' before the answer, which the HTTP client (undici) cannot read", { transient: false, cause: err, status });
    }
    // Headers past undici's limit: the server answered, with a header block too large to take.
    // This answer's fault, as above: a host whose other pages are fine is not marked unreachable.
    if (code === 'UND_ERR_HEADERS_OVERFLOW') {
      return new FetchError(url, 'malformed HTTP response: header block larger than the limit (UND_ERR_HEADERS_OVERFLOW)', { transient: false, cause: err, status });
    }
    // The request could not be made at all (a URL undici refuses): nothing was asked of the host.
    if (code === 'UND_ERR_INVALID_ARG') {
      return new FetchError(url, `cannot request this URL: ${e.message ?? code}`, { transient: false, cause: err });
    }
    if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' && status === undefined) {
      // Before the headers were through, this is llhttp refusing the header block (a repeated
      // Content-Length, even with equal copies, which RFC 9110 8.6 lets a recipient accept), which
      // undici reports as a length mismatch; a body cut short comes later, with a status.
      return new FetchError(url, 'malformed HTTP response: Content-Length repeated or invalid', { transient: false, cause: err });
    }
    // A body still arriving when the total time ran out (above the low-speed floor: 700 bytes/s
    // for a 60 s page) would arrive as slowly again: retried, it held its host slot three times.
    const slowBody = e.name === 'TimeoutError' && status !== undefined;
    const transient = !slowBody && (TRANSIENT_CODES.has(code) || e.name === 'TimeoutError' || e.name === 'AbortError');
    const plain = networkErrorWords(code, this.options);
    // The code and address in brackets: a reason may end in "(after 3 attempts)" or "(2 failures in a row)".
    const at = e as { address?: unknown; port?: unknown; cause?: { address?: unknown; port?: unknown } };
    const where = at.address ?? at.cause?.address;
    const port = at.port ?? at.cause?.port;
    const ms = /(\d+) ms/.exec(e.message ?? '')?.[1] ?? String(this.options.totalTimeoutMs);
    const setting = /\d+ ms \(([^)]+)\)/.exec(e.message ?? '')?.[1] ?? 'totalTimeoutMs';
    const reason = plain
      ? `${plain} [${code}${typeof where === 'string' ? ` ${where}${typeof port === 'number' ? `:${port}` : ''}` : ''}]`
      : e.name === 'TimeoutError'
        ? `the request took longer than ${ms} ms in all (${setting})${slowBody ? ', its body still arriving: not retried, as it would arrive as slowly again' : ''}`
        : `${code}: ${e.message ?? String(err)}`;
    return new FetchError(url, reason, { transient, cause: err, status, network: status === undefined ? 'no-answer' : 'body' });
  }

  async #finish(
    url: string,
    finalUrl: string,
    res: Awaited<ReturnType<typeof request>>,
    redirects: RedirectHop[],
    started: number,
    anyContentType: boolean,
    cutAt: number | undefined,
    anyStatus = false,
  ): Promise<FetchResult> {
    const headers = responseHeaders(res.headers);
    const status = res.statusCode;
    const contentType = headers['content-type'] ?? '';
    if (isTransientStatus(status) && !anyStatus) {
      await res.body.dump();
      throw new FetchError(url, `HTTP ${status}`, { transient: true, status, retryAfterMs: parseRetryAfter(headers['retry-after']) });
    }
    const announced = Number(headers['content-length'] ?? NaN);
    // anyContentType reads error bodies too: an OGC exception report often comes with HTTP 400.
    const wanted = anyContentType || (status >= 200 && status < 300 && isHtmlType(contentType));
    if (!wanted) {
      // Recorded but not parsed: there is no need to download it.
      discard(res.body);
      return { url, finalUrl, status, headers, redirects, contentType, body: null, bytes: Number.isFinite(announced) ? announced : 0, fetchMs: performance.now() - started };
    }
    const max = cutAt ?? this.options.maxBytes;
    let cut = false;
    if (announced > max && cutAt === undefined) {
      discard(res.body);
      throw new FetchError(url, `body of ${announced} bytes exceeds the limit of ${max} bytes`, { transient: false, status });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const { lowSpeedLimit, lowSpeedTimeMs } = this.options;
    let windowStart = performance.now();
    let windowBytes = 0;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > max && cutAt !== undefined) {
          discard(res.body);
          const part = chunk as Buffer;
          chunks.push(part.subarray(0, part.length - (size - max)));
          size = max;
          cut = true;
          break;
        }
        if (size > max) {
          discard(res.body);
          throw new FetchError(url, `body exceeds the limit of ${max} bytes`, { transient: false, status });
        }
        chunks.push(chunk as Buffer);
        if (lowSpeedLimit > 0) {
          windowBytes += (chunk as Buffer).length;
          const now = performance.now();
          if (now - windowStart >= lowSpeedTimeMs) {
            if (windowBytes < (lowSpeedLimit * (now - windowStart)) / 1000) {
              discard(res.body);
              const msg = `transfer slower than ${lowSpeedLimit} bytes/s (${windowBytes} bytes in ${Math.round(now - windowStart)} ms)`;
              throw new FetchError(url, msg, { transient: true, status, network: 'body' });
            }
            windowStart = now;
            windowBytes = 0;
          }
        }
      }
    } catch (err) {
      if (err instanceof FetchError) throw err;
      throw this.#networkError(url, err, status);
    }
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    let body: Uint8Array | null;
    const coding = headers['content-encoding'] ?? '';
    if (cutAt !== undefined) {
      let out: Awaited<ReturnType<typeof decompressPrefix>>;
      try {
        out = await decompressPrefix(raw, coding, cutAt, cut);
      } catch (err) {
        throw new FetchError(url, `corrupt ${coding} body: ${(err as Error).message}`, { transient: false, status, cause: err });
      }
      if (out === null) throw new FetchError(url, `unsupported content-encoding '${coding}'`, { transient: false, status });
      const r: FetchResult = { url, finalUrl, status, headers, redirects, contentType, body: out.body, bytes: out.body.length, fetchMs: performance.now() - started };
      if (cut || out.cut) r.cut = true;
      return r;
    }
    try {
      body = decompress(raw, coding, this.options.maxDecompressedBytes);
    } catch (err) {
      const msg = isSizeError(err)
        ? `decompressed body exceeds the limit of ${this.options.maxDecompressedBytes} bytes (${coding})`
        : `corrupt ${coding} body: ${(err as Error).message}`;
      throw new FetchError(url, msg, { transient: false, status, cause: err });
    }
    if (body === null) throw new FetchError(url, `unsupported content-encoding '${coding}'`, { transient: false, status });
    return { url, finalUrl, status, headers, redirects, contentType, body, bytes: body.length, fetchMs: performance.now() - started };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async destroy(): Promise<void> {
    await this.#agent.destroy();
  }
}
