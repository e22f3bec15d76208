import { normalizeUrl } from '../parse/normalize-url.js';
import type { ServiceType } from './service-record.js';

/**
 * Request parameters of the OGC KVP protocols (WMS, WMTS, WFS, WCS, CSW), lower case. They are
 * dropped to find a link's endpoint; anything else (MapServer's `map=`, a token) is part of it.
 */
const OGC_PARAMS = new Set([
  'service', 'request', 'version', 'acceptversions', 'sections', 'updatesequence', 'acceptformats', 'language',
  'layers', 'layer', 'styles', 'style', 'srs', 'crs', 'bbox', 'width', 'height', 'format', 'transparent', 'bgcolor',
  'exceptions', 'time', 'elevation', 'sld', 'sld_body', 'query_layers', 'info_format', 'feature_count', 'i', 'j', 'x', 'y',
  'typename', 'typenames', 'outputformat', 'maxfeatures', 'count', 'featureid', 'resourceid', 'propertyname', 'filter',
  'srsname', 'sortby', 'resulttype', 'namespace', 'namespaces', 'storedquery_id',
  'coverage', 'coverageid', 'identifier', 'subset', 'rangesubset', 'scalefactor', 'mediatype', 'interpolation',
  'tilematrixset', 'tilematrix', 'tilerow', 'tilecol',
  'outputschema', 'elementsetname', 'elementname', 'constraint', 'constraintlanguage', 'constraint_language_version',
  'startposition', 'maxrecords',
]);

/**
 * Parameters that are the protocol's only in one request: CSW's GetRecordById names a record by
 * `id`, where anything else with an `id` (wms.php?id=12) is more likely naming the service.
 */
const REQUEST_PARAMS = new Map<string, ReadonlySet<string>>([['getrecordbyid', new Set(['id'])]]);

/** A link's OGC reading: its parameters (names lower-cased) and path segments (lower-cased). */
export interface OgcLink {
  url: URL;
  params: Map<string, string>;
  segments: string[];
}

/** Cheap first test run on every link: can this URL be a service link at all? */
const MAYBE = /(?:service|request)=|wms|wfs|wcs|csw|ows|mapserv|geoserver|ogcapi|capabilities|collections/i;

export function readOgcLink(href: string): OgcLink | null {
  if (!MAYBE.test(href)) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  dropCredentials(url);
  const params = new Map<string, string>();
  for (const [k, v] of url.searchParams) {
    const key = k.toLowerCase();
    if (!params.has(key)) params.set(key, v);
  }
  const segments = url.pathname.toLowerCase().split('/').filter(Boolean);
  return { url, params, segments };
}

/**
 * Removes `user:password@` from a service URL. The registry is what users export and share (CSV,
 * GeoJSON, PostgreSQL), and a password a page printed into a link would travel with every row;
 * a service that needs it answers 401 and is registered invalid with that reason.
 */
export function dropCredentials(url: URL): void {
  url.username = '';
  url.password = '';
}

/** The link without OGC request parameters and fragment, normalised: the service's identity. */
export function endpointOf(link: OgcLink): string {
  const u = new URL(link.url.href);
  u.hash = '';
  const only = REQUEST_PARAMS.get(link.params.get('request')?.toLowerCase() ?? '');
  const keep = u.search.slice(1).split('&').filter((piece) => {
    if (!piece) return false;
    const name = paramName(piece);
    return !OGC_PARAMS.has(name) && !only?.has(name);
  });
  u.search = keep.length ? `?${keep.map(canonicalPiece).join('&')}` : '';
  return normalizeUrl(u.href) ?? u.href;
}

/**
 * A query piece in one spelling, so that `map=/a.map` and `map=%2Fa.map` are one service: as
 * form-encoding writes it (the registry's form since the first version). A piece that is not
 * UTF-8 (a GBK file name, map=%D6%D0...) or has no value (`?token`) stays as written: decoded
 * and encoded again it became U+FFFD, another file, or `token=`.
 */
function canonicalPiece(piece: string): string {
  const eq = piece.indexOf('=');
  if (eq < 0) return piece;
  try {
    const [name, value] = [piece.slice(0, eq), piece.slice(eq + 1)].map((p) => decodeURIComponent(p.replace(/\+/g, ' ')));
    return new URLSearchParams([[name!, value!]]).toString();
  } catch {
    return piece;
  }
}

/** A query piece's parameter name, decoded and lower-cased as a server reads it (`%53ERVICE` is SERVICE). */
function paramName(piece: string): string {
  const eq = piece.indexOf('=');
  const raw = (eq < 0 ? piece : piece.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** The KVP GetCapabilities request for an endpoint (no VERSION: the server answers its highest). */
export function kvpCapabilitiesUrl(endpoint: string, type: Exclude<ServiceType, 'OGC API'>): string {
  const sep = endpoint.includes('?') ? (endpoint.endsWith('?') || endpoint.endsWith('&') ? '' : '&') : '?';
  return `${endpoint}${sep}SERVICE=${type}&REQUEST=GetCapabilities`;
}
