import { firstElementAt } from './xml-prolog.js';
import type { ServiceProbe } from '../types.js';
import { normalizeUrl } from '../parse/normalize-url.js';
import { xmlText } from '../parse/xml-text.js';
import { cswDetector } from './csw-detector.js';
import type { ProbeAnswer, ServiceDetector, Verdict } from './detector.js';
import { ogcApiDetector } from './ogc-api-detector.js';
import { dropCredentials, endpointOf, readOgcLink } from './ogc-url.js';
import { SERVICE_TYPES, type ServiceType } from './service-record.js';
import { wcsDetector } from './wcs-detector.js';
import { wfsDetector } from './wfs-detector.js';
import { wmsDetector } from './wms-detector.js';
import { wmtsDetector } from './wmts-detector.js';

export const DETECTORS: Record<ServiceType, ServiceDetector> = {
  WMS: wmsDetector,
  WMTS: wmtsDetector,
  WFS: wfsDetector,
  WCS: wcsDetector,
  CSW: cswDetector,
  'OGC API': ogcApiDetector,
};

/**
 * Path segments of generic OGC servers that do not name one service type (GeoServer, MapServer,
 * QGIS Server, OWS endpoints). Method B looks for WMS, so they are probed as WMS.
 */
const GENERIC_HINTS = new Set(['ows', 'mapserv', 'mapserv.exe', 'mapserv.cgi', 'mapserv.fcgi', 'qgis_mapserv.fcgi', 'geoserver', 'mapserver']);
/** A static capabilities document: WMSCapabilities.xml, WMTSCapabilities.xml, ... */
const STATIC_DOC = /^(wms|wmts|wfs|wcs)capabilities\.xml$/;

/**
 * Words that say a file is a capabilities document, in English and Chinese ("service
 * capabilities", "capabilities document", "capabilities description", "service metadata").
 * "capabilities" also matches GetCapabilities.
 */
export const CAPABILITIES_WORDS = /capabilities|service metadata|服务能力|能力文档|能力描述|服务元数据/i;
/** The service acronyms: next to a link they name what it is; on a geoportal page they are everywhere. */
const SERVICE_ACRONYMS = /\b(?:wms|wmts|wfs|wcs|csw|ows)\b/i;
/** .xml files that are never capabilities documents, whatever the page around them says. */
const NOT_CAPABILITIES = /^(?:sitemap|rss|atom|feed|opensearch|crossdomain|browserconfig)/;
/** Types whose capabilities document is XML, i.e. every type a .xml file can be. */
const XML_TYPES: readonly ServiceType[] = ['WMS', 'WMTS', 'WFS', 'WCS', 'CSW'];
/** A document's root element (after the XML declaration, comments and a DOCTYPE), local name. */
const ROOT_NAME = /^<(?:[\w.-]+:)?([\w.-]+)/;

function rootName(text: string): string | undefined {
  const at = firstElementAt(text, true);
  return at < 0 ? undefined : ROOT_NAME.exec(text.slice(at, at + 200))?.[1];
}
/** The types a root element can belong to (Capabilities is the OWS common root of several). */
const ROOT_TYPES: Record<string, readonly ServiceType[]> = {
  WMS_Capabilities: ['WMS'],
  WMT_MS_Capabilities: ['WMS'],
  WFS_Capabilities: ['WFS'],
  WCS_Capabilities: ['WCS'],
  Capabilities: ['WMTS', 'WCS', 'CSW'],
};

/**
 * Whether a page's own words say it is about capabilities documents, so that its links to .xml
 * files are probed: a capabilities word anywhere in its title, headings or text, or a service
 * acronym in its title or headings. An acronym in the body alone is not enough: a geoportal
 * names WMS on every page, including those that link sitemaps and metadata records.
 */
export function pageSaysCapabilities(page: { title: string; headings: string; text: string }): boolean {
  return CAPABILITIES_WORDS.test(page.title) || CAPABILITIES_WORDS.test(page.headings) || CAPABILITIES_WORDS.test(page.text)
    || SERVICE_ACRONYMS.test(page.title) || SERVICE_ACRONYMS.test(page.headings);
}

/** A link that may lead to a service, and what to probe for it. */
export interface ServiceCandidate {
  type: ServiceType;
  endpoint: string;
  probeUrl: string;
  /**
   * True when the link is itself an OGC request (GetMap, GetCapabilities, a capabilities file):
   * it is probed instead of being followed. False for a path hint only (/geoserver/web/): the
   * link is followed as a page as well.
   */
  request: boolean;
  /** The probe fetches the link as a capabilities document; its root element decides the type (ServiceProbe.document). */
  document?: boolean;
}

/** Parses `wms,wfs` or `all` into service types. Throws a message naming the bad entry. */
export function parseServiceTypes(list: readonly string[]): ServiceType[] {
  const out = new Set<ServiceType>();
  for (const raw of list) {
    const name = raw.trim().toUpperCase().replace(/[-_]/g, ' ');
    if (!name) continue;
    if (name === 'ALL') return [...SERVICE_TYPES];
    const t = SERVICE_TYPES.find((x) => x === name || x.replace(' ', '') === name.replace(' ', ''));
    if (!t) throw new Error(`unknown service type '${raw}' (known: wms, wmts, wfs, wcs, csw, ogcapi, all)`);
    out.add(t);
  }
  return [...out];
}

