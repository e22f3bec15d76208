import { seededRandom } from './seeded-random.js';

/**
 * A synthetic link-extraction trace: the stream of links a breadth-first crawler extracts from a
 * large multi-host web, for the URL-seen caching experiment (method E). The web has what makes
 * caching work or fail in real crawls (Broder et al.): site-wide navigation repeated on every page
 * of a host (locality), heavy-tailed page popularity within a host and host popularity across the
 * web (a few pages linked from everywhere), and a long tail of pages linked once.
 */
export interface TraceWebSpec {
  hosts: number;
  /** Pages of the largest host; host h has about maxHostPages / (h + 1)^0.7 + 20. */
  maxHostPages: number;
  /** Navigation links on every page of a host (its root and first pages). */
  navLinks: number;
  /** Content links per page (min, max). */
  links: [number, number];
  /** Share of content links that point to another host. */
  external: number;
  seed: number;
}

export const DEFAULT_TRACE_WEB: TraceWebSpec = { hosts: 3000, maxHostPages: 40_000, navLinks: 8, links: [15, 35], external: 0.15, seed: 1 };

const rng = seededRandom;

/**
 * Yields the URLs of extracted links in extraction order until `maxLinks` have been yielded.
 * The simulated crawler visits pages breadth-first from every host's root.
 */
export function* linkTrace(spec: TraceWebSpec, maxLinks: number): Generator<string> {
  const r = rng(spec.seed);
  const size = (h: number) => Math.floor(spec.maxHostPages / (h + 1) ** 0.7) + 20;
  // Popularity ~ 1/(k+1): k = floor((n+1)^u) - 1 for uniform u (log-uniform).
  const heavy = (n: number) => Math.min(n - 1, Math.floor(Math.exp(r() * Math.log(n + 1))) - 1);
  const url = (h: number, p: number) => (p === 0 ? `http://h${h}.example/` : `http://h${h}.example/p/${p}`);
  const seen = new Set<number>();
  const key = (h: number, p: number) => h * 1_000_000 + p;
  const queue: number[] = [];
  for (let h = 0; h < spec.hosts; h++) {
    queue.push(key(h, 0));
    seen.add(key(h, 0));
  }
  let emitted = 0;
  for (let qi = 0; qi < queue.length && emitted < maxLinks; qi++) {
    const h = Math.floor(queue[qi]! / 1_000_000);
    const n = size(h);
    const out: [number, number][] = [];
    for (let k = 0; k < Math.min(spec.navLinks, n); k++) out.push([h, k]);
    const count = spec.links[0] + Math.floor(r() * (spec.links[1] - spec.links[0] + 1));
    for (let k = 0; k < count; k++) {
      if (r() < spec.external) {
        const h2 = heavy(spec.hosts);
        out.push([h2, heavy(size(h2))]);
      } else {
        out.push([h, heavy(n)]);
      }
    }
    for (const [h2, p2] of out) {
      yield url(h2, p2);
      if (++emitted >= maxLinks) return;
      const k2 = key(h2, p2);
      if (!seen.has(k2)) {
        seen.add(k2);
        queue.push(k2);
      }
    }
  }
}
