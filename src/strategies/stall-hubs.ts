import type { CarriedState } from '../types.js';
import { hashTerm } from '../text/term-hasher.js';
import type { Reoffer } from './strategy.js';

interface Hub {
  anchor: string;
  depth: number;
  parent: string;
  data: CarriedState | null;
}

interface HostState {
  /** Pages of the host fetched since its last relevant page (or its last hubs offered). */
  stalled: number;
  /** Hubs offered so far. */
  offered: number;
  /** Unfetched link targets that most of the host's pages carry, in the order first seen. */
  hubs: Map<string, Hub>;
}

const MAX_DONE = 100_000;

const hash32 = (url: string) => hashTerm(url) % 4294967296 >>> 0;

export interface StallHubsOptions {
  /** Pages of a host in a row without a relevant one before its hubs are offered (0: never). */
  stall: number;
  /** Hubs offered at each stall. */
  perStall: number;
  /** Hosts remembered; past it the one met first is forgotten. */
  maxHosts: number;
  /** Hubs remembered per host. */
  maxHubs: number;
  /** Hubs offered per host, in all. */
  maxOffers: number;
}

/**
 * When a host stops yielding relevant pages, look at its menu. A site's navigation (the links
 * most of its pages carry: menus, headers, footers) says little about any one page, so adaptive
 * discounts it; but its targets are the site's section pages ("Docs", "Knowledge base",
 * "Manual"), the hubs below which a subject is filed. When the last `stall` pages of a host were
 * all off topic, the links the topic can tell apart have stopped paying, and the next links in
 * the frontier are about as good as guesses; the host's unfetched hubs are better guesses, since
 * one of them usually leads to the section the topic is in, and each costs one page. They are offered, `perStall`
 * at a time, just above the page that completed the stall, each hub once, and at most
 * `maxOffers` per host: a long crawl of a site the topic is not on would otherwise spend a page
 * in every few on its menus (a Sphinx sidebar holds dozens of entries).
 *
 * Found on libvirt's site (bench/realweb): its start page's body links 35 pages with no topic word
 * and its menu, last in the page's HTML, holds "Docs" and "Knowledge base", the only ways to the
 * manual pages and the internals notes. Without this, adaptive fetched the menu after the body.
 */
export class StallHubs {
  readonly #o: StallHubsOptions;
  readonly #hosts = new Map<string, HostState>();
  /**
   * Hashes of the URLs fetched or offered: a page fetched before most of its host linked it is
   * no hub to offer, and a hub is offered once. Only pages whose links were scored are seen: a
   * hub fetched as an error or a non-HTML page stays recorded, and its offer is wasted (one slot
   * of a stall; the frontier ignores a done URL). 32 bits of the hash: a collision costs one hub
   * not offered. Cleared when full: forgetting costs a wasted offer (the frontier ignores a done
   * URL), not a page.
   */
  readonly #done = new Set<number>();
  #reoffers: Reoffer[] = [];

  constructor(options: StallHubsOptions) {
    this.#o = options;
  }

  /** The host's state, moved to the end: the host forgotten past maxHosts is the one least recently fetched from, not the crawl's main site. */
  #host(host: string): HostState {
    let s = this.#hosts.get(host);
    if (s) this.#hosts.delete(host);
    else {
      if (this.#hosts.size >= this.#o.maxHosts) this.#hosts.delete(this.#hosts.keys().next().value!);
      s = { stalled: 0, offered: 0, hubs: new Map() };
    }
    this.#hosts.set(host, s);
    return s;
  }

  /**
   * A page of `host` was fetched (`relevant` by adaptive's reading) at `priority`; `hubs` are its
   * links to pages of the same host that most of the host's pages carry, with the state this
   * page gives them.
   */
  fetched(host: string, url: string, key: string, depth: number, priority: number, relevant: boolean, hubs: { url: string; anchor: string; data: CarriedState | null }[]): void {
    if (this.#o.stall <= 0) return;
    const s = this.#host(host);
    s.hubs.delete(url);
    this.#mark(url);
    // A host that spent its offers keeps no hubs (they would only fill the strategy's snapshot).
    const room = Math.min(this.#o.maxHubs, this.#o.maxOffers - s.offered);
    for (const h of hubs) {
      const known = s.hubs.get(h.url);
      // Offering a hub raises it, which gives it this page's depth and parent (the frontier's
      // raise): keep the shallowest page seen carrying it, so the offer deepens it as little as can be.
      if (known) {
        if (depth + 1 < known.depth) s.hubs.set(h.url, { anchor: h.anchor, depth: depth + 1, parent: key, data: h.data });
        continue;
      }
      if (s.hubs.size >= room || this.#done.has(hash32(h.url))) continue;
      s.hubs.set(h.url, { anchor: h.anchor, depth: depth + 1, parent: key, data: h.data });
    }
    if (s.offered >= this.#o.maxOffers) s.hubs.clear();
    if (relevant) {
      s.stalled = 0;
      return;
    }
    if (++s.stalled < this.#o.stall || s.hubs.size === 0) return;
    s.stalled = 0;
    let n = 0;
    for (const [u, h] of s.hubs) {
      if (n >= this.#o.perStall || s.offered >= this.#o.maxOffers) break;
      s.hubs.delete(u);
      n++;
      s.offered++;
      this.#mark(u);
      // Just above the page that ended the stall: the frontier's best is about there.
      this.#reoffers.push({ url: u, depth: h.depth, parent: h.parent, anchor: h.anchor, priority: priority * 1.05, data: h.data });
    }
  }

  #mark(url: string): void {
    if (this.#done.size >= MAX_DONE) this.#done.clear();
    this.#done.add(hash32(url));
  }

  /** Hosts with a stall count, hubs remembered over all of them, URLs marked fetched or offered. */
  sizes(): { hosts: number; hubs: number; done: number } {
    let hubs = 0;
    for (const s of this.#hosts.values()) hubs += s.hubs.size;
    return { hosts: this.#hosts.size, hubs, done: this.#done.size };
  }

  /** Hubs offered since the last call. */
  reoffers(): Reoffer[] {
    const out = this.#reoffers;
    this.#reoffers = [];
    return out;
  }

  snapshot(): { hosts: [string, number, number, [string, string, number, string, CarriedState | null][]][]; done: string } {
    const done = Buffer.alloc(4 * this.#done.size);
    let at = 0;
    for (const h of this.#done) at = done.writeUInt32LE(h, at);
    return {
      hosts: [...this.#hosts].map(([host, s]) => [host, s.stalled, s.offered, [...s.hubs].map(([u, h]): [string, string, number, string, CarriedState | null] => [u, h.anchor, h.depth, h.parent, h.data])]),
      done: done.toString('base64'),
    };
  }

  restore(snap: ReturnType<StallHubs['snapshot']>): void {
    this.#hosts.clear();
    this.#done.clear();
    const b = Buffer.from(snap.done, 'base64');
    for (let i = 0; i + 4 <= b.byteLength; i += 4) this.#done.add(b.readUInt32LE(i));
    for (const [host, stalled, offered, hubs] of snap.hosts) {
      this.#hosts.set(host, { stalled, offered, hubs: new Map(hubs.map(([u, anchor, depth, parent, data]): [string, Hub] => [u, { anchor, depth, parent, data }])) });
    }
  }
}
