import type { CrawlRequest, Link, NewRequest } from '../types.js';
import { BY_STRATEGY, tooDeepReason, type Frontier } from '../frontier/frontier.js';
import type { Store } from '../store/store.js';
import type { LinkDecision, PageView, Strategy } from '../strategies/strategy.js';
import { FocusCrawlError } from '../errors.js';
import { hostOf } from '../parse/normalize-url.js';
import type { CrawlEventBus } from './crawl-events.js';
import type { CrawlScope } from './crawl-scope.js';
import type { CrawlStats } from './crawl-stats.js';
import { countDiscard, discardKind } from './discard-reasons.js';
import type { ServiceProbing } from './service-probing.js';
import { pageSignature, type TrapGuard } from './trap-guard.js';

/** Why the links of a page that copies its parent are not followed (TrapGuard.mirrorsParent). */
export const MIRROR_REASON = 'trap: the page is a copy of the page that linked to it (a soft 404 answering every path?)';

/** A link turned away, with why: counted, announced and written to the crawl log. */
export interface Discard {
  req: NewRequest;
  reason: string;
}

export interface LinkAdmissionDeps {
  frontier: Frontier;
  store: Store;
  strategy: Strategy;
  scope: CrawlScope;
  maxDepth: number;
  traps: TrapGuard | null;
  probing: ServiceProbing | null;
  /** 'keep': a URL already seen is never offered again, so its priority is never raised. */
  rediscovery: 'raise' | 'keep';
  stats: CrawlStats;
  events: CrawlEventBus;
}

/**
 * What happens to a fetched page's links: the cheap checks (nofollow, repeats, scope, depth,
 * traps), the strategy's priorities, the frontier's add (and its raise on rediscovery), and the
 * discards, each logged once with its reason so that no crawl ends on discards without saying so.
 */
export class LinkAdmission {
  readonly #d: LinkAdmissionDeps;
  /** Keys of the URLs whose page the strategy scored, until they end (UrlEnding: Strategy.unscored). */
  readonly scored = new Set<string>();

  constructor(deps: LinkAdmissionDeps) {
    this.#d = deps;
  }

