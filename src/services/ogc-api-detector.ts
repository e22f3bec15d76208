import { probeText } from './capabilities-document.js';
import type { ProbeAnswer, ServiceDetector, Verdict } from './detector.js';
import type { OgcLink } from './ogc-url.js';
import { normalizeUrl } from '../parse/normalize-url.js';
import { emptyFindings } from './service-record.js';

const CONFORMANCE_RELS = new Set(['conformance', 'http://www.opengis.net/def/rel/ogc/1.0/conformance']);
/** Path segments below a landing page; the landing page is the path before them. */
const BELOW_LANDING = new Set(['collections', 'conformance', 'api', 'processes', 'tiles', 'maps', 'styles']);

interface Link {
  href?: unknown;
  rel?: unknown;
}

function readJson(answer: ProbeAnswer): { value: unknown } | { reason: string } {
  if (!answer.body || answer.body.length === 0) return { reason: answer.status >= 400 ? `HTTP ${answer.status}` : 'empty response' };
  if (answer.status >= 400) return { reason: `HTTP ${answer.status}` };
  const text = probeText(answer.body);
  if (/^\s*</.test(text)) return { reason: 'markup (HTML or XML), not an OGC API JSON document' };
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { reason: `not JSON: ${(err as Error).message}` };
  }
}

function conformanceClasses(v: unknown): string[] | null {
  const c = (v as { conformsTo?: unknown }).conformsTo;
  return Array.isArray(c) ? c.filter((x): x is string => typeof x === 'string') : null;
}

/**
 * OGC API landing pages (Features, Maps, Tiles, Records, Processes...). Candidates: a path with an
 * `ogcapi` segment, or `collections` with an `f=` parameter. The landing page (`?f=json`) must be
 * a JSON object whose links include rel=conformance; its conformance classes come from an inline
 * `conformsTo` or from a second request to the conformance link (a follow-up through the
 * frontier, so politeness applies to it too). Valid needs at least one OGC conformance class.
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
    if (typeof v !== 'object' || v === null || !Array.isArray((v as { links?: unknown }).links)) {
      return { findings: emptyFindings('invalid', 'JSON without a links array: not an OGC API landing page') };
    }
    const links = (v as { links: Link[] }).links;
    const conf = links.find((l) => typeof l.rel === 'string' && CONFORMANCE_RELS.has(l.rel) && typeof l.href === 'string');
    if (!conf) return { findings: emptyFindings('invalid', 'JSON landing page without a conformance link: not an OGC API') };
    const o = v as { title?: unknown; description?: unknown; keywords?: unknown };
    const findings = {
      ...emptyFindings('valid', null),
      title: typeof o.title === 'string' ? o.title : null,
      abstract: typeof o.description === 'string' ? o.description : null,
      keywords: Array.isArray(o.keywords) ? o.keywords.filter((k): k is string => typeof k === 'string') : [],
    };
    const inline = conformanceClasses(v);
    if (inline) return { findings: { ...findings, conformance: inline } };
    const href = normalizeUrl(conf.href as string, answer.url);
    return href ? { findings, followUp: { url: href, step: 'conformance' } } : { findings };
  },
};
