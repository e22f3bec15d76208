import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { buildConnector } from 'undici';
import { canonicalIp } from './address-policy.js';

/** One `HOST:PORT:ADDR` entry, as curl's --resolve takes it; port null stands for `*` (any port). */
export interface ResolveEntry {
  host: string;
  port: number | null;
  address: string;
}

/**
 * Reads `HOST:PORT:ADDR` (curl's --resolve): HOST a name, PORT a number or `*`, ADDR an IPv4
 * address or an IPv6 one in brackets. Returns the reason it is not one, for the caller's error.
 */
export function parseResolveEntry(text: string): ResolveEntry | string {
  const m = /^([^:\s[\]]+):(\d{1,5}|\*):(.+)$/.exec(text.trim());
  if (!m) return `'${text}' is not HOST:PORT:ADDR (e.g. docs.example.org:443:127.0.0.1)`;
  if (m[1]!.includes('*')) return `'${text}': a wildcard host is not taken; name the host`;
  // As URLs carry it: a name in another script in punycode, which undici connects by.
  const host = domainToASCII(m[1]!.toLowerCase());
  if (!host) return `'${text}': ${m[1]} is not a host name`;
  if (isIP(host)) return `'${text}': ${host} is an address already; name a host`;
  const port = m[2] === '*' ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65535)) return `'${text}': port ${m[2]} is not 1-65535`;
  const raw = m[3]!;
  const bare = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  if (bare.includes('%')) return `'${text}': ${raw}: an IPv6 zone (%eth0) is not taken`;
  if (isIP(bare) === 0 || (isIP(bare) === 6 && bare === raw)) return `'${text}': ${raw} is not an IP address (IPv6 in brackets: [::1])`;
  return { host, port, address: canonicalIp(bare) };
}

/**
 * Host names the user resolved by hand: connections to HOST:PORT go to ADDR while the URL, the
 * Host header and TLS's server name stay HOST's. For a staging server under its real name, or
 * a copy of a site served locally; as in curl, an entry for a port beats one for `*`.
 */
export class ResolveMap {
  readonly #byHostPort = new Map<string, string>();

  constructor(readonly entries: readonly ResolveEntry[]) {
    for (const e of entries) this.#byHostPort.set(`${e.host}:${e.port ?? '*'}`, e.address);
  }

  get size(): number {
    return this.entries.length;
  }

  /** The address HOST:PORT is resolved to by hand, or null for DNS. */
  addressFor(hostname: string, port: number): string | null {
    const h = hostname.toLowerCase();
    return this.#byHostPort.get(`${h}:${port}`) ?? this.#byHostPort.get(`${h}:*`) ?? null;
  }

  /**
   * The addresses the entries name, as a host list writes them ([::1] for IPv6): the user named
   * them, so the private-address rule allows them, as it allows a seed given as an address.
   */
  addresses(): string[] {
    return [...new Set(this.entries.map((e) => (isIP(e.address) === 6 ? `[${e.address}]` : e.address)))];
  }

  /**
   * `inner` with the entries applied: it is asked to connect to the address, while `host`, from
   * which undici takes TLS's server name, keeps the name.
   */
  connector(inner: buildConnector.connector): buildConnector.connector {
    return (o, callback) => {
      const port = Number(o.port) || (o.protocol === 'https:' ? 443 : 80);
      const address = this.addressFor(o.hostname, port);
      if (!address) return inner(o, callback);
      inner({ ...o, hostname: address, servername: o.servername ?? o.hostname }, callback);
    };
  }
}

/** True when two entries name the same HOST:PORT (the later one replaces the earlier). */
export function sameResolveKey(a: string, b: string): boolean {
  const x = parseResolveEntry(a);
  const y = parseResolveEntry(b);
  return typeof x !== 'string' && typeof y !== 'string' && x.host === y.host && x.port === y.port;
}

/** The map of config `resolve` entries (checked by the config's schema already). */
export function resolveMapOf(entries: readonly string[]): ResolveMap {
  return new ResolveMap(entries.map(parseResolveEntry).filter((e): e is ResolveEntry => typeof e !== 'string'));
}
