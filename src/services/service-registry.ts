import type { ServiceLayer, ServiceRecord, ServiceStatus, ServiceType } from './service-record.js';

/** A registry entry with the pages that linked to the endpoint. */
export interface ServiceEntry extends ServiceRecord {
  foundOn: string[];
}

/**
 * The service database of method B. Writes may be buffered like the Store's and become durable
 * with the crawl's other writes (same journal, same transaction as the probe's log line).
 */
export interface ServiceRegistry {
  /** Records a probe's result; one entry per (endpoint, type), replaced when probed again. */
  save(record: ServiceRecord): void;
  /** Sets the conformance classes an OGC API follow-up found. */
  setConformance(endpoint: string, type: ServiceType, classes: string[]): void;
  /** Sets the layers a follow-up found (OGC API collections). */
  setLayers(endpoint: string, type: ServiceType, layers: ServiceLayer[]): void;
  /** Appends the layers of a later page of a follow-up (the `next` pages of OGC API collections). */
  addLayers(endpoint: string, type: ServiceType, layers: ServiceLayer[]): void;
  /** Files the pages recorded under (endpoint, from) under (endpoint, to): a document that turned out to be another type. */
  moveSources(endpoint: string, from: ServiceType, to: ServiceType): void;
  /** Records that `page` links to the endpoint; repeats are kept once. */
  addSource(endpoint: string, type: ServiceType, page: string): void;
  /** Every entry, valid ones first, then by type and endpoint. */
  entries(): Promise<ServiceEntry[]>;
  counts(): Promise<Record<ServiceStatus, number>>;
}
