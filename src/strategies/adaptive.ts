import { z } from 'zod';
import type { Link } from '../types.js';
import type { Topic } from '../relevance/topic.js';
import { forEachTermHash, hashTerm } from '../text/term-hasher.js';
import { termCounts } from '../text/tokenize.js';
import { explainedCosine } from '../relevance/scored.js';
import { profileCosine, topicTerms } from '../relevance/vsm-scorer.js';
import { SiteTerms } from './site-terms.js';
import { SiblingFamilies } from './sibling-families.js';
import { StallHubs } from './stall-hubs.js';
import { CompoundLifts } from './compound-lifts.js';
import { foldPlural } from '../text/plural-fold.js';
import { hostOf } from '../parse/normalize-url.js';
import { LinkFrequency } from './link-frequency.js';
import { OutcomeStats } from './outcome-stats.js';
import type { LinkDecision, PageView, Reoffer, Strategy } from './strategy.js';
import { isHeardPage, MAX_TOLD_LINKS, type HeardPage } from './heard-page.js';
import { EvidenceLog } from './evidence-log.js';

export const adaptiveOptions = z.strictObject({
  /** How much of a page's inherited score its links keep through an off-topic page (as shark's d). */
  decay: z.number().min(0).max(1).default(0.5),
  /** Share of the parent's evidence a link loses when it repeats on every page of its host (navigation). */
  nav: z.number().min(0).max(1).default(0.8),
  /** Weight of the link's own evidence (anchor, else context) against the parent's. */
  anchor: z.number().min(0).default(1),
  /** Weight of the context (text around a link) when the anchor says nothing, relative to an anchor. */
  context: z.number().min(0).max(1).default(0.5),
  /**
   * Weight of what the crawl learned: the priority is multiplied by lift^g, lift = the learned
   * chance over the crawl's base rate (clamped to 1/4..4), g = learn * evidence / (evidence + 3).
   */
  learn: z.number().min(0).max(2).default(1),
  /** The parent's relevance counts fully at parentScale * threshold (higher: relevance above the threshold still tells pages apart). */
  parentScale: z.number().positive().default(1.5),
  /** Characters of text on each side of a link read as its context. */
  contextChars: z.number().int().min(0).default(80),
  /**
   * Share of its weight a topic term keeps on a host whose page titles carry it as the site's name
   * (SiteTerms: "… — CMake 3.25.1 Documentation"), in the parent's relevance, anchors and contexts
   * as adaptive reads them; 1 turns the discount off.
   */
  siteTerm: z.number().min(0).max(1).default(0.2),
  /**
   * Largest factor by which a page's children that were fetched and found on topic raise its
   * other, waiting links (SiblingFamilies); 1 turns sibling evidence off.
   */
  siblings: z.number().min(1).max(16).default(4),
  /** Children's weight of the crawl's mean in a family's estimate (the more, the slower a family decides). */
  siblingPrior: z.number().positive().default(2),
  /**
   * Pages of a host in a row found off topic before the host's hubs (the targets of its menu,
   * links most of its pages carry) are offered at 1.05 times the priority of the page that ended
   * the stall, `stallHubs` at a time (StallHubs); 0 turns it off.
   */
  stall: z.number().int().min(0).default(5),
  /** Hubs offered at each stall. */
  stallHubs: z.number().int().min(1).default(2),
});
export type AdaptiveOptions = z.output<typeof adaptiveOptions>;

interface HostTopic {
  weights: Float64Array;
  /** Norm of `weights`, and of the topic's own weights (the bound of a lifted score). */
  norm: number;
  vector: Map<string, number>;
  anchors: Map<string, number>;
  /** The topic's compound keywords naming this host's site (null on most hosts), and the undiscounted vector that bounds them. */
  lifts: CompoundLifts | null;
  fullVector: Map<string, number> | null;
}

/**
 * Anchor scores cached over all hosts: menus and sidebars repeat their anchors on every page. A
 * bound per host let a crawl of a thousand hosts keep fifty million; over all hosts it is a few MB.
 */
const MAX_CACHED_ANCHORS = 50_000;

/** Outcomes one label counts as (the crawl's own reading of a page counts as one). */
const LABEL_WEIGHT = 5;

/** Feature kinds, mixed into the learned statistics' hash slots. */
const F = { anchorWord: 1, directory: 2, host: 3, navBucket: 4, parentBucket: 5 } as const;

