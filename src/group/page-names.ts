import type { StoredText } from '../store/crawl-graph-reader.js';

/**
 * What a site calls each of its pages: the distinct anchor texts of the links that lead to it, from
 * every fetched page of the same site (menus, tables of contents, "next" links), as the crawl
 * stored them (the outlinks of StoredText, pages below status 400). Pages of one kind share their name across sites far more than
 * their words: two FAQ pages are about different software but both are linked as "FAQ", two
 * licence pages as "License". A page's body, by contrast, is mostly about its own site.
 */
export function inLinkAnchors(pages: readonly StoredText[]): Map<string, string[]> {
  const anchors = new Map<string, Set<string>>();
  for (const r of pages) {
    // Only a page's first named link to each page: the links after it in a table of contents
    // point into the page's sections (their fragments are gone once URLs are normalized), and
    // name the sections, not the page.
    const seen = new Set<string>();
    for (const [url, anchor] of r.outlinks) {
      const text = anchor.replace(/\s+/g, ' ').trim();
      if (!text || seen.has(url) || url === r.url || hostOf(url) !== r.host) continue;
      seen.add(url);
      (anchors.get(url) ?? anchors.set(url, new Set()).get(url)!).add(text.toLowerCase());
    }
  }
  return new Map([...anchors].map(([url, set]) => [url, [...set]]));
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
