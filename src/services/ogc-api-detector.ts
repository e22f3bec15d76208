import { xmlText } from '../parse/xml-text.js';
import type { ProbeAnswer, ServiceDetector, Verdict } from './detector.js';
import type { OgcLink } from './ogc-url.js';
import { normalizeUrl } from '../parse/normalize-url.js';
import { emptyFindings, type ServiceLayer } from './service-record.js';

const CONFORMANCE_RELS = new Set(['conformance', 'http://www.opengis.net/def/rel/ogc/1.0/conformance']);
const DATA_RELS = new Set(['data', 'http://www.opengis.net/def/rel/ogc/1.0/data']);
const NEXT_RELS = new Set(['next']);
const CRS84 = /\/crs\/OGC\/1\.3\/CRS84h?$/i;
/** Path segments below a landing page; the landing page is the path before them. */
const BELOW_LANDING = new Set(['collections', 'conformance', 'api', 'processes', 'tiles', 'maps', 'styles']);

interface Link {
  href?: unknown;
  rel?: unknown;
  type?: unknown;
}

/** The link with one of `rels`, the JSON one if there are several (servers list HTML too). */
function linkOf(links: unknown[], rels: Set<string>): string | null {
  // JSON from anywhere: an entry may be null, a number or an array.
  const found = links.filter((l): l is Link => typeof l === 'object' && l !== null && typeof (l as Link).rel === 'string' && rels.has((l as Link).rel as string) && typeof (l as Link).href === 'string');
  const json = found.find((l) => typeof l.type === 'string' && /json/i.test(l.type));
  return ((json ?? found[0])?.href as string | undefined) ?? null;
}

const num4 = (b: unknown): b is number[] => Array.isArray(b) && (b.length === 4 || b.length === 6) && b.every((x) => typeof x === 'number' && Number.isFinite(x));
/** A longitude-latitude box that can be one: west and east in -180..180, south <= north in -90..90. */
const onEarth = ([w, s, e, n]: number[]) => w! >= -180 && e! <= 180 && w! <= 180 && e! >= -180 && s! >= -90 && n! <= 90 && s! <= n!;

/** A collection as a layer: its id, title, CRS list and first spatial extent (2D or 3D box). */
function collectionLayer(c: Record<string, unknown>): ServiceLayer | null {
  if (typeof c.id !== 'string') return null;
  const spatial = (c.extent as { spatial?: { bbox?: unknown; crs?: unknown } } | undefined)?.spatial;
  const first = Array.isArray(spatial?.bbox) ? (spatial.bbox as unknown[])[0] : undefined;
  const box = num4(first) ? (first.length === 6 ? [first[0]!, first[1]!, first[3]!, first[4]!] : first) as [number, number, number, number] : null;
  const crs = typeof spatial?.crs === 'string' ? spatial.crs : 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
  return {
    name: c.id,
    title: typeof c.title === 'string' ? c.title : c.id,
    crs: Array.isArray(c.crs) ? c.crs.filter((x): x is string => typeof x === 'string') : [],
    wgs84: box && CRS84.test(crs) && onEarth(box) ? box : null,
    boxes: box && !CRS84.test(crs) ? [{ crs, bbox: box }] : [],
  };
}

function readJson(answer: ProbeAnswer): { value: unknown } | { reason: string } {
  if (!answer.body || answer.body.length === 0) return { reason: answer.status >= 400 ? `HTTP ${answer.status}` : 'empty response' };
  if (answer.status >= 400) return { reason: `HTTP ${answer.status}` };
  const text = xmlText(answer.body, answer.contentType);
  if (/^\s*</.test(text)) return { reason: 'markup (HTML or XML), not an OGC API JSON document' };
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { reason: `not JSON: ${(err as Error).message}` };
  }
}

function conformanceClasses(v: unknown): string[] | null {
  const c = (v as { conformsTo?: unknown } | null)?.conformsTo;
  return Array.isArray(c) ? c.filter((x): x is string => typeof x === 'string') : null;
}