/**
 * The service detection of a crawl: which links are candidates for the enabled detectors, and
 * what a probe's answer means. Pure; the engine fetches.
 */
export class ServiceDetection {
  readonly types: readonly ServiceType[];
  readonly #byRequest = new Map<string, ServiceType>();
  readonly #byPath = new Map<string, ServiceType>();

  constructor(types: readonly ServiceType[] = SERVICE_TYPES) {
    this.types = types;
    for (const t of types) {
      for (const r of DETECTORS[t].requests) this.#byRequest.set(r, t);
      for (const p of DETECTORS[t].pathHints) this.#byPath.set(p, t);
    }
  }

  #enabled(t: ServiceType | undefined): t is ServiceType {
    return t !== undefined && this.types.includes(t);
  }

  /** The candidate a link is, or null (the common case, decided by one regular expression). */
  candidate(href: string): ServiceCandidate | null {
    const link = readOgcLink(href);
    if (!link) return null;
    const service = link.params.get('service');
    const request = link.params.get('request')?.toLowerCase();
    const last = link.segments[link.segments.length - 1] ?? '';
    const staticDoc = STATIC_DOC.exec(last);
    let type: ServiceType | undefined;
    if (service) {
      type = SERVICE_TYPES.find((t) => t === service.trim().toUpperCase());
      if (!type) return null;
    } else if (request && this.#byRequest.has(request)) {
      type = this.#byRequest.get(request);
    } else if (staticDoc && !link.url.search) {
      const t = staticDoc[1]!.toUpperCase() as ServiceType;
      return this.#enabled(t) ? { type: t, endpoint: endpointOf(link), probeUrl: endpointOf(link), request: true, document: true } : null;
    } else {
      type = link.segments.map((s) => this.#byPath.get(s)).find((t) => t !== undefined);
      if (!type && link.segments.some((s) => GENERIC_HINTS.has(s))) type = 'WMS';
      if (!type && link.segments.includes('collections') && link.params.has('f')) type = 'OGC API';
      // GetCapabilities with no SERVICE: what the path says, else WMS (method B's reading).
      if (!type && request === 'getcapabilities') type = 'WMS';
    }
    if (!this.#enabled(type)) return null;
    const d = DETECTORS[type];
    const endpoint = d.endpoint ? d.endpoint(link) : endpointOf(link);
    // An OGC API document asked for as JSON (`collections?f=json`) is no page either: followed as
    // one it took the URL that the probe's follow-up then needed, and the layers were lost.
    const format = link.params.get('f')?.toLowerCase();
    const document = type === 'OGC API' && format !== undefined && format !== 'html' && format !== 'text/html';
    return { type, endpoint, probeUrl: d.probeUrl(endpoint), request: Boolean(service || request) || document };
  }

  /**
   * A link to a .xml file that no URL rule makes a candidate, judged by its words: a capabilities
   * document when `linkWords` (its anchor and the text around it) hold a capabilities word or a
   * service acronym, or else when `pageSays()` (pageSaysCapabilities of its page, asked only
   * then). Sitemaps and feeds never are. It is probed as it is, as the type its file name names
   * (else the first enabled one, WMS in method B); its root element decides the type it is
   * registered under (inspect). The label depends on the URL alone, so that every page linking
   * the file records it under the same entry.
   */
  documentCandidate(href: string, linkWords: string, pageSays: () => boolean): ServiceCandidate | null {
    const xmlTypes = XML_TYPES.filter((t) => this.#enabled(t));
    if (!xmlTypes.length) return null;
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return null;
    }
    const file = url.pathname.slice(url.pathname.lastIndexOf('/') + 1).toLowerCase();
    if (!file.endsWith('.xml') || NOT_CAPABILITIES.test(file)) return null;
    if (!CAPABILITIES_WORDS.test(linkWords) && !SERVICE_ACRONYMS.test(linkWords) && !pageSays()) return null;
    const named = ['WMTS', 'WMS', 'WFS', 'WCS', 'CSW'].find((t) => file.includes(t.toLowerCase())) as ServiceType | undefined;
    const type = named && xmlTypes.includes(named) ? named : xmlTypes[0]!;
    // The file is the endpoint as it is, query included: there is no request to strip from it.
    url.hash = '';
    dropCredentials(url);
    const endpoint = normalizeUrl(url.href) ?? url.href;
    return { type, endpoint, probeUrl: endpoint, request: true, document: true };
  }

  /**
   * What an answer means. A document probe (a .xml file) that is not a document of the type it
   * was probed as is judged by the detectors its root element points to, and takes the type of
   * the first that finds it valid.
   */
  inspect(probe: ServiceProbe, answer: ProbeAnswer): Verdict {
    const verdict = DETECTORS[probe.type].inspect(answer, probe.step);
    if (!probe.document || verdict.findings.status === 'valid' || !answer.body) return verdict;
    const root = rootName(xmlText(answer.body.subarray(0, 4096), answer.contentType));
    for (const t of (root && ROOT_TYPES[root]) || []) {
      if (t === probe.type || !this.#enabled(t)) continue;
      const other = DETECTORS[t].inspect(answer);
      if (other.findings.status === 'valid') return { ...other, type: t };
    }
    return verdict;
  }
}
