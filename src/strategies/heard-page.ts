/**
 * What one scored page taught adaptive, as another worker's copy hears it (Strategy.evidence):
 * its URL, parent key, host, own key, depth and priority, title, whether adaptive read it as
 * relevant, its outcome for its siblings (0..1), the learned features of the link that led to
 * it, and its links (LinkFrequency). On bench/realweb four copies that heard all of this
 * reached one copy's recall (78.2% at 20% of each site); hearing all but the links, each reading
 * navigation from its own pages, 75.8; hearing nothing, 76.9.
 */
export interface HeardPage {
  u: string;
  p: string | null;
  h: string;
  k: string;
  d: number;
  q: number;
  t: string;
  r: 0 | 1;
  o: number;
  f: number[] | null;
  /** The hashTerm of the links the page's scoring counted (LinkFrequency; the first MAX_TOLD_LINKS), as float64 in base64; absent on the page's own copy. */
  l?: string;
}

/**
 * Links of a page told to the other copies at most (a page may have 200,000): the others count the
 * first 2,000 of a larger page's links, not all, in its host's navigation.
 */
export const MAX_TOLD_LINKS = 2_000;
const MAX_TOLD_LINKS_BASE64 = Math.ceil((MAX_TOLD_LINKS * 8) / 3) * 4;

/** A record another copy of this version gives; values past their ranges (an outcome of 1e6 would spoil every family's mean) are not. */
export const isHeardPage = (x: unknown): x is HeardPage => {
  const p = x as HeardPage;
  return (
    typeof p === 'object' && p !== null && typeof p.u === 'string' && (p.p === null || typeof p.p === 'string') && typeof p.h === 'string' &&
    typeof p.k === 'string' && Number.isInteger(p.d) && p.d >= 0 && Number.isFinite(p.q) && p.q >= 0 && typeof p.t === 'string' && (p.r === 0 || p.r === 1) &&
    Number.isFinite(p.o) && p.o >= 0 && p.o <= 1 && (p.f === null || (Array.isArray(p.f) && p.f.every((v) => Number.isInteger(v) && v >= 0))) &&
    (p.l === undefined || (typeof p.l === 'string' && p.l.length <= MAX_TOLD_LINKS_BASE64))
  );
};
