import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { PRIVATE_ADDRESS_HINT } from './made-no-request.js';
import { BlockList, isIP, type Socket } from 'node:net';
import { buildConnector } from 'undici';
import { FetchError, type Fetcher, type FetchOptions } from './fetcher.js';

/**
 * Addresses that are not on the public internet: loopback, private networks, link-local (cloud
 * metadata services live at 169.254.169.254), carrier-grade NAT, multicast, reserved and
 * unspecified, IPv4 and IPv6. IPv4-mapped IPv6 addresses are judged by their IPv4 part.
 */
const NON_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NON_PUBLIC.addSubnet(net, bits, 'ipv6');

/** An IP address in one spelling: IPv6 lowercased and compressed, IPv4-mapped IPv6 as IPv4. */
export function canonicalIp(ip: string): string {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIP(bare) !== 6) return bare;
  const compressed = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for an address that is not on the public internet (see NON_PUBLIC). */
export function isPrivateAddress(ip: string): boolean {
  const c = canonicalIp(ip);
  const v = isIP(c);
  return v === 4 ? NON_PUBLIC.check(c, 'ipv4') : v === 6 ? NON_PUBLIC.check(c, 'ipv6') : false;
}

export { PRIVATE_ADDRESS_HINT };

/** A connection refused because it would reach a private address. */
export class PrivateAddressError extends Error {
  readonly code = 'ERR_FOCUSCRAWL_PRIVATE_ADDRESS';
  constructor(readonly address: string, readonly hostname: string) {
    super(`${hostname !== address ? `${hostname} resolves to ` : ''}private address ${address} ${PRIVATE_ADDRESS_HINT}`);
    this.name = 'PrivateAddressError';
  }
}

export const isPrivateAddressError = (err: unknown): err is PrivateAddressError =>
  (err as { code?: unknown })?.code === 'ERR_FOCUSCRAWL_PRIVATE_ADDRESS';

type LookupFn = typeof dnsLookup;

/**
 * Which addresses a crawl may connect to. Public addresses always; a private one only if a host
 * the user named is on it: a host (seed or --hosts) given as an IP literal allows that address,
 * one given as a name is trusted whatever it resolves to, and the addresses it resolved to are
 * then allowed under any name. Everything else is refused, after DNS resolution and on every
 * connection (so on every redirect hop), unless --allow-private. docs/architecture.md has the why.
 */
export class AddressPolicy {
  readonly #names = new Set<string>();
  readonly #addresses = new Set<string>();

  /** `hosts`: host names or IP literals, with or without a port (the port is ignored). */
  constructor(hosts: Iterable<string>) {
    for (const h of hosts) {
      const name = hostnameOf(h);
      if (!name) continue;
      if (isIP(canonicalIp(name))) this.#addresses.add(canonicalIp(name));
      else this.#names.add(name);
    }
  }

  trustsName(hostname: string): boolean {
    return this.#names.has(hostname.toLowerCase());
  }

  allows(ip: string): boolean {
    return !isPrivateAddress(ip) || this.#addresses.has(canonicalIp(ip));
  }

  /**
   * The check of a request sent through a proxy, which resolves the name itself: IP literals
   * and localhost names are judged here; other names are the proxy's to refuse.
   */
  refusesThroughProxy(hostname: string): PrivateAddressError | null {
    const h = canonicalIp(hostname.toLowerCase());
    if (this.trustsName(h)) return null;
    if (isIP(h)) return this.allows(h) ? null : new PrivateAddressError(h, h);
    return h === 'localhost' || h.endsWith('.localhost') ? new PrivateAddressError('127.0.0.1', h) : null;
  }

  /** An address a trusted name resolved to: other names on it are allowed too. */
  learn(ip: string): void {
    this.#addresses.add(canonicalIp(ip));
  }

  /**
   * An undici connector that applies the policy: IP literals are checked before connecting,
   * names through a lookup that drops refused addresses (DNS is asked once per connection, so a
   * name cannot resolve to a public address for a check and a private one for the connection),
   * and the connected socket's remote address is checked again.
   */
  connector(opts: { timeout: number; lookup?: LookupFn | undefined }): buildConnector.connector {
    const resolve: LookupFn = opts.lookup ?? dnsLookup;
    const guarded = buildConnector({ timeout: opts.timeout, lookup: this.#guardedLookup(resolve) } as buildConnector.BuildOptions);
    const open = buildConnector({ timeout: opts.timeout, ...(opts.lookup ? { lookup: opts.lookup } : {}) } as buildConnector.BuildOptions);
    return (o, callback) => {
      const hostname = canonicalIp(o.hostname);
      const trusted = this.trustsName(hostname);
      if (!trusted && isIP(hostname) && !this.allows(hostname)) return void callback(new PrivateAddressError(hostname, hostname), null);
      (trusted ? open : guarded)(o, (err, socket) => {
        if (err || !socket) return void callback(err, null);
        const remote = (socket as Socket).remoteAddress;
        if (remote && trusted) this.learn(remote);
        else if (remote && !this.allows(remote)) {
          socket.destroy();
          return void callback(new PrivateAddressError(canonicalIp(remote), hostname), null);
        }
        callback(null, socket);
      });
    };
  }

  #guardedLookup(resolve: LookupFn): LookupFn {
    const policy = this;
    function guarded(hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void {
      resolve(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, []);
        const list = addresses as LookupAddress[];
        const allowed = list.filter((a) => policy.allows(a.address));
        if (!allowed.length) {
          const refused = list[0];
          return callback(refused ? new PrivateAddressError(canonicalIp(refused.address), hostname) : Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
        }
        if (options.all) callback(null, allowed);
        else callback(null, allowed[0]!.address, allowed[0]!.family);
      });
    }
    return guarded as LookupFn;
  }
}

/** "Host:Port", "[::1]:80", "http://host/" or "host" to the bare lowercase host name. */
function hostnameOf(entry: string): string | null {
  const e = entry.trim().toLowerCase();
  if (!e) return null;
  try {
    return canonicalIp(new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(e) ? e : `http://${e}`).hostname);
  } catch {
    return null;
  }
}

/**
 * The fetcher robots.txt is read through: on an address the crawl refuses, robots.txt is not
 * fetched and counts as absent (a 404), so the page fetch that follows fails with the reason
 * instead of being retried as "robots.txt unreachable".
 */
export function robotsFetcher(fetcher: Fetcher): Fetcher {
  return {
    async fetch(url: string, options?: FetchOptions) {
      try {
        return await fetcher.fetch(url, options);
      } catch (err) {
        if (err instanceof FetchError && isPrivateAddressError(err.cause)) throw new FetchError(url, err.message, { transient: false, status: 404, cause: err });
        throw err;
      }
    },
    close: () => Promise.resolve(),
  };
}
