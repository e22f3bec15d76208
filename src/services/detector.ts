import type { ServiceFindings, ServiceType } from './service-record.js';
import type { OgcLink } from './ogc-url.js';

/** What the probe brought back: the fetcher's answer, body read whatever its type. */
export interface ProbeAnswer {
  /** The URL the answer finally came from (after redirects). */
  url: string;
  status: number;
  contentType: string;
  body: Uint8Array | null;
}

/** A detector's judgement of an answer, and more requests to make (OGC API conformance, collections). */
export interface Verdict {
  findings: ServiceFindings;
  followUps?: { url: string; step: string }[];
  /** A capabilities document of another type than it was probed as (ServiceProbe.document): the type it is. */
  type?: ServiceType;
}

/**
 * One OGC service type. A detector is pure: it says which links are its candidates, which URL to
 * probe for an endpoint, and what an answer means. The engine does the fetching (with the
 * fetcher's timeouts and limits, robots.txt and per-host politeness).
 */
export interface ServiceDetector {
  readonly type: ServiceType;
  /** Values of REQUEST (lower case) that only this service type uses: GetMap means WMS. */
  readonly requests: readonly string[];
  /** Path segments (lower case) that name this type: /wms, /geoserver/wfs, /arcgis/.../WMSServer. */
  readonly pathHints: readonly string[];
  /** The endpoint of a candidate link: by default the link without its OGC request parameters. */
  endpoint?(link: OgcLink): string;
  /** The URL to fetch to learn what the endpoint is. */
  probeUrl(endpoint: string): string;
  /** `step` is absent for the first probe, or the step named by an earlier follow-up. */
  inspect(answer: ProbeAnswer, step?: string): Verdict;
}
