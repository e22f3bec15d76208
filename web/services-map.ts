import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { ServiceOnMap } from '../src/dashboard/snapshot.js';

const COLORS: Record<string, string> = { valid: '#1b7f3b', exception: '#c26a00', invalid: '#b3261e' };

/**
 * Service extents (WGS 84) on a plain longitude/latitude plane: no tile server, so it works
 * offline and in the report. A 30° graticule stands in for a base map.
 */
export class ServicesMap {
  readonly #map: L.Map;
  readonly #layer = L.layerGroup();
  #shown = '';

  constructor(el: HTMLElement) {
    this.#map = L.map(el, { crs: L.CRS.EPSG4326, attributionControl: false, minZoom: 0, maxZoom: 12, zoomSnap: 0.25 });
    const grid = L.layerGroup();
    for (let lon = -180; lon <= 180; lon += 30) L.polyline([[-90, lon], [90, lon]], { color: '#ccd', weight: 1, interactive: false }).addTo(grid);
    for (let lat = -90; lat <= 90; lat += 30) L.polyline([[lat, -180], [lat, 180]], { color: '#ccd', weight: 1, interactive: false }).addTo(grid);
    grid.addTo(this.#map);
    this.#layer.addTo(this.#map);
    this.#map.fitBounds([[-90, -180], [90, 180]]);
  }

  update(services: ServiceOnMap[]): void {
    const key = JSON.stringify(services.map((s) => [s.endpoint, s.status, s.extents.length]));
    if (key === this.#shown) return;
    this.#shown = key;
    this.#layer.clearLayers();
    const bounds = L.latLngBounds([]);
    for (const s of services) {
      for (const [w, so, e, n] of s.extents.slice(0, 20)) {
        // West above east crosses the antimeridian: two rectangles cut at it, as the GeoJSON export
        // writes it (one from w to e would be a band around the rest of the Earth).
        for (const [a, b] of w <= e ? [[w, e]] : [[w, 180], [-180, e]]) {
          const r = L.rectangle([[so, a!], [n, b!]], { color: COLORS[s.status] ?? '#555', weight: 1, fillOpacity: 0.08 });
          // An element, not a string, which Leaflet would put in as HTML: a crawled title is text (`<img onerror=...>`).
          const tip = document.createElement('span');
          tip.textContent = `${s.type} ${s.title ?? s.endpoint}`;
          r.bindTooltip(tip);
          r.addTo(this.#layer);
          bounds.extend(r.getBounds());
        }
      }
    }
    if (bounds.isValid()) this.#map.fitBounds(bounds.pad(0.2));
  }
}
