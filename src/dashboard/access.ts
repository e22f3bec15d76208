import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { FocusCrawlError } from '../errors.js';

/**
 * Loopback is 127.0.0.0/8, ::1 and "localhost": only this machine can connect, so the dashboard
 * needs no token there. Any other address (0.0.0.0 and :: included) is reachable from elsewhere.
 */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

const MIN_TOKEN = 16;

/**
 * The token a dashboard bound to `host` requires: the given one, or a new random one off
 * loopback; none on loopback unless given. A given token too short to resist guessing is refused.
 */
export function dashboardToken(host: string, given: string | undefined): string | null {
  if (given !== undefined) {
    if (given.length < MIN_TOKEN) throw new FocusCrawlError('USAGE', `--token must be at least ${MIN_TOKEN} characters (bound to ${host}, anyone who can reach it could guess a short one)`);
    // Sent back in a cookie and an address: white space there is cut or escaped, and 20 spaces are no secret.
    if (/[\s;,]/.test(given) || new Set(given).size < 4) throw new FocusCrawlError('USAGE', '--token must not hold spaces, commas or semicolons, and must not repeat a few characters (anyone could guess it)');
    return given;
  }
  return isLoopback(host) ? null : randomBytes(18).toString('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The tokens a request carries: Authorization: Bearer, the cookie set at the first visit, ?token=.
 * Any of them may be the right one: a cookie left by an earlier run (or by a dashboard on another
 * port of the same host: cookies ignore ports) must not shut out the address serve just printed.
 */
export function requestTokens(req: IncomingMessage, url: URL): { token: string; fromQuery: boolean }[] {
  const out: { token: string; fromQuery: boolean }[] = [];
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) out.push({ token: auth.slice(7), fromQuery: false });
  // Every dashboard's cookie (one a port, tokenCookie) and the unnumbered one of earlier versions.
  for (const cookie of (req.headers.cookie ?? '').matchAll(/(?:^|;\s*)focuscrawl_token(?:_\d+)?=([^;]+)/g)) {
    try {
      out.push({ token: decodeURIComponent(cookie[1]!), fromQuery: false });
    } catch {
      /* a malformed cookie carries no token */
    }
  }
  const q = url.searchParams.get('token');
  if (q !== null) out.push({ token: q, fromQuery: true });
  return out;
}

/** The matching token a request carries, or null. */
export function matchingToken(req: IncomingMessage, url: URL, token: string): { token: string; fromQuery: boolean } | null {
  return requestTokens(req, url).find((t) => same(t.token, token)) ?? null;
}

/**
 * Whether a request may be answered. With a token: it must carry it. Without (loopback): the
 * Host header must name a loopback host too, so a web page that rebinds its own name to
 * 127.0.0.1 (DNS rebinding) cannot read the API from the user's browser.
 */
export function allowed(req: IncomingMessage, url: URL, token: string | null): boolean {
  if (token !== null) return matchingToken(req, url, token) !== null;
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  return isLoopback(host);
}

/**
 * The cookie that carries a dashboard's token after the first visit, named after the port it
 * listens on: browsers send a host's cookies to every port, and with one name two dashboards on
 * one host overwrote each other's, each then refusing the other's page (its live updates,
 * search and labels stopped).
 */
export function tokenCookie(token: string, port: number): string {
  return `focuscrawl_token_${port}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}
