import type { Link } from '../types.js';
import type { LinkDecision, PageView, Strategy } from '../strategies/strategy.js';
import { carriedPath } from '../strategies/bootstrap-group.js';

function segments(url: string): { host: string; parts: string[] } {
  const u = new URL(url);
  return { host: u.host, parts: u.pathname.split('/').filter(Boolean) };
}

/**
 * Path extraction's search (method D, step 1): from an example's site root to the example page,
 * following first the links whose URL path shares the most leading segments with an example
 * on the same host (/study/ before /news/ on the way to /study/scores/2023.html), breadth-first
 * among equals. It only has to find a chain of links from the root; the anchors along it are the
 * example's anchor path, carried as each URL's `path` like the bootstrap strategy's.
 */
export class ExampleSeekingStrategy implements Strategy {
  readonly name = 'example-seeking';
  readonly topic = null;
  readonly #targets: { host: string; parts: string[]; url: string }[];

  constructor(exampleUrls: readonly string[]) {
    this.#targets = exampleUrls.map((url) => ({ ...segments(url), url }));
  }

  seed(): LinkDecision {
    return { priority: 1000, data: { path: [] } };
  }

  #priority(url: string): number {
    const { host, parts } = segments(url);
    let best = 0;
    for (const t of this.#targets) {
      if (t.host !== host) continue;
      if (t.url === url) return 999;
      let k = 0;
      while (k < parts.length && k < t.parts.length && parts[k] === t.parts[k]) k++;
      best = Math.max(best, k);
    }
    return best;
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const up = carriedPath(view.request);
    return links.map((l) => ({ priority: this.#priority(l.url), data: { path: [...up, l.anchor] } }));
  }
}
