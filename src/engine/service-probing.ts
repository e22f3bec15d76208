import type { CrawlRequest, FetchResult, Link, NewRequest, Page } from '../types.js';
import { hostOf } from '../parse/normalize-url.js';
import { pageSaysCapabilities, type ServiceCandidate, type ServiceDetection } from '../services/service-detection.js';
import type { ServiceType } from '../services/service-record.js';
import type { ServiceRegistry } from '../services/service-registry.js';
import type { ServiceRecord } from '../services/service-record.js';
import { boundedFindings, emptyFindings } from '../services/service-record.js';
import type { CrawlScope } from './crawl-scope.js';
import type { CrawlStats } from './crawl-stats.js';

/**
 * Pages of a paged follow-up followed at most (OGC API collections and their `next` links): a
 * server that lists thousands of collections 10 at a time must not turn one endpoint into a crawl.
 */
export const MAX_FOLLOW_UP_PAGES = 20;

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
  /** Registry writes queued while splitting links, awaited by settle(). */
  #writes: Promise<void>[] = [];
  #failure: Error | null = null;
  readonly #scope: CrawlScope;
  readonly #stats: CrawlStats;
  /** Documents found to be another type than they were probed as, this run: later pages that link them are filed under that type. */
  readonly #retyped = new Map<string, ServiceType>();

  constructor(detection: ServiceDetection, registry: ServiceRegistry, scope: CrawlScope, stats: CrawlStats) {
    this.#detection = detection;
    this.#registry = registry;
    this.#scope = scope;
    this.#stats = stats;
  }

  /** The probe for a candidate, with priority 0 and no state: the caller takes both from the strategy. */
  #probeRequest(c: ServiceCandidate, parent: CrawlRequest | null, anchor: string): NewRequest {
    return {
      url: c.probeUrl, host: hostOf(c.probeUrl), depth: parent ? parent.depth + 1 : 0, parent: parent?.key ?? null, anchor,
      priority: 0, data: null, probe: { type: c.type, endpoint: c.endpoint, ...(c.document ? { document: true } : {}) },
    };
  }

  /** A seed that is a service link becomes its probe; null for an ordinary seed. */
  seed(url: string): NewRequest | null {
    const c = this.#detection.candidate(url);
    return c && c.request ? this.#probeRequest(c, null, '') : null;
  }

  /**
   * Splits a page's links into probes (passing only the allow/deny filters; no depth limit, a
   * probe is a leaf) and the links to follow as pages: every link but the OGC requests, which
   * are probed instead. Each probe keeps the link it came from, for the strategy to score.
   * With the page's service text (Page.serviceText), two more kinds of probe: a link to a .xml
   * file whose words say it is a capabilities document (ServiceDetection.documentCandidate), and
   * a candidate URL written in the page without a link (a <code> block, a script string...),
   * which is probed like a link and never followed as a page.
   */
  split(parent: CrawlRequest, links: readonly Link[], page?: Page): { probes: { link: Link; req: NewRequest }[]; pages: Link[]; refused: { req: NewRequest; reason: string }[] } {
    const probes: { link: Link; req: NewRequest }[] = [];
    const refused: { req: NewRequest; reason: string }[] = [];
    const pages: Link[] = [];
    const text = page?.serviceText;
    let pageSays: boolean | undefined;
    const saysCapabilities = () => (pageSays ??= pageSaysCapabilities(page!));
    const offer = (link: Link, c: ServiceCandidate) => {
      const req = this.#probeRequest(c, parent, link.anchor);
      // A probe the filters refuse is a discard with its reason, and no source row for an endpoint never probed.
      const out = this.#scope.checkFilters(req.url);
      if (out) {
        refused.push({ req, reason: out });
        return;
      }
      this.#queue(this.#registry.addSource(c.endpoint, (c.document && this.#retyped.get(c.endpoint)) || c.type, parent.url));
      probes.push({ link, req });
    };
    for (const link of links) {
      const words = link.nofollow ? undefined : text?.xmlLinkWords[link.url];
      const c = link.nofollow
        ? null
        : (this.#detection.candidate(link.url) ?? (words !== undefined ? this.#detection.documentCandidate(link.url, words, saysCapabilities) : null));
      if (c) offer(link, c);
      if (!c || !c.request) pages.push(link);
    }
    for (const link of text?.urls ?? []) {
      const c = this.#detection.candidate(link.url);
      if (c) offer(link, c);
    }
    return { probes, pages, refused };
  }

  /** Judges an answer; returns the entry and the follow-up requests the detector wants. Saves nothing. */
  judge(req: CrawlRequest, res: FetchResult): { record: ServiceRecord; followUps: NewRequest[] } {
    const probe = req.probe!;
    const verdict = this.#detection.inspect(probe, { url: res.finalUrl, status: res.status, contentType: res.contentType, body: res.body });
    const record: ServiceRecord = { ...boundedFindings(verdict.findings), endpoint: probe.endpoint, type: verdict.type ?? probe.type, probedUrl: req.url, checkedAt: new Date().toISOString() };
    // A first probe asks for more; a follow-up only for the next page of its own step, up to
    // MAX_FOLLOW_UP_PAGES pages: otherwise follow-ups never chain.
    const page = probe.page ?? 1;
    // Follow-ups pass what a probe passes (--allow, --deny, the URL length limit) and stay on the
    // endpoint's host: a `next` link elsewhere is not the service's next page.
    const home = hostOf(probe.endpoint);
    const followUps: NewRequest[] = (verdict.followUps ?? [])
      .filter((f) => !probe.step || (f.step === probe.step && page < MAX_FOLLOW_UP_PAGES))
      .filter((f) => hostOf(f.url) === home && this.#scope.checkFilters(f.url) === null)
      .map((f) => ({
        url: f.url, host: hostOf(f.url), depth: req.depth, parent: req.key, anchor: '', priority: req.priority, data: req.data,
        probe: { type: probe.type, endpoint: probe.endpoint, step: f.step, ...(probe.step ? { page: page + 1 } : {}) },
      }));
    return { record, followUps };
  }

  /** Saves a judged entry: a first probe's entry, or what a follow-up adds to it (conformance classes, layers). */
  async save(req: CrawlRequest, record: ServiceRecord): Promise<void> {
    this.#stats.probes++;
    const step = req.probe?.step;
    if (step) {
      // Valid needs an OGC conformance class: a landing page whose declaration is missing or
      // empty is no OGC API, whatever its links said.
      if (step === 'conformance' && (record.status !== 'valid' || !record.conformance.length)) {
        return this.#invalidate(record.endpoint, record.type, `conformance declaration: ${record.reason ?? 'no conformance class'}`);
      }
      if (record.status !== 'valid') return;
      if (step === 'conformance') await this.#registry.setConformance(record.endpoint, record.type, record.conformance);
      if (step === 'collections') {
        if ((req.probe?.page ?? 1) > 1) await this.#registry.addLayers(record.endpoint, record.type, record.layers);
        else await this.#registry.setLayers(record.endpoint, record.type, record.layers);
      }
      return;
    }
    this.#stats.services[record.status]++;
    const probedAs = req.probe?.type;
    if (probedAs && record.type !== probedAs) this.#retyped.set(record.endpoint, record.type);
    await this.#registry.save(record);
    if (probedAs && record.type !== probedAs) await this.#registry.moveSources(record.endpoint, probedAs, record.type);
  }

  /**
   * Waits for the registry writes that splitting pages queued (the pages that link to endpoints):
   * the crawler calls it before it commits the page, so a source is never missing for a stored page.
   */
  async settle(): Promise<void> {
    while (this.#writes.length) await Promise.all(this.#writes.splice(0));
    const err = this.#failure;
    this.#failure = null;
    if (err) throw err;
  }

  /** Keeps a write's failure for settle(): left unobserved until then, it would be an unhandled rejection. */
  #queue(write: Promise<void>): void {
    this.#writes.push(write.catch((err: unknown) => {
      this.#failure ??= err instanceof Error ? err : new Error(String(err));
    }));
  }

  async #invalidate(endpoint: string, type: ServiceType, reason: string): Promise<void> {
    this.#stats.services.valid--;
    this.#stats.services.invalid++;
    await this.#registry.invalidate(endpoint, type, reason);
  }

  /** A probe that could not be fetched (after its retries): the endpoint is invalid, with the reason. */
  async failed(req: CrawlRequest, reason: string): Promise<void> {
    const probe = req.probe!;
    this.#stats.probes++;
    if (probe.step === 'conformance') return this.#invalidate(probe.endpoint, probe.type, `conformance declaration: ${reason}`);
    if (probe.step) return;
    this.#stats.services.invalid++;
    await this.#registry.save({ ...emptyFindings('invalid', reason), endpoint: probe.endpoint, type: probe.type, probedUrl: req.url, checkedAt: new Date().toISOString() });
  }
}
