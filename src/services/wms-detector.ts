import { box, lonLatBox, inspectXml, keywordsOf, num } from './capabilities-document.js';
import type { ServiceDetector } from './detector.js';
import { kvpCapabilitiesUrl } from './ogc-url.js';
import type { ServiceLayer } from './service-record.js';
import { child, childrenNamed, childText, path, type XmlElement } from './xml-tree.js';

interface Inherited {
  crs: string[];
  wgs84: ServiceLayer['wgs84'];
  boxes: ServiceLayer['boxes'];
}

/**
 * CRS codes kept per layer. GeoServer lists thousands on its root layer and every layer inherits
 * them: 500 layers of 20,000 inherited codes took 1.4 GB and failed to store. A layer keeps all
 * its own codes (up to this many) and as many inherited ones as fit.
 */
export const MAX_LAYER_CRS = 256;

/**
 * Bounds on a whole document: named layers listed, and CRS codes over all of them. A 15 KB gzip
 * body of 200,000 layers under a root of 256 codes took 1.3 GB and could not be stored (one JSON
 * string past V8's limit). The budget holds apart the codes layers list themselves and those
 * they inherit: past the inherited ones' budget a layer lists its own codes only, so that
 * GeoServer's thousands of root codes copied down 800 layers do not leave the rest with none.
 */
export const MAX_LAYERS = 10_000;
export const MAX_DOCUMENT_CRS = 200_000;

interface Budget {
  layers: number;
  /** Codes the layers list themselves. */
  own: number;
  /** Codes copied from a parent. */
  inherited: number;
}

/**
 * WMS 1.1.x and 1.3.0 layers, flattened. A child layer inherits its parent's CRS list (adding
 * its own) and bounding boxes (replacing them), as the WMS specifications say; only named
 * layers, the ones a GetMap can ask for, are listed.
 */
function collectLayers(layer: XmlElement, up: Inherited, out: ServiceLayer[], budget: Budget): void {
  if (budget.layers <= 0) return;
  const cap = Math.min(MAX_LAYER_CRS, budget.own);
  const own = new Set<string>();
  for (const c of [...childrenNamed(layer, 'CRS'), ...childrenNamed(layer, 'SRS')]) {
    for (const code of c.text.split(/\s+/)) if (code && own.size < cap) own.add(code);
  }
  // Inherited codes first, as the document lists them, in the room the layer's own leave.
  const inherited = new Set(up.crs);
  let room = MAX_LAYER_CRS;
  for (const code of own) if (!inherited.has(code)) room--;
  const copied = up.crs.slice(0, Math.max(0, Math.min(room, budget.inherited)));
  const crs = new Set(copied);
  for (const code of own) crs.add(code);
  const ex = child(layer, 'EX_GeographicBoundingBox');
  const ll = child(layer, 'LatLonBoundingBox');
  const wgs84 = ex
    ? lonLatBox(num(childText(ex, 'westBoundLongitude')), num(childText(ex, 'southBoundLatitude')), num(childText(ex, 'eastBoundLongitude')), num(childText(ex, 'northBoundLatitude')))
    : ll
      ? lonLatBox(num(ll.attrs.minx), num(ll.attrs.miny), num(ll.attrs.maxx), num(ll.attrs.maxy))
      : up.wgs84;
  const ownBoxes = childrenNamed(layer, 'BoundingBox').flatMap((b) => {
    const bb = box(num(b.attrs.minx), num(b.attrs.miny), num(b.attrs.maxx), num(b.attrs.maxy));
    return bb ? [{ crs: b.attrs.CRS ?? b.attrs.SRS ?? '', bbox: bb }] : [];
  });
  const boxes = ownBoxes.length ? ownBoxes : up.boxes;
  const name = childText(layer, 'Name');
  const codes = [...crs];
  if (name) {
    out.push({ name, title: childText(layer, 'Title') ?? name, crs: codes, wgs84, boxes });
    budget.layers--;
    budget.own -= own.size;
    budget.inherited = Math.max(0, budget.inherited - copied.length);
  }
  for (const c of childrenNamed(layer, 'Layer')) collectLayers(c, { crs: codes, wgs84, boxes }, out, budget);
}

/**
 * Web Map Service. Candidates: SERVICE=WMS, REQUEST=GetMap|GetFeatureInfo|GetLegendGraphic, or a
 * /wms path (GetCapabilities without SERVICE, and generic OWS paths, default to WMS as in method
 * B). Valid: root WMS_Capabilities (1.3.0) or WMT_MS_Capabilities (1.1.x) with both a Service
 * and a Capability element.
 */
export const wmsDetector: ServiceDetector = {
  type: 'WMS',
  requests: ['getmap', 'getfeatureinfo', 'getlegendgraphic', 'describelayer', 'getstyles'],
  pathHints: ['wms', 'wmsserver'],
  probeUrl: (endpoint) => kvpCapabilitiesUrl(endpoint, 'WMS'),
  inspect: (answer) =>
    inspectXml(answer, 'WMS', ['WMS_Capabilities', 'WMT_MS_Capabilities'], (root) => {
      const service = child(root, 'Service');
      const capability = child(root, 'Capability');
      if (!service || !capability) return `<${root.name}> without ${service ? 'a Capability' : 'a Service'} element`;
      const layers: ServiceLayer[] = [];
      const budget: Budget = { layers: MAX_LAYERS, own: MAX_DOCUMENT_CRS, inherited: MAX_DOCUMENT_CRS };
      for (const l of childrenNamed(capability, 'Layer')) collectLayers(l, { crs: [], wgs84: null, boxes: [] }, layers, budget);
      const version = root.attrs.version ?? null;
      const contact = child(service, 'ContactInformation');
      return {
        status: 'valid',
        reason: null,
        version,
        versions: version ? [version] : [],
        title: childText(service, 'Title'),
        abstract: childText(service, 'Abstract'),
        keywords: keywordsOf(child(service, 'KeywordList') ?? child(service, 'Keywords')),
        provider: childText(path(contact, 'ContactPersonPrimary'), 'ContactOrganization') ?? childText(contact, 'ContactOrganization'),
        layers,
        conformance: [],
      };
    }),
};
