import { lonLatBox, inspectXml, keywordsOf } from './capabilities-document.js';
import type { ServiceDetector } from './detector.js';
import { kvpCapabilitiesUrl } from './ogc-url.js';
import { owsIdentification, wgs84Box } from './ows-common.js';
import type { ServiceLayer } from './service-record.js';
import { child, childrenNamed, childText, path } from './xml-tree.js';

/**
 * Web Coverage Service 1.0.0 (root WCS_Capabilities with Service and ContentMetadata) and
 * 1.1/2.0 (root Capabilities in a WCS namespace, or declaring ServiceType WCS). Candidates:
 * SERVICE=WCS, REQUEST=GetCoverage|DescribeCoverage, a /wcs path. Layers are the coverages.
 */
export const wcsDetector: ServiceDetector = {
  type: 'WCS',
  requests: ['getcoverage', 'describecoverage', 'describeeocoverageset', 'getcoverageextent'],
  pathHints: ['wcs', 'wcsserver'],
  probeUrl: (endpoint) => kvpCapabilitiesUrl(endpoint, 'WCS'),
  inspect: (answer) =>
    inspectXml(answer, 'WCS', ['WCS_Capabilities', 'Capabilities'], (root) => {
      const version = root.attrs.version ?? null;
      if (root.name === 'WCS_Capabilities') {
        const service = child(root, 'Service');
        if (!service) return '<WCS_Capabilities> without a Service element';
        const offers = childrenNamed(child(root, 'ContentMetadata') ?? root, 'CoverageOfferingBrief');
        const layers: ServiceLayer[] = offers.map((c) => {
          const name = childText(c, 'name') ?? '';
          const pos = childrenNamed(child(c, 'lonLatEnvelope') ?? c, 'pos').map((p) => p.text.split(/\s+/).map(Number));
          const wgs84 = pos.length === 2 ? lonLatBox(pos[0]![0]!, pos[0]![1]!, pos[1]![0]!, pos[1]![1]!) : null;
          return { name, title: childText(c, 'label') ?? name, crs: [], wgs84, boxes: [] };
        });
        return {
          status: 'valid', reason: null, version, versions: version ? [version] : [],
          title: childText(service, 'label') ?? childText(service, 'name'), abstract: childText(service, 'description'),
          keywords: keywordsOf(child(service, 'keywords')), provider: childText(path(service, 'responsibleParty'), 'organisationName'),
          layers, conformance: [],
        };
      }
      const ows = owsIdentification(root);
      if (!root.ns.includes('/wcs') && !/wcs/i.test(ows?.serviceType ?? '')) return `<Capabilities> of another service (${root.ns || ows?.serviceType || 'no namespace'}), not WCS`;
      const contents = child(root, 'Contents');
      const layers: ServiceLayer[] = (contents ? childrenNamed(contents, 'CoverageSummary') : []).map((c) => {
        const name = childText(c, 'CoverageId') ?? childText(c, 'Identifier') ?? '';
        return { name, title: childText(c, 'Title') ?? name, crs: [], wgs84: wgs84Box(c), boxes: [] };
      });
      return {
        status: 'valid', reason: null, version, versions: [...new Set([...(version ? [version] : []), ...(ows?.versions ?? [])])],
        title: ows?.title ?? null, abstract: ows?.abstract ?? null, keywords: ows?.keywords ?? [], provider: ows?.provider ?? null,
        layers, conformance: [],
      };
    }),
};
