import { inspectXml } from './capabilities-document.js';
import type { ServiceDetector } from './detector.js';
import { kvpCapabilitiesUrl } from './ogc-url.js';
import { owsIdentification } from './ows-common.js';

/**
 * Catalogue Service for the Web 2.0.2 and 3.0. Candidates: SERVICE=CSW, REQUEST=GetRecords|
 * GetRecordById|DescribeRecord, a /csw path. Valid: root Capabilities in a CSW namespace (or
 * declaring ServiceType CSW) with a ServiceIdentification section. A catalogue has no layers.
 */
export const cswDetector: ServiceDetector = {
  type: 'CSW',
  requests: ['getrecords', 'getrecordbyid', 'describerecord', 'getdomain', 'harvest'],
  pathHints: ['csw'],
  probeUrl: (endpoint) => kvpCapabilitiesUrl(endpoint, 'CSW'),
  inspect: (answer) =>
    inspectXml(answer, 'CSW', ['Capabilities'], (root) => {
      const ows = owsIdentification(root);
      if (!root.ns.includes('/cat/csw') && !/csw/i.test(ows?.serviceType ?? '')) return `<Capabilities> of another service (${root.ns || ows?.serviceType || 'no namespace'}), not CSW`;
      if (!ows) return '<Capabilities> without a ServiceIdentification element';
      const version = root.attrs.version ?? null;
      return {
        status: 'valid', reason: null, version, versions: [...new Set([...(version ? [version] : []), ...ows.versions])],
        title: ows.title, abstract: ows.abstract, keywords: ows.keywords, provider: ows.provider, layers: [], conformance: [],
      };
    }),
};
