import { tokenize } from '../text/tokenize.js';

/** The acronyms method B keeps as weaker evidence (link level 1): the source names WMS, WMTS, GIS and OWS. */
export const DEFAULT_ABBREVIATIONS = ['wms', 'wmts', 'ows', 'gis', 'wfs', 'wcs', 'csw', 'ogc'] as const;

/** Words every URL has, which say nothing about what it points to. */
const URL_WORDS = new Set(['http', 'https', 'www', 'html', 'htm', 'php', 'asp', 'aspx', 'jsp', 'cgi', 'bin', 'exe', 'fcgi', 'xml', 'index']);

export interface LinkWord {
  word: string;
  /** Sample links whose path or query contains the word. */
  links: number;
}

/** Words of a link's path and query (not its host), as linkLevel reads them. */
export function linkWords(url: string): string[] {
  let rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  try {
    rest = decodeURIComponent(rest);
  } catch {
    /* keep it encoded */
  }
  return tokenize(rest).filter((w) => w.length > 1 && !/^\d+$/.test(w) && !URL_WORDS.has(w));
}

/**
 * Method B's link keywords k1..kn: "the n most frequent words in a sample of real service links".
 * Our reading: a word's frequency is the number of sample links whose path or query contains it
 * (a GetMap link repeating a word counts once); the host is left out, because it names the
 * provider, and a sample drawn from a few portals would otherwise learn their host names;
 * URL syntax words and numbers are left out; the acronyms are left out of the ranking, because
 * the source keeps them at the weaker level (abbreviations s1..sm). Ties go alphabetically.
 */
export function learnLinkKeywords(urls: readonly string[], opts: { top: number; abbreviations?: readonly string[] }): LinkWord[] {
  const abbreviations = new Set((opts.abbreviations ?? DEFAULT_ABBREVIATIONS).map((a) => a.toLowerCase()));
  const counts = new Map<string, number>();
  for (const url of urls) {
    for (const w of new Set(linkWords(url))) if (!abbreviations.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts]
    .map(([word, links]) => ({ word, links }))
    .sort((a, b) => b.links - a.links || a.word.localeCompare(b.word))
    .slice(0, opts.top);
}
