import type { ServiceLayer, ServiceRecord, ServiceStatus, ServiceType } from './service-record.js';

/** A registry entry with the pages that linked to the endpoint. */
export interface ServiceEntry extends ServiceRecord {
  foundOn: string[];
}

/**
 * The service database of method B. Writes may be buffered like the Store's: the crawler awaits
 * them before the probe's Store.commit(), so an entry is never missing for a probe logged as done.
 * test/store/describe-service-registry.ts is the contract suite every backend passes.
 */
export interface ServiceRegistry {
  /** Records a probe's result; one entry per (endpoint, type), replaced when probed again. */
  save(record: ServiceRecord): Promise<void>;
  /** Sets the conformance classes an OGC API follow-up found. */
  setConformance(endpoint: string, type: ServiceType, classes: string[]): Promise<void>;
  /** Marks an entry invalid with the reason, keeping what it holds: a follow-up that showed it is no service. */
  invalidate(endpoint: string, type: ServiceType, reason: string): Promise<void>;
  /** Sets the layers a follow-up found (OGC API collections). */
  setLayers(endpoint: string, type: ServiceType, layers: ServiceLayer[]): Promise<void>;
  /** Appends the layers of a later page of a follow-up (the `next` pages of OGC API collections). */
  addLayers(endpoint: string, type: ServiceType, layers: ServiceLayer[]): Promise<void>;
  /** Files the pages recorded under (endpoint, from) under (endpoint, to): a document that turned out to be another type. */
  moveSources(endpoint: string, from: ServiceType, to: ServiceType): Promise<void>;
  /** Records that `page` links to the endpoint; repeats are kept once. */
  addSource(endpoint: string, type: ServiceType, page: string): Promise<void>;
  /** Every entry, valid ones first, then by type and endpoint. */
  /** Valid ones first, then by type and endpoint; `limit`: the first so many (the dashboard's). */
  entries(limit?: number): Promise<ServiceEntry[]>;
  counts(): Promise<Record<ServiceStatus, number>>;
}
