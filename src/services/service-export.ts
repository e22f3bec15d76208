import { csvField } from '../store/export-log.js';
import type { ServiceEntry } from './service-registry.js';

export type ServiceFormat = 'json' | 'csv' | 'geojson';

const CSV_FIELDS = ['endpoint', 'type', 'version', 'versions', 'status', 'reason', 'title', 'abstract', 'keywords', 'provider', 'layer_count', 'layers', 'conformance', 'found_on', 'probed_url', 'checked_at'] as const;

function csvRow(e: ServiceEntry): string {
  const v: Record<(typeof CSV_FIELDS)[number], unknown> = {
    endpoint: e.endpoint, type: e.type, version: e.version, versions: e.versions.join(' '), status: e.status, reason: e.reason,
    title: e.title, abstract: e.abstract, keywords: e.keywords.join('; '), provider: e.provider, layer_count: e.layers.length,
    layers: e.layers.map((l) => l.name).join(' '), conformance: e.conformance.join(' '), found_on: e.foundOn.join(' '),
    probed_url: e.probedUrl, checked_at: e.checkedAt,
  };
  return CSV_FIELDS.map((f) => csvField(v[f])).join(',') + '\r\n';
}

/**
 * GeoJSON (RFC 7946): one feature per layer that declares a WGS 84 extent, its bounding box as a
 * polygon in longitude/latitude order, with the service's identity in the properties.
 */
function geojson(entries: ServiceEntry[]): string {
  const features = entries.flatMap((e) =>
    e.layers.flatMap((l) => {
      if (!l.wgs84) return [];
      const [w, s, east, n] = l.wgs84;
      const ring = (a: number, b: number) => [[[a, s], [b, s], [b, n], [a, n], [a, s]]];
      return [{
        type: 'Feature',
        bbox: [w, s, east, n],
        // Across the antimeridian (west above east), two polygons cut at it (RFC 7946 3.1.9), not a band around the Earth.
        geometry: w <= east ? { type: 'Polygon', coordinates: ring(w, east) } : { type: 'MultiPolygon', coordinates: [ring(w, 180), ring(-180, east)] },
        properties: { endpoint: e.endpoint, type: e.type, version: e.version, service_title: e.title, layer: l.name, title: l.title, crs: l.crs },
      }];
    }),
  );
  return JSON.stringify({ type: 'FeatureCollection', features }, null, 1) + '\n';
}

/** The registry in one format: JSON (an array of entries), CSV (one row per service) or GeoJSON. */
export function* formatServices(entries: ServiceEntry[], format: ServiceFormat): Iterable<string> {
  if (format === 'geojson') {
    yield geojson(entries);
  } else if (format === 'csv') {
    yield CSV_FIELDS.join(',') + '\r\n';
    for (const e of entries) yield csvRow(e);
  } else {
    yield JSON.stringify(entries.map(({ foundOn, probedUrl, checkedAt, ...rest }) => ({ ...rest, found_on: foundOn, probed_url: probedUrl, checked_at: checkedAt })), null, 2) + '\n';
  }
}