/**
 * OGC API landing pages (Features, Maps, Tiles, Records, Processes...). Candidates: a path with an
 * `ogcapi` segment, or `collections` with an `f=` parameter. The landing page (`?f=json`) must be
 * a JSON object whose links include rel=conformance; its conformance classes come from an inline
 * `conformsTo` or from a second request to the conformance link, and its layers from a request to
 * its rel=data link, the collections (follow-ups through the frontier, so politeness applies to
 * them too), following the collections' `next` links. Valid needs at least one OGC conformance class.
 */
export const ogcApiDetector: ServiceDetector = {
  type: 'OGC API',
  requests: [],
  pathHints: ['ogcapi'],
  endpoint(link: OgcLink): string {
    const u = new URL(link.url.href);
    const parts = u.pathname.split('/');
    const lower = parts.map((p) => p.toLowerCase());
    const api = lower.indexOf('ogcapi');
    const below = lower.findIndex((p) => BELOW_LANDING.has(p));
    const keep = api >= 0 ? api + 1 : below >= 0 ? below : parts.length;
    u.pathname = parts.slice(0, keep).join('/') || '/';
    u.search = '';
    u.hash = '';
    const out = normalizeUrl(u.href) ?? u.href;
    return out.length > 1 && out.endsWith('/') && u.pathname !== '/' ? out.slice(0, -1) : out;
  },
  probeUrl: (endpoint) => `${endpoint}?f=json`,
  inspect(answer, step): Verdict {
    const read = readJson(answer);
    if ('reason' in read) return { findings: emptyFindings('invalid', read.reason) };
    const v = read.value;
    if (step === 'conformance') {
      const classes = conformanceClasses(v);
      if (!classes) return { findings: emptyFindings('invalid', 'conformance declaration without a conformsTo list') };
      return { findings: { ...emptyFindings('valid', null), conformance: classes } };
    }
    if (step === 'collections') {
      const list = (v as { collections?: unknown } | null)?.collections;
      if (!Array.isArray(list)) return { findings: emptyFindings('invalid', 'collections document without a collections list') };
      const layers = list.flatMap((c) => (typeof c === 'object' && c !== null ? [collectionLayer(c as Record<string, unknown>)] : [])).filter((l) => l !== null);
      // A server that pages its collections links the next page (OGC API - Common part 2); the
      // engine bounds how many pages it follows.
      const links = (v as { links?: unknown }).links;
      const next = Array.isArray(links) ? linkOf(links, NEXT_RELS) : null;
      const nextUrl = next ? normalizeUrl(next, answer.url) : null;
      return { findings: { ...emptyFindings('valid', null), layers }, ...(nextUrl ? { followUps: [{ url: nextUrl, step: 'collections' }] } : {}) };
    }
    if (typeof v !== 'object' || v === null || !Array.isArray((v as { links?: unknown }).links)) {
      return { findings: emptyFindings('invalid', 'JSON without a links array: not an OGC API landing page') };
    }
    const links = (v as { links: unknown[] }).links;
    const conf = linkOf(links, CONFORMANCE_RELS);
    if (!conf) return { findings: emptyFindings('invalid', 'JSON landing page without a conformance link: not an OGC API') };
    const o = v as { title?: unknown; description?: unknown; keywords?: unknown };
    // An empty inline list declares nothing: the conformance link is asked instead.
    const listed = conformanceClasses(v);
    const inline = listed?.length ? listed : null;
    const findings = {
      ...emptyFindings('valid', null),
      title: typeof o.title === 'string' ? o.title : null,
      abstract: typeof o.description === 'string' ? o.description : null,
      keywords: Array.isArray(o.keywords) ? o.keywords.filter((k): k is string => typeof k === 'string') : [],
      conformance: inline ?? [],
    };
    const followUps: { url: string; step: string }[] = [];
    const confUrl = inline ? null : normalizeUrl(conf, answer.url);
    if (confUrl) followUps.push({ url: confUrl, step: 'conformance' });
    const data = linkOf(links, DATA_RELS);
    const dataUrl = data ? normalizeUrl(data, answer.url) : null;
    if (dataUrl) followUps.push({ url: dataUrl, step: 'collections' });
    return { findings, followUps };
  },
};
