import { z } from 'zod';
import { hostOf } from '../parse/normalize-url.js';

/**
 * Request headers a user adds to a crawl (`headers` in a config file, `--header 'Name: value'`):
 * a language for multilingual sites, a cookie or token for a site the user may read. Names are
 * kept lower-case, as HTTP/2 sends them and undici compares them.
 */

/** Set by the crawler itself, or part of the exchange rather than of the request. */
const RESERVED: Record<string, string> = {
  'user-agent': 'set it with userAgent (--user-agent)',
  'accept-encoding': 'the crawler asks for the codings it decodes (gzip, deflate, br)',
  host: 'it is the URL\'s host',
  'content-length': 'a GET has no body',
  'transfer-encoding': 'a GET has no body',
  connection: 'the connection is the crawler\'s',
  'keep-alive': 'the connection is the crawler\'s',
  'proxy-connection': 'the connection is the crawler\'s',
  upgrade: 'the connection is the crawler\'s',
  te: 'the connection is the crawler\'s',
  trailer: 'a GET has no body',
};

/** RFC 9110's token: the characters a header name may hold. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers that carry a credential. They go only to the seeds' hosts: a crawl that leaves them
 * (`--scope any`, service probes, a redirect) must not hand a cookie or token to another site,
 * as curl drops Authorization and Cookie on a redirect to another host.
 */
const CREDENTIAL = /^(authorization|proxy-authorization|cookie)$|token|key|secret|auth|session|password/i;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL.test(name);
}

/** What is wrong with a header, or null. */
export function headerProblem(name: string, value: string): string | null {
  if (!TOKEN.test(name)) return `'${name}' is not a header name (letters, digits and !#$%&'*+.^_\`|~-)`;
  const reserved = RESERVED[name.toLowerCase()];
  if (reserved) return `'${name}' cannot be set: ${reserved}`;
  const bad = headerValueProblem(value);
  return bad ? `the value of '${name}' ${bad}` : null;
}

/**
 * Why `value` cannot be sent as a header value, or null: undici refuses other characters, and
 * then every request of the crawl fails (a User-Agent with a '✓' failed them all with exit 0).
 */
export function headerValueProblem(value: string): string | null {
  if (/[\r\n\0]/.test(value)) return 'holds a line break or NUL (a header value is one line)';
  const bad = /[^\t\x20-\x7e]/u.exec(value)?.[0];
  if (bad === undefined) return null;
  const shown = bad.charCodeAt(0) < 0x20 || bad === '\x7f' ? `\\x${bad.charCodeAt(0).toString(16).padStart(2, '0')}` : bad;
  return `holds '${shown}': an HTTP header value may hold visible ASCII characters, space and tab only (non-ASCII is not allowed)`;
}

export const requestHeadersSchema = z
  .record(z.string(), z.string())
  .superRefine((headers, ctx) => {
    const seen = new Set<string>();
    for (const [name, value] of Object.entries(headers)) {
      const problem = headerProblem(name, value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [name] });
      if (seen.has(name.toLowerCase())) ctx.addIssue({ code: 'custom', message: `'${name}' is given twice`, path: [name] });
      seen.add(name.toLowerCase());
    }
  })
  .transform((headers) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim()])));

/** The headers of a request to `host`: the credential ones only when `host` is one of `credentialHosts`. */
export class RequestHeaders {
  readonly #everywhere: Record<string, string>;
  readonly #withCredentials: Record<string, string>;
  readonly #hosts: ReadonlySet<string>;

  /** `base`: the crawler's own (user-agent, accept, accept-encoding); a user's `accept` replaces its own. */
  constructor(base: Record<string, string>, added: Record<string, string>, credentialHosts: Iterable<string>) {
    const open = Object.entries(added).filter(([k]) => !isCredentialHeader(k));
    const secret = Object.entries(added).filter(([k]) => isCredentialHeader(k));
    this.#everywhere = { ...base, ...Object.fromEntries(open) };
    this.#withCredentials = { ...this.#everywhere, ...Object.fromEntries(secret) };
    this.#hosts = secret.length ? new Set([...credentialHosts].map((h) => h.toLowerCase())) : new Set();
  }

  /** The headers for `url`, a normalised URL (every URL the crawl fetches is one). */
  for(url: string): Record<string, string> {
    if (this.#hosts.size === 0) return this.#everywhere;
    return this.#hosts.has(hostOf(url)) ? this.#withCredentials : this.#everywhere;
  }
}