/** Why a link got its priority (focuscrawl score prints these). */
export interface AdaptiveExplanation {
  priority: number;
  /** The parent's relevance with the topic's terms weighed by how well they tell this crawl's pages apart. */
  relevance: number;
  /** The parent's relevance over parentScale times the topic threshold, capped at 1. */
  parent: number;
  /** The score inherited through off-topic pages (decayed). */
  inherited: number;
  /** Share of the host's pages that carry this link (1: on every page, navigation). */
  navigation: number;
  /** The anchor's cosine over twice the threshold, capped at 1. */
  anchor: number;
  /** The context's, when the anchor has no topic word. */
  context: number;
  /** Learned chance that such a link leads to a relevant page, its evidence, and the factor it applied. */
  learned: number;
  evidence: number;
  lift: number;
  /** The factor this page's children found so far give its waiting links (1: none, or no better than the crawl's mean). */
  siblings: number;
}

/**
 * `adaptive`, the default with a topic: every piece of evidence the named strategies use one at a
 * time, for real sites where every page links to a hundred others.
 *
 *   parent     = min(1, rel(p) / (parentScale * threshold))
 *   inherited  = max(parent, decay * inherited(p))          carried to the children (A's tunnel)
 *   fromParent = inherited * (1 - nav * navigation(link))   sidebars do not vouch for their links
 *   own        = anchor(link), or context * context(link) when the anchor has no topic word
 *   base       = (fromParent + anchorWeight * own) / (1 + anchorWeight)
 *   priority   = base * (learned(link) / baseRate) ^ g,  g = learn * evidence / (evidence + 3)
 *
 * navigation(link) is the share of the host's scored pages that link to it (LinkFrequency), so a
 * menu entry seen on every page gets little from its parent while a link in one page's body gets
 * everything; its anchor text still counts (a sidebar of page titles is good evidence of what the
 * titles name). learned(link) is what the crawl has seen so far of links with the same anchor
 * words, URL directories, host and navigation level (OutcomeStats): it corrects the hand-set
 * weights site by site. Rediscovery through a better parent raises a waiting URL (the frontier's
 * raise), so the first, usually off-topic, hub that found a URL does not fix its place.
 *
 * Pure: the learned state changes only through scoreLinks' inputs; snapshot()/restore() carry it
 * across a resume.
 */
export class AdaptiveStrategy implements Strategy {
  readonly name = 'adaptive';
  readonly topic: Topic;
  readonly options: AdaptiveOptions;
  readonly linkContext: number;
  readonly #freq = new LinkFrequency();
  /** Pages scored since the last evidence() call, once a caller asked for them. */
  readonly #said = new EvidenceLog<HeardPage>();
  readonly #stats = new OutcomeStats();
  readonly #siteTerms: SiteTerms;
  readonly #siblings: SiblingFamilies;
  readonly #hubs: StallHubs;
  /** Per host: the topic's weights with its site terms discounted, as a map for anchors, and its anchors' scores. */
  readonly #hostTopics = new Map<string, HostTopic>();
  /** Anchor scores cached in all hosts' HostTopic.anchors. */
  #cachedAnchors = 0;

  constructor(topic: Topic, options: Partial<AdaptiveOptions> = {}) {
    this.topic = topic;
    this.options = adaptiveOptions.parse(options);
    this.linkContext = this.options.contextChars;
    this.#siteTerms = new SiteTerms(topic.tokenizeOptions);
    this.#siblings = new SiblingFamilies({ prior: this.options.siblingPrior, maxLift: this.options.siblings, track: 10_000 });
    this.#hubs = new StallHubs({ stall: this.options.stall, perStall: this.options.stallHubs, maxHosts: 1_000, maxHubs: 32, maxOffers: 32 });
  }

  #hostTopic(host: string): HostTopic {
    let h = this.#hostTopics.get(host);
    if (!h) {
      const { names, weights } = topicTerms(this.topic);
      const site = this.options.siteTerm < 1 ? this.#siteTerms.of(host) : new Set<string>();
      const w = Float64Array.from(names, (t, i) => weights[i]! * (site.has(t) ? this.options.siteTerm : 1));
      // Bounded like the anchors' cache: a crawl of many hosts rebuilds the ones it returns to.
      if (this.#hostTopics.size >= 1_000) this.#clearHostTopics();
      const folded = (ws: ArrayLike<number>) => {
        const m = new Map<string, number>();
        names.forEach((t, i) => {
          const k = this.#fold(t);
          m.set(k, Math.max(m.get(k) ?? 0, ws[i]!));
        });
        return m;
      };
      const lifts = CompoundLifts.forHost(this.topic, site, this.options.siteTerm);
      h = { weights: w, norm: Math.hypot(...w), vector: folded(w), anchors: new Map(), lifts, fullVector: lifts ? folded(weights) : null };
      this.#hostTopics.set(host, h);
    }
    return h;
  }

