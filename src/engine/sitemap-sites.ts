/**
 * The sites whose sitemaps one process has offered to the frontier, and the sitemap files offered
 * for each (against SitemapOptions.perSite), kept for the `max` sites met most recently: a crawl
 * of many sites would otherwise keep one entry for every site it ever touched. A site forgotten
 * and met again is offered again (the frontier's seen test drops what it already holds), and a
 * sitemap of a forgotten site read later counts against the cap afresh.
 */
export class SitemapSites {
  readonly #max: number;
  /** Site -> sitemap files offered for it; oldest first. */
  readonly #sites = new Map<string, Set<string>>();

  constructor(max = 50_000) {
    this.#max = max;
  }

  get size(): number {
    return this.#sites.size;
  }

  has(site: string): boolean {
    return this.#sites.has(site);
  }

  /** The files offered for `site`, which is remembered (again) if it was not. */
  offered(site: string): Set<string> {
    let files = this.#sites.get(site);
    if (!files) {
      if (this.#sites.size >= this.#max) this.#sites.delete(this.#sites.keys().next().value!);
      this.#sites.set(site, (files = new Set()));
    }
    return files;
  }
}
