import { lonLatBox, inspectXml, keywordsOf, num } from './capabilities-document.js';
import type { ServiceDetector } from './detector.js';
import { kvpCapabilitiesUrl } from './ogc-url.js';
import { owsIdentification, wgs84Box } from './ows-common.js';
import type { ServiceLayer } from './service-record.js';
import { child, childrenNamed, childText } from './xml-tree.js';

/**
 * Web Feature Service 1.0.0, 1.1.0 and 2.0.x. Candidates: SERVICE=WFS, REQUEST=GetFeature|
 * DescribeFeatureType, a /wfs path. Valid: root WFS_Capabilities with a Service (1.0.0) or
 * ows:ServiceIdentification section. Layers are the feature types.
 */
export const wfsDetector: ServiceDetector = {
  type: 'WFS',
  requests: ['getfeature', 'describefeaturetype', 'getpropertyvalue', 'liststoredqueries', 'describestoredqueries', 'transaction', 'lockfeature'],
  pathHints: ['wfs', 'wfsserver'],
  probeUrl: (endpoint) => kvpCapabilitiesUrl(endpoint, 'WFS'),
  inspect: (answer) =>
    inspectXml(answer, 'WFS', ['WFS_Capabilities'], (root) => {
      const service = child(root, 'Service');
      const ows = owsIdentification(root);
      if (!service && !ows) return '<WFS_Capabilities> without a Service or ServiceIdentification element';
      const list = child(root, 'FeatureTypeList');
      const layers: ServiceLayer[] = (list ? childrenNamed(list, 'FeatureType') : []).map((f) => {
        const name = childText(f, 'Name') ?? '';
        const crs = ['SRS', 'DefaultSRS', 'DefaultCRS', 'OtherSRS', 'OtherCRS'].flatMap((n) => childrenNamed(f, n).map((c) => c.text)).filter(Boolean);
        const ll = child(f, 'LatLongBoundingBox');
        const wgs84 = wgs84Box(f) ?? (ll ? lonLatBox(num(ll.attrs.minx), num(ll.attrs.miny), num(ll.attrs.maxx), num(ll.attrs.maxy)) : null);
        return { name, title: childText(f, 'Title') ?? name, crs: [...new Set(crs)], wgs84, boxes: [] };
      });
      const version = root.attrs.version ?? null;
      return {
        status: 'valid', reason: null, version, versions: [...new Set([...(version ? [version] : []), ...(ows?.versions ?? [])])],
        title: ows?.title ?? childText(service, 'Title'),
        abstract: ows?.abstract ?? childText(service, 'Abstract'),
        keywords: ows?.keywords ?? keywordsOf(service && (child(service, 'Keywords') ?? child(service, 'KeywordList'))),
        provider: ows?.provider ?? null,
        layers, conformance: [],
      };
    }),
};