  #dropHostTopic(host: string): void {
    this.#cachedAnchors -= this.#hostTopics.get(host)?.anchors.size ?? 0;
    this.#hostTopics.delete(host);
  }

  #clearHostTopics(): void {
    this.#hostTopics.clear();
    this.#cachedAnchors = 0;
  }

  /**
   * Sizes of what adaptive keeps per host, for memory checks: hosts with a cached topic, anchor
   * scores cached, hosts with a page count, and the stall hubs' hosts, hubs and marked URLs.
   */
  cacheSizes(): { hosts: number; anchors: number; countedHosts: number; hubHosts: number; hubs: number; hubsDone: number } {
    const h = this.#hubs.sizes();
    return { hosts: this.#hostTopics.size, anchors: this.#cachedAnchors, countedHosts: this.#freq.hosts, hubHosts: h.hosts, hubs: h.hubs, hubsDone: h.done };
  }

  /** The topic terms adaptive discounts on `host` as the site's own name (SiteTerms). */
  siteTermsOf(host: string): ReadonlySet<string> {
    return this.#siteTerms.of(host);
  }

  /** rel(p) as adaptive reads it: with the host's site terms discounted when the crawl gave the page's profile. */
  #relevance(view: PageView): number {
    if (!view.profile || this.options.siteTerm >= 1) return view.relevance ?? 0;
    const topic = this.#hostTopic(view.request.host);
    const rel = profileCosine(this.topic, view.profile, topic.weights);
    if (!topic.lifts || topic.norm === 0 || view.profile.normSq === 0) return rel;
    // The profile counts every "sphinx" alike: add back the full weight of those written inside a compound, by position.
    const { page: p } = view;
    const w = this.topic.positions;
    let extra = w.title * topic.lifts.extraIn(p.title) + w.headings * topic.lifts.extraIn(p.headings) + w.body * topic.lifts.extraIn(p.text);
    if (w.anchor) for (const l of p.links) extra += w.anchor * topic.lifts.extraIn(l.anchor);
    if (extra === 0) return rel;
    // Never above the page's score with no discount at all.
    return Math.min(rel + extra / (Math.sqrt(view.profile.normSq) * topic.norm), profileCosine(this.topic, view.profile));
  }

  seed(): LinkDecision {
    return { priority: 1, data: { i: 1 } };
  }

  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    if (view.request.sitemap) return this.#sitemapLinks(view, links);
    const host = view.request.host;
    this.#observeTitle(host, view.page.title);
    const relevance = this.#relevance(view);
    const r = view.request;
    const carried = r.data?.f;
    const heard: HeardPage = {
      u: r.url, p: r.parent, h: host, k: r.key, d: r.depth, q: r.priority, t: view.page.title,
      r: relevance >= this.topic.threshold ? 1 : 0,
      o: Math.min(1, relevance / (this.options.parentScale * (this.topic.threshold > 0 ? this.topic.threshold : 0.2))),
      f: Array.isArray(carried) ? (carried as number[]) : null,
    };
    this.#learnFrom(heard);
    this.#freq.page(host);
    const family: Parameters<SiblingFamilies['add']>[2] = [];
    const hubs: Parameters<StallHubs['fetched']>[6] = [];
    // The links' hashes, for the other workers' navigation reading (heard-page.ts): computed once, for both.
    const told = this.#said.recording ? new Float64Array(Math.min(links.length, MAX_TOLD_LINKS)) : null;
    const decisions = links.map((l, i) => {
      const h = hashTerm(l.url);
      if (told && i < told.length) told[i] = h;
      const navigation = this.#freq.linkHash(host, h);
      const e = this.#explain(view, l, navigation, relevance);
      const d = { priority: e.priority, data: { i: e.inherited, f: e.features } };
      // Navigation repeats on most pages: it makes no family, or every page would be every page's sibling.
      if (navigation < 0.5) family.push({ url: l.url, anchor: l.anchor, priority: d.priority, data: d.data });
      // The host's own pages: a menu's link to another site is no section of this one.
      else if (hostOf(l.url) === host) hubs.push({ url: l.url, anchor: l.anchor, data: d.data });
      return d;
    });
    if (this.options.siblings > 1) this.#siblings.add(view.request.key, view.request.depth, family);
    this.#hubs.fetched(host, r.url, r.key, r.depth, r.priority, heard.r === 1, hubs);
    if (told) this.#said.push({ ...heard, l: Buffer.from(told.buffer).toString('base64') });
    return decisions;
  }

  /** The site's name in a page title (SiteTerms), read before the page's relevance, which discounts it. */
  #observeTitle(host: string, title: string): void {
    if (this.options.siteTerm < 1 && this.#siteTerms.observe(host, title)) this.#dropHostTopic(host);
  }

  /**
   * What a page's outcome teaches, from this worker or another: the link features that led to it
   * (OutcomeStats) and its family (SiblingFamilies). The stall count (StallHubs) is updated by
   * the caller, with the page's hubs when its links were scored here.
   */
  #learnFrom(p: HeardPage): void {
    if (p.f) this.#stats.learn(p.f, p.r);
    if (this.options.siblings > 1) this.#siblings.fetched(p.u, p.p, p.o);
  }

  evidence(): unknown[] {
    return this.#said.drain();
  }

  hear(records: readonly unknown[]): void {
    for (const x of records) {
      if (!isHeardPage(x) || (x.f && x.f.some((v) => v >= this.#stats.slots))) continue;
      this.#observeTitle(x.h, x.t);
      this.#learnFrom(x);
      this.#freq.page(x.h);
      const b = Buffer.from(x.l ?? '', 'base64');
      for (let i = 0; i + 8 <= b.byteLength; i += 8) this.#freq.linkHash(x.h, b.readDoubleLE(i));
      // No hubs of its own (its links were scored elsewhere): it counts towards the host's stall.
      this.#hubs.fetched(x.h, x.u, x.k, x.d, x.q, x.r === 1, []);
    }
  }

  /**
   * Links offered again at a higher priority: waiting links whose family's fetched children
   * turned out on topic (SiblingFamilies), and a stalled host's menu targets (StallHubs).
   */
  reoffers(): Reoffer[] {
    const hubs = this.#hubs.reoffers();
    const siblings = this.#siblings.reoffers();
    return hubs.length ? siblings.concat(hubs) : siblings;
  }

  /**
   * The URLs of a sitemap (the crawl offers them with relevance 0 and no carried state): the
   * sitemap is not a page, so it teaches nothing and counts for no host's navigation; each URL
   * has only its own evidence, its URL's words as context (parent 0, so links found on topical
   * pages rank above bare sitemap URLs), and what the crawl learned of links like it. Among
   * equals, a later <lastmod> goes first: up to 1% more for the newest of the file, falling
   * linearly to nothing for those a year older (or without one).
   */
  #sitemapLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    const times = links.map((l) => (l.sitemap?.lastmod ? Date.parse(l.sitemap.lastmod) : NaN));
    // A loop, not a spread: a sitemap of 200,000 URLs overflows the stack as arguments.
    let newest = -Infinity;
    for (const t of times) if (t > newest) newest = t;
    const year = 365 * 24 * 3600_000;
    return links.map((l, i) => {
      const e = this.#explain(view, l, 0, 0);
      const t = times[i]!;
      const fresh = Number.isFinite(t) ? Math.max(0, 1 - (newest - t) / year) : 0;
      return { priority: e.priority * (1 + 0.01 * fresh), data: { i: e.inherited, f: e.features } };
    });
  }

  /**
   * A person's label outweighs the crawl's own reading of a page: each counts as LABEL_WEIGHT
   * outcomes of the features of the link that led to the page (links scored by another strategy,
   * and seeds, carry none and are skipped). Returns the labels used.
   */
  learnFromLabels(labels: readonly { relevant: boolean; linkData: Record<string, unknown> | null }[]): number {
    let used = 0;
    for (const l of labels) {
      const f = l.linkData?.f;
      if (!Array.isArray(f) || !f.every((x) => Number.isInteger(x))) continue;
      for (let i = 0; i < LABEL_WEIGHT; i++) this.#stats.learn(f as number[], l.relevant ? 1 : 0);
      used++;
    }
    return used;
  }

  /** The parts of a link's priority, as scoreLinks computes them (without learning from the page). */
  explain(view: PageView, link: Link): AdaptiveExplanation {
    const { features: _f, ...e } = this.#explain(view, link, this.#freq.ratio(view.request.host, link.url), this.#relevance(view));
    return { ...e, siblings: this.#siblings.liftOf(view.request.key) };
  }

  #explain(view: PageView, l: Link, navigation: number, relevance: number): Omit<AdaptiveExplanation, 'siblings'> & { features: number[] } {
    const o = this.options;
    const t = this.topic.threshold > 0 ? this.topic.threshold : 0.2;
    const parent = Math.min(1, relevance / (o.parentScale * t));
    const inheritedP = typeof view.request.data?.i === 'number' ? view.request.data.i : 0;
    const inherited = Math.max(parent, o.decay * inheritedP);
    const fromParent = inherited * (1 - o.nav * navigation);
    const topic = this.#hostTopic(view.request.host);
    const anchor = this.#anchor(topic, l.anchor, t);
    const context = anchor > 0 || o.context === 0 ? 0 : Math.min(1, this.#cosine(topic, l.context ?? '') / (2 * t));
    const own = anchor > 0 ? anchor : o.context * context;
    const base = (fromParent + o.anchor * own) / (1 + o.anchor);
    const features = this.#features(l, view.request.host, navigation, parent);
    const { p: learned, evidence } = this.#stats.estimate(features);
    const ratio = Math.min(4, Math.max(0.25, learned / this.#stats.baseRate));
    const lift = ratio ** (o.learn * (evidence / (evidence + 3)));
    return { priority: base * lift, relevance, parent, inherited, navigation, anchor, context, learned, evidence, lift, features };
  }

  #anchor(topic: HostTopic, text: string, t: number): number {
    let a = topic.anchors.get(text);
    if (a === undefined) {
      a = Math.min(1, this.#cosine(topic, text) / (2 * t));
      if (this.#cachedAnchors >= MAX_CACHED_ANCHORS) {
        for (const h of this.#hostTopics.values()) h.anchors.clear();
        this.#cachedAnchors = 0;
      }
      topic.anchors.set(text, a);
      this.#cachedAnchors++;
    }
    return a;
  }

  /** Anchors and contexts are short: a plural against the topic's singular would miss the only word they share. */
  #cosine(topic: HostTopic, text: string): number {
    if (!text) return 0;
    const counts = new Map<string, number>();
    for (const [t, n] of termCounts(text, this.topic.tokenizeOptions)) {
      const k = this.#fold(t);
      counts.set(k, (counts.get(k) ?? 0) + n);
    }
    const cos = explainedCosine(counts, topic.vector, 0).score;
    const extra = topic.lifts?.extraIn(text) ?? 0;
    if (extra === 0 || topic.norm === 0) return cos;
    let sq = 0;
    for (const x of counts.values()) sq += x * x;
    return Math.min(cos + extra / (Math.sqrt(sq) * Math.hypot(...topic.vector.values())), explainedCosine(counts, topic.fullVector!, 0).score);
  }

  #fold(term: string): string {
    return this.topic.tokenizeOptions.stem ? term : foldPlural(term);
  }

  #features(l: Link, host: string, navigation: number, parent: number): number[] {
    const s = this.#stats;
    const out = new Set<number>();
    forEachTermHash(l.anchor, (h) => out.add(s.slot(F.anchorWord, h)));
    let path = '';
    try {
      path = new URL(l.url).pathname;
    } catch {
      /* no path features */
    }
    const dirs = path.split('/').slice(1, -1);
    for (let i = 0; i < Math.min(2, dirs.length); i++) out.add(s.slot(F.directory, hashTerm(`${i}:${dirs[i]}`)));
    out.add(s.slot(F.host, hashTerm(host)));
    out.add(s.slot(F.navBucket, Math.min(3, Math.floor(navigation * 4))));
    out.add(s.slot(F.parentBucket, Math.min(3, Math.floor(parent * 4))));
    return [...out];
  }

  /** What the strategy learned, as plain JSON (stored with the crawl; see restore). */
  snapshot(): unknown {
    return { freq: this.#freq.snapshot(), stats: this.#stats.snapshot(), sites: this.#siteTerms.snapshot(), siblings: this.#siblings.snapshot(), hubs: this.#hubs.snapshot() };
  }

  restore(state: unknown): void {
    const s = state as {
      freq?: Parameters<LinkFrequency['restore']>[0];
      stats?: Parameters<OutcomeStats['restore']>[0];
      sites?: Parameters<SiteTerms['restore']>[0];
      siblings?: Parameters<SiblingFamilies['restore']>[0];
      hubs?: Parameters<StallHubs['restore']>[0];
    } | null;
    if (s?.siblings) this.#siblings.restore(s.siblings);
    if (s?.hubs) this.#hubs.restore(s.hubs);
    if (s?.freq) this.#freq.restore(s.freq);
    if (s?.stats) this.#stats.restore(s.stats);
    if (s?.sites) {
      this.#siteTerms.restore(s.sites);
      this.#clearHostTopics();
    }
  }
}