  /** Returns how many of the links joined the frontier as new URLs. */
  async add(parent: CrawlRequest, links: Link[], view: PageView): Promise<number> {
    const { frontier: f, strategy, traps } = this.#d;
    // A copy of the page that linked here (a soft 404 answering every path): its links, relative
    // ones nesting the path further, are discarded; the parent's own were followed.
    const page = view.page;
    if (traps && links.length && traps.mirrorsParent(parent.key, parent.parent, pageSignature(page.title, page.text, links.map((l) => l.anchor)))) {
      const mirrored = links.filter((l) => !l.nofollow && !f.settled(l.url)).map((l) => ({ req: { url: l.url, host: hostOf(l.url), depth: parent.depth + 1, parent: parent.key, anchor: l.anchor, priority: 0, data: null }, reason: MIRROR_REASON }));
      const first = mirrored.length ? await f.discard(mirrored.map((d) => d.req), MIRROR_REASON) : [];
      await this.logDiscards(mirrored.filter((_d, i) => first[i]), parent.url);
      return 0;
    }
    const split = this.#d.probing?.split(parent, links, view.page);
    if (split) links = split.pages;
    const depth = parent.depth + 1;
    const local = new Set<string>();
    const candidates: Link[] = [];
    const discards: Discard[] = [];
    const keep = this.#d.rediscovery === 'keep';
    for (const link of links) {
      // Cheap checks first: most extracted links are repeats (navigation), and stop here.
      if (link.nofollow || local.has(link.url) || (keep ? f.knownSeen(link.url) : f.settled(link.url))) continue;
      local.add(link.url);
      const host = hostOf(link.url);
      const out = this.#d.scope.check(link.url, host);
      const reason = out ?? (depth > this.#d.maxDepth ? tooDeepReason(this.#d.maxDepth) : null) ?? traps?.check(link.url, parent.url) ?? null;
      if (reason) {
        discards.push({ req: { url: link.url, host, depth, parent: parent.key, anchor: link.anchor, priority: 0, data: null }, reason });
      } else {
        candidates.push(link);
      }
    }
    for (const { req, reason } of split?.refused ?? []) {
      if (local.has(req.url) || f.settled(req.url)) continue;
      local.add(req.url);
      discards.push({ req: { url: req.url, host: req.host, depth, parent: parent.key, anchor: req.anchor, priority: 0, data: null }, reason });
    }
    const probes = split?.probes ?? [];
    const offered = probes.length ? [...candidates, ...probes.map((p) => p.link)] : candidates;
    this.scored.add(parent.key);
    const decisions = checkedDecisions(strategy.name, strategy.scoreLinks(view, offered), offered, parent.url);
    const batch: NewRequest[] = [];
    // A probe the strategy turns down is dropped, not discarded: another page may rate it higher.
    probes.forEach((p, i) => {
      const d = decisions[candidates.length + i];
      if (d) batch.push({ ...p.req, priority: d.priority, data: d.data ?? null });
    });
    candidates.forEach((link, i) => {
      const d = decisions[i];
      const req: NewRequest = { url: link.url, host: hostOf(link.url), depth, parent: parent.key, anchor: link.anchor, priority: d?.priority ?? 0, data: d?.data ?? null };
      if (d) batch.push(req);
      else discards.push({ req, reason: `${BY_STRATEGY} ${strategy.name}` });
    });
    // Links of earlier pages whose priority the strategy raised (two-step), through the raise on rediscovery.
    const again = strategy.reoffers?.() ?? [];
    const own = batch.length;
    if (!keep) for (const r of again) batch.push({ url: r.url, host: hostOf(r.url), depth: r.depth, parent: r.parent, anchor: r.anchor, priority: r.priority, data: r.data ?? null });
    const fresh = batch.length ? await f.add(batch, Date.now()) : [];
    batch.forEach((r, i) => i < own && fresh[i] && !r.probe && traps?.admitted(r.url, parent.url));
    // One call per reason (a shared frontier's round trip), not one per discarded link.
    const byReason = new Map<string, Discard[]>();
    for (const d of discards) {
      const list = byReason.get(d.reason);
      if (list) list.push(d);
      else byReason.set(d.reason, [d]);
    }
    const isNew = new Set<Discard>();
    for (const [reason, list] of byReason) {
      const first = await f.discard(list.map((d) => d.req), reason);
      list.forEach((d, i) => first[i] && isNew.add(d));
    }
    await this.logDiscards(discards.filter((d) => isNew.has(d)), parent.url); // in the page's order
    let added = 0;
    for (let i = 0; i < own; i++) {
      if (fresh[i]) added++;
      if (fresh[i] === 'revived') this.#d.stats.revived++;
    }
    return added;
  }

  /** Counts, announces and logs discards the frontier had not seen before. */
  async logDiscards(discards: Discard[], parentUrl: string | null): Promise<void> {
    if (!discards.length) return;
    const { stats, events } = this.#d;
    for (const { req, reason } of discards) {
      stats.discarded++;
      countDiscard(stats.discardedBy, reason);
      events.emit('discarded', { url: req.url, reason, kind: discardKind(reason) });
    }
    await this.#d.store.logDiscards(
      discards.map(({ req, reason }) => ({ url: req.url, final_url: null, state: 'discarded', status: null, depth: req.depth, parent: parentUrl, anchor: req.anchor, title: null, relevance: null, priority: req.priority, fetched_at: null, error: reason })),
    );
  }
}

/**
 * A strategy's decisions, checked: one per link, each null or with a finite number as priority.
 * A strategy object from JavaScript that returned too few failed the crawl's store with NaN, or
 * discarded the links it had forgotten as if it had decided so.
 */
function checkedDecisions(name: string, decisions: unknown, links: readonly Link[], pageUrl: string): (LinkDecision | null)[] {
  const fault = (what: string) => new FocusCrawlError('CONFIG', `strategy ${name}: scoreLinks for ${pageUrl} ${what}`);
  if (!Array.isArray(decisions)) throw fault(`returned ${decisions === null ? 'null' : typeof decisions}, not a list of decisions`);
  if (decisions.length !== links.length) throw fault(`returned ${decisions.length} decisions for ${links.length} links: one a link, null to discard it`);
  decisions.forEach((d: unknown, i) => {
    if (d === null) return;
    const priority = typeof d === 'object' && d !== null ? (d as { priority?: unknown }).priority : undefined;
    if (typeof priority !== 'number' || !Number.isFinite(priority)) throw fault(`gave ${links[i]!.url} the priority ${typeof priority === 'string' ? JSON.stringify(priority) : String(priority)}: a priority is a finite number`);
  });
  return decisions as (LinkDecision | null)[];
}
