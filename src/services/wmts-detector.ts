import { inspectXml } from './capabilities-document.js';
import type { ServiceDetector } from './detector.js';
import { kvpCapabilitiesUrl } from './ogc-url.js';
import { owsBoxes, owsIdentification, wgs84Box } from './ows-common.js';
import type { ServiceLayer } from './service-record.js';
import { child, childrenNamed, childText } from './xml-tree.js';

/**
 * Web Map Tile Service 1.0.0. Candidates: SERVICE=WMTS, REQUEST=GetTile, a /wmts path or a
 * WMTSCapabilities.xml document. Valid: root Capabilities in the WMTS namespace (or declaring
 * ServiceType WMTS) with a Contents element. A layer's CRSs are those of its tile matrix sets.
 */
export const wmtsDetector: ServiceDetector = {
  type: 'WMTS',
  requests: ['gettile'],
  pathHints: ['wmts', 'wmtsserver'],
  probeUrl: (endpoint) => kvpCapabilitiesUrl(endpoint, 'WMTS'),
  inspect: (answer) =>
    inspectXml(answer, 'WMTS', ['Capabilities'], (root) => {
      const ows = owsIdentification(root);
      if (!root.ns.includes('/wmts/') && !/wmts/i.test(ows?.serviceType ?? '')) return `<Capabilities> of another service (${root.ns || ows?.serviceType || 'no namespace'}), not WMTS`;
      const contents = child(root, 'Contents');
      if (!contents) return '<Capabilities> without a Contents element';
      const matrixCrs = new Map<string, string>();
      for (const m of childrenNamed(contents, 'TileMatrixSet')) {
        const id = childText(m, 'Identifier');
        const crs = childText(m, 'SupportedCRS');
        if (id && crs) matrixCrs.set(id, crs);
      }
      const layers: ServiceLayer[] = childrenNamed(contents, 'Layer').map((l) => {
        const name = childText(l, 'Identifier') ?? '';
        const crs = childrenNamed(l, 'TileMatrixSetLink').map((k) => matrixCrs.get(childText(k, 'TileMatrixSet') ?? '') ?? '').filter(Boolean);
        return { name, title: childText(l, 'Title') ?? name, crs: [...new Set(crs)], wgs84: wgs84Box(l), boxes: owsBoxes(l) };
      });
      const version = root.attrs.version ?? null;
      return {
        status: 'valid', reason: null, version, versions: [...new Set([...(version ? [version] : []), ...(ows?.versions ?? [])])],
        title: ows?.title ?? null, abstract: ows?.abstract ?? null, keywords: ows?.keywords ?? [], provider: ows?.provider ?? null,
        layers, conformance: [],
      };
    }),
};
