import type { ServiceProbe } from '../types.js';
import { cswDetector } from './csw-detector.js';
import type { ProbeAnswer, ServiceDetector, Verdict } from './detector.js';
import { ogcApiDetector } from './ogc-api-detector.js';
import { endpointOf, readOgcLink } from './ogc-url.js';
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
      return this.#enabled(t) ? { type: t, endpoint: endpointOf(link), probeUrl: endpointOf(link), request: true } : null;
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
    return { type, endpoint, probeUrl: d.probeUrl(endpoint), request: Boolean(service || request) };
  }

  inspect(probe: ServiceProbe, answer: ProbeAnswer): Verdict {
    return DETECTORS[probe.type].inspect(answer, probe.step);
  }
}
