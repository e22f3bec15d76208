/** The OGC service types focuscrawl can detect, in the order the detectors are tried. */
export const SERVICE_TYPES = ['WMS', 'WMTS', 'WFS', 'WCS', 'CSW', 'OGC API'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/**
 * valid: a capabilities document (or OGC API landing page) of the expected type.
 * exception: the endpoint answered with an OGC exception report (an abnormal service, method B).
 * invalid: unreachable, an HTTP error, HTML, not XML, or XML of another kind.
 */
export type ServiceStatus = 'valid' | 'exception' | 'invalid';

/** A layer (WMS, WMTS), feature type (WFS), coverage (WCS) or collection (OGC API). */
export interface ServiceLayer {
  name: string;
  title: string;
  /** Coordinate reference systems offered (inherited from parent layers in WMS). */
  crs: string[];
  /** Geographic extent in WGS 84 longitude/latitude: [west, south, east, north], or null if not given. */
  wgs84: [number, number, number, number] | null;
  /** Bounding boxes in other CRSs, as declared: [minx, miny, maxx, maxy]. */
  boxes: { crs: string; bbox: [number, number, number, number] }[];
}

/** One entry of the service registry. */
export interface ServiceRecord {
  /** The normalised base URL: the link without its OGC request parameters. */
  endpoint: string;
  type: ServiceType;
  status: ServiceStatus;
  /** Why the status is exception or invalid (null when valid). */
  reason: string | null;
  /** Version of the capabilities document. */
  version: string | null;
  /** Every version the service declares: the document's own and its OWS ServiceTypeVersion list (not the versions links asked for). */
  versions: string[];
  title: string | null;
  abstract: string | null;
  keywords: string[];
  provider: string | null;
  layers: ServiceLayer[];
  /** OGC API conformance classes (empty for the XML services). */
  conformance: string[];
  /** The URL that was probed. */
  probedUrl: string;
  checkedAt: string;
}

/** What a probe found, before the registry stamps endpoint, URL and time on it. */
export type ServiceFindings = Omit<ServiceRecord, 'endpoint' | 'type' | 'probedUrl' | 'checkedAt'>;

export function emptyFindings(status: ServiceStatus, reason: string | null): ServiceFindings {
  return { status, reason, version: null, versions: [], title: null, abstract: null, keywords: [], provider: null, layers: [], conformance: [] };
}

/**
 * Findings cut to what a registry entry can sensibly hold: a server's description is a few
 * paragraphs, and a 19 MB abstract (a hostile or broken server) was stored and exported whole.
 */
export function boundedFindings<T extends ServiceFindings>(f: T): T {
  const cut = (s: string | null, n: number) => (s !== null && s.length > n ? `${s.slice(0, n)}…` : s);
  return {
    ...f,
    reason: cut(f.reason, 1000),
    title: cut(f.title, 1000),
    abstract: cut(f.abstract, 20_000),
    provider: cut(f.provider, 1000),
    keywords: f.keywords.length > 1000 || f.keywords.some((k) => k.length > 200) ? f.keywords.slice(0, 1000).map((k) => cut(k, 200)!) : f.keywords,
  };
}
