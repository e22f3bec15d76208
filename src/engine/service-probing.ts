import type { CrawlRequest, FetchResult, Link, NewRequest } from '../types.js';
import { hostOf } from '../parse/normalize-url.js';
import type { ServiceDetection } from '../services/service-detection.js';
import type { ServiceRegistry } from '../services/service-registry.js';
import type { ServiceRecord } from '../services/service-record.js';
import { emptyFindings } from '../services/service-record.js';
import type { CrawlScope } from './crawl-scope.js';
import type { CrawlStats } from './crawl-stats.js';

/**
 * The crawl's side of service detection: turns candidate links into probe requests (recording
 * every page that linked to an endpoint), and probe answers or failures into registry entries.
 * The strategy orders probes as it orders any link (scored from the link as found), so a
 * breadth-first crawl meets a service when it reaches the link and a focused one when it rates
 * it; the frontier gives probes what pages get: dedup (one probe per endpoint and type),
 * robots.txt, per-host politeness, retries, leases and resume.
 */
export class ServiceProbing {
  readonly #detection: ServiceDetection;
  readonly #registry: ServiceRegistry;
  readonly #scope: CrawlScope;
  readonly #stats: CrawlStats;

  constructor(detection: ServiceDetection, registry: ServiceRegistry, scope: CrawlScope, stats: CrawlStats) {
    this.#detection = detection;
    this.#registry = registry;
    this.#scope = scope;
    this.#stats = stats;
  }

  /** The probe for a link, with priority 0 and no state: the caller takes both from the strategy. */
  #probeRequest(url: string, parent: CrawlRequest | null, anchor: string): { req: NewRequest; request: boolean } | null {
    const c = this.#detection.candidate(url);
    if (!c) return null;
    if (parent) this.#registry.addSource(c.endpoint, c.type, parent.url);
    return {
      request: c.request,
      req: {
        url: c.probeUrl, host: hostOf(c.probeUrl), depth: parent ? parent.depth + 1 : 0, parentId: parent?.id ?? null, anchor,
        priority: 0, data: null, probe: { type: c.type, endpoint: c.endpoint },
      },
    };
  }

  /** A seed that is a service link becomes its probe; null for an ordinary seed. */
  seed(url: string): NewRequest | null {
    const p = this.#probeRequest(url, null, '');
    return p && p.request ? p.req : null;
  }

  /**
   * Splits a page's links into probes (passing only the allow/deny filters; no depth limit, a
   * probe is a leaf) and the links to follow as pages: every link but the OGC requests, which
   * are probed instead. Each probe keeps the link it came from, for the strategy to score.
   */
  split(parent: CrawlRequest, links: readonly Link[]): { probes: { link: Link; req: NewRequest }[]; pages: Link[] } {
    const probes: { link: Link; req: NewRequest }[] = [];
    const pages: Link[] = [];
    for (const link of links) {
      const p = link.nofollow ? null : this.#probeRequest(link.url, parent, link.anchor);
      if (p && !this.#scope.checkFilters(p.req.url)) probes.push({ link, req: p.req });
      if (!p || !p.request) pages.push(link);
    }
    return { probes, pages };
  }

  /** Judges an answer; returns the entry and the follow-up requests the detector wants. Saves nothing. */
  judge(req: CrawlRequest, res: FetchResult): { record: ServiceRecord; followUps: NewRequest[] } {
    const probe = req.probe!;
    const verdict = this.#detection.inspect(probe, { url: res.finalUrl, status: res.status, contentType: res.contentType, body: res.body });
    const record: ServiceRecord = { ...verdict.findings, endpoint: probe.endpoint, type: probe.type, probedUrl: req.url, checkedAt: new Date().toISOString() };
    // Only a first probe asks for more: follow-ups never chain.
    const followUps: NewRequest[] = probe.step
      ? []
      : (verdict.followUps ?? []).map((f) => ({
          url: f.url, host: hostOf(f.url), depth: req.depth, parentId: req.id, anchor: '', priority: req.priority, data: req.data,
          probe: { ...probe, step: f.step },
        }));
    return { record, followUps };
  }

  /** Saves a judged entry: a first probe's entry, or what a follow-up adds to it (conformance classes, layers). */
  save(req: CrawlRequest, record: ServiceRecord): void {
    this.#stats.probes++;
    const step = req.probe?.step;
    if (step) {
      if (record.status !== 'valid') return;
      if (step === 'conformance') this.#registry.setConformance(record.endpoint, record.type, record.conformance);
      if (step === 'collections') this.#registry.setLayers(record.endpoint, record.type, record.layers);
      return;
    }
    this.#stats.services[record.status]++;
    this.#registry.save(record);
  }

  /** A probe that could not be fetched (after its retries): the endpoint is invalid, with the reason. */
  failed(req: CrawlRequest, reason: string): void {
    const probe = req.probe!;
    this.#stats.probes++;
    if (probe.step) return;
    this.#stats.services.invalid++;
    this.#registry.save({ ...emptyFindings('invalid', reason), endpoint: probe.endpoint, type: probe.type, probedUrl: req.url, checkedAt: new Date().toISOString() });
  }
}
