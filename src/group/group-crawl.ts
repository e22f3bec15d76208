import { hostOf } from '../parse/normalize-url.js';
import { siteOfHost } from './site-of-host.js';
import { count } from '../text/count.js';
import { fetchedNote } from './round-line.js';
import { startCrawl } from '../crawl.js';
import type { Fetcher } from '../fetch/fetcher.js';
import { BootstrapGroupStrategy } from '../strategies/bootstrap-group.js';
import { FC_DEFAULTS, KnnClassifier, KnnFocusedStrategy } from '../strategies/knn-focused.js';
import type { LinkDecision, PageView, Strategy } from '../strategies/strategy.js';
import type { Link } from '../types.js';
import type { GroupExample, GroupSite } from './group-inputs.js';
import { nearestSampleScore, rankableDocs, type RankedDoc, type SampleView } from './group-ranking.js';
import { MIN_SHAPE_NUMBERS, numberShapes, shapeSimilarity } from './page-vectors.js';
import { SampleLibrary } from './sample-library.js';
import { ExampleSeekingStrategy } from './example-seeking.js';
import { DEFAULT_SELECTION, quantile, selectionCuts, selectTargets, type SelectionRule } from './target-selection.js';
import { sectionIndexes, withSectionParts } from './section-parts.js';
import { cosineOf, TfIdfSpace } from '../relevance/tfidf-space.js';
import { deadEnds } from './dead-ends.js';
import { SqliteCrawlGraphReader } from '../store/sqlite-crawl-graph-reader.js';
import type { CrawlGraphReader } from '../store/crawl-graph-reader.js';
import { exampleFates, foundExamples, missingExamples } from './example-pages.js';
import { TopicBridge } from './topic-bridge.js';
import { markGroupRun, refuseOtherMethod } from './group-run-mark.js';
import { stoppable } from './group-stop.js';
export { GroupStopped } from './group-stop.js';

export type GroupMethod = 'bfc' | 'fc';

/** The ranking of a round: every stored page as vectors (group-ranking.ts). */
type Ranked = Awaited<ReturnType<typeof rankableDocs>>;

export interface GroupCrawlOptions {
  sites: GroupSite[];
  examples: GroupExample[];
  /** 'bfc': method D, the bootstrapping crawler; 'fc': the source's baseline, a kNN focused crawler. */
  method: GroupMethod;
  /** Pages fetched per site over the whole run, path extraction included. Default 100. */
  budgetPerSite: number;
  /** Rounds at most (bfc); fc always runs one. Default 3. */
  iterations: number;
  /** Pages the path extraction may fetch on an example's site to reach the example. Default 500. */
  pathSearchPages: number;
  /** bfc's selection step, relative to the scores (target-selection.ts). */
  selection: SelectionRule;
  /** An absolute score from which a page is a target, in place of `selection` (bfc; the old rule). */
  threshold?: number;
  /** fc: a page is relevant when its kNN score reaches this multiple of the examples' coherence. */
  fcRelevance: number;
  /** bfc: how much a dead end's similarity lowers a link's path score (0: learn from positives only). */
  deadEndWeight: number;
  /** bfc: how much a number-shape match counts in the ranking (group-ranking.ts; 0: words only). */
  shapeWeight: number;
  /** bfc: how much the likeness of names (title, in-link anchors) counts against the words' (group-ranking.ts). */
  nameWeight: number;
  /**
   * bfc: the user's topic keywords (a topic file's), a bridge across languages beside the samples
   * (topic-bridge.ts); absent, the crawl uses the samples alone.
   */
  topicKeywords?: Readonly<Record<string, number>> | null;
  /** bfc: the most a link or page scores from the topic keywords alone (topic-bridge.ts). */
  topicWeight: number;
  /** Pages added to the sample library after a round: the best new page of a site, at most this many sites. Default 20. */
  addPerRound: number;
  db: string;
  concurrency: number;
  perHost: number;
  delayMs: number;
  robots: boolean;
  /** Read the sites' sitemaps (robots.txt Sitemap lines, else a guessed /sitemap.xml). Default true. */
  sitemaps?: boolean;
  userAgent?: string;
  fetcher?: Fetcher;
  /** Progress lines (rounds, library additions). */
  log?: (line: string) => void;
  /**
   * Stops the run (Ctrl-C): the requests in flight are given back, their URLs wait again, and
   * runGroupCrawl rejects with GroupStopped; running again on the same database continues.
   */
  signal?: AbortSignal;
}

export const GROUP_DEFAULTS = {
  budgetPerSite: 100, iterations: 3, pathSearchPages: 500, addPerRound: 20,
  selection: DEFAULT_SELECTION, fcRelevance: FC_DEFAULTS.relevance, deadEndWeight: 0.5, shapeWeight: 0, nameWeight: 0.25, topicWeight: 0.5,
} as const;

export interface RankedPage {
  /** The site's name (the sites file's, or its host). */
  site: string;
  /** The site's root: names may repeat, roots do not. */
  root: string;
  url: string;
  path: string[];
  score: number;
  target: boolean;
}

export interface GroupReport {
  /** Every fetched page, per site in the sites file's order, best score first. */
  pages: RankedPage[];
  /** Pages fetched by path extraction. */
  searched: number;
  rounds: { round: number; fetched: number; added: string[] }[];
  /** Examples not reached from their root within the budget (left out of the library). */
  missing: GroupExample[];
  /** The sample library at the end: examples first, then pages added by the rounds. */
  library: { site: string; url: string; path: string[] }[];
  /** How alike the library's samples are: the median of each sample's best cosine to a sample of another site (bfc). */
  coherence?: number;
  /** Pages returned as parts of a sample's section, not on their scores (bfc; section-parts.ts). */
  parts?: string[];
}

/** Lets the group crawler change ordering between phases on one crawl. */
class PhaseStrategy implements Strategy {
  readonly name = 'group';
  readonly topic = null;
  inner: Strategy;
  constructor(inner: Strategy) {
    this.inner = inner;
  }
  seed(url: string): LinkDecision {
    return this.inner.seed(url);
  }
  scoreLinks(view: PageView, links: readonly Link[]): (LinkDecision | null)[] {
    return this.inner.scoreLinks(view, links);
  }
}

/** FC's first step: the example pages, relevant by definition, whose links are followed. */
const EXAMPLES_FIRST: Strategy = { name: 'examples-first', topic: null, seed: () => ({ priority: 2 }), scoreLinks: (_v, links) => links.map(() => ({ priority: 1 })) };

/**
 * Method D on the crawl engine. One crawl database holds the whole run; every fetch goes through
 * the same frontier, politeness, robots.txt and storage as `crawl`.
 *
 * bfc:
 * 1. Path extraction: the example sites are searched from their roots (ExampleSeekingStrategy)
 *    until every example page is fetched, at most pathSearchPages pages a site; an example's
 *    anchor path is its chain of anchors in the discovery tree. Examples and paths form the
 *    sample library. These pages count against their sites' budgets too.
 * 2. Rounds: all sites are crawled with the path discriminator as priority, each site's budget
 *    raised to round/iterations of the whole. After a round, every fetched page is ranked by
 *    similarity to the library; the best new page of each site that the selection step selects
 *    joins the library (at most addPerRound), the paths that led nowhere are recorded as dead
 *    ends, waiting URLs are re-scored with both, and the next round continues the same crawl.
 *    It stops when a round adds nothing or at the cap.
 * 3. Selection (target-selection.ts): pages that stand out from the group's and their site's
 *    scores, with the parts of samples that are section indexes (section-parts.ts); or with
 *    `threshold`, pages whose score reaches it.
 *
 * fc: the example pages are fetched first (seeds, their links followed), then every site from
 * its root with KnnFocusedStrategy and the full budget in one round; the targets are the pages
 * its classifier judged relevant.
 */
export async function runGroupCrawl(o: GroupCrawlOptions): Promise<GroupReport> {
  return o.method === 'fc' ? runFc(o) : runBfc(o);
}

function crawlConfig(o: GroupCrawlOptions, seeds: string[]) {
  return {
    seeds, hosts: o.sites.map((s) => s.host), scope: 'host' as const, db: o.db, maxPages: 1_000_000_000, maxDepth: 20,
    concurrency: o.concurrency, perHost: o.perHost, delayMs: o.delayMs, robots: o.robots, ...(o.sitemaps === false ? { sitemaps: false } : {}), ...(o.userAgent !== undefined ? { userAgent: o.userAgent } : {}),
  };
}

async function runBfc(o: GroupCrawlOptions): Promise<GroupReport> {
  const log = o.log ?? (() => {});
  const siteOf = siteOfHost(o.sites);
  const library = new SampleLibrary();
  library.deadEndWeight = o.deadEndWeight;
  const bridge = o.topicKeywords ? new TopicBridge(o.topicKeywords, o.topicWeight) : null;
  const bfc = new BootstrapGroupStrategy(library, bridge);
  const strategy = new PhaseStrategy(new ExampleSeekingStrategy(o.examples.map((e) => e.url)));
  const pending = new Set(o.examples.map((e) => e.url));
  const exampleRoots = [...new Set(o.examples.map((e) => e.site.root))];
  let phase = 0;
  await refuseOtherMethod(o, 'bfc');
  const crawl = await startCrawl(crawlConfig(o, exampleRoots), {
    strategy,
    command: 'group',
    fetcher: o.fetcher,
  });
  crawl.crawler.events.on('fetched', (e) => {
    if (pending.delete(e.url) && pending.size === 0 && phase === 0) crawl.crawler.stop({ finishInFlight: true });
  });
  const rounds: GroupReport['rounds'] = [];
  const runs = stoppable(crawl, o.signal);
  try {
    const db = crawl.db;
    // `focuscrawl resume` cannot rebuild this crawl's strategy (it needs the examples and the
    // library): it refuses a database marked so, instead of crawling every site breadth-first.
    markGroupRun(db, o, log);
    sayStartPageExamples(o, log);
    db.setMetaNow('driver', 'group');
    // Its stored config names no strategy (the group crawler brings its own): readers say which from this.
    db.setMetaNow('groupMethod', 'bfc');
    const graph = new SqliteCrawlGraphReader(db.db);
    const tree = await graph.discoveryTree();
    // Running again with fewer sites: what waits on a dropped site is not this run's to fetch.
    const siteHosts = new Set(o.sites.map((s) => s.host));
    const dropped = new Set(tree.filter((u) => u.state === 'waiting' && !siteHosts.has(siteOf(hostOf(u.url)))).map((u) => hostOf(u.url)));
    const ended = await crawl.crawler.discardHosts(dropped, 'its site is not in this run\'s --sites');
    if (ended) log(`${count(ended, 'URL')} waiting on ${count(dropped.size, 'site')} no longer in --sites ended as discarded`);
    // Running again on the same database: examples fetched before need no search.
    const fetchedBefore = new Set(tree.filter((u) => u.state === 'done').map((u) => u.url));
    for (const url of [...pending]) if (fetchedBefore.has(url)) pending.delete(url);
    await crawl.frontier.setHostBudget(o.pathSearchPages);
    const pathRun = pending.size ? (await runs.run('path extraction')).stats : null;
    const searched = pathRun?.fetched ?? 0;
    await db.settle();
    let ranked = await rankableDocs(graph, siteOf);
    const found = foundExamples(o, ranked, log, await exampleFates(crawl.store, o, ranked));
    for (const d of found) library.add({ site: d.host, url: d.url, path: d.path, terms: d.terms, example: true });
    log(`path extraction (${searched} pages): ${found.map((d) => d.path.join(' > ') || '(root)').join(' | ')}`);
    strategy.inner = bfc;

    phase = 1;
    await crawl.crawler.addSeeds(o.sites.map((s) => s.root));
    // crawl.run()'s figures add up over the runs of this process: a round's line shows its own.
    let sofar = { fetched: pathRun?.fetched ?? 0, errors: pathRun?.errors ?? 0, notFetched: pathRun?.notFetched ?? 0 };
    for (let round = 1; round <= o.iterations; round++) {
      await crawl.frontier.setHostBudget(Math.ceil((round * o.budgetPerSite) / o.iterations));
      await crawl.frontier.rescore((r) => bfc.rescore(r));
      const before = crawl.frontier.countsNow();
      const { stats: total } = await runs.run(`round ${round}`);
      const stats = { ...total, fetched: total.fetched - sofar.fetched, errors: total.errors - sofar.errors, notFetched: total.notFetched - sofar.notFetched };
      sofar = { fetched: total.fetched, errors: total.errors, notFetched: total.notFetched };
      await db.settle();
      const after = crawl.frontier.countsNow();
      ranked = await rankableDocs(graph, siteOf);
      const added: string[] = [];
      let dead = 0;
      if (round < o.iterations) {
        // Without the site's-clear-best rule: a site's best page is often no target where its
        // site has none, and as a sample it would pull the library towards whatever it is
        // about (bench/group-real's licence pages: recall 0.99 -> 0.92 with it in the rounds).
        const scored = scoreBfc({ ...o, selection: { ...o.selection, siteBest: undefined } }, ranked, library, bridge);
        // The best new page of each site that the selection step selects; when it selects none
        // (a focused round can fetch so many targets that they set the group's noise level),
        // the source's own reading: the most similar new pages, the best of each site that stands
        // out on its site.
        // A site's start page never joins, in the fallback either (the selection never picks
        // one): it links and summarises the whole site, so as a sample it would make every other
        // site's start page, changelog and overview look like the kind (bench/group-real's FAQ
        // set 2 drifted so in its second round).
        const pick = (ok: (x: (typeof scored)[number]) => boolean) => {
          const best = new Map<string, { d: RankedDoc; score: number }>();
          for (const x of scored) if (!x.sample && !x.entry && ok(x) && x.score > (best.get(x.d.host)?.score ?? 0)) best.set(x.d.host, { d: x.d, score: x.score });
          return best;
        };
        let best = pick((x) => x.target);
        if (!best.size && o.threshold === undefined) {
          // Still over the floor (a share of the library's coherence): once every site's target is
          // a sample, the best of what is left (a help index at 0.11 beside pages at 0.005)
          // stood out on its site and joined, and the pages it links followed it.
          const { sites } = selectionCuts(scored, { ...o.selection, overGroup: 0 }, libraryCoherence(library, ranked));
          best = pick((x) => x.score > 0 && x.score >= (sites.get(x.site) ?? Infinity));
        }
        for (const { d } of [...best.values()].sort((a, b) => b.score - a.score).slice(0, o.addPerRound)) {
          library.add({ site: d.host, url: d.url, path: d.path, terms: d.terms });
          added.push(d.url);
        }
        if (o.deadEndWeight > 0) dead = await learnDeadEnds(graph, library, ranked, new Set(scored.filter((x) => x.target).map((x) => x.d.url)));
      }
      const fetched = after.done + after.error - before.done - before.error;
      rounds.push({ round, fetched, added });
      log(`round ${round}: ${fetchedNote(stats)}, ${count(added.length, 'page')} added to the sample library (${count(library.samples.length, 'sample')}), ${count(dead, 'dead end')} learned (${library.deadEnds} in all)`);
      // The source stops when a round finds no new page. A round that added no sample but
      // fetched pages (it ended on its share of the host budget) goes on: the next round's
      // share reaches pages this one could not.
      if (round < o.iterations && added.length === 0 && fetched === 0) break;
    }
    const samples = library.samples.map(({ site, url, path }) => ({ site, url, path }));
    const scored = scoreBfc(o, ranked, library, bridge);
    const exampleNames = sampleVectors(library, ranked).filter((_s, i) => library.samples[i]!.example === true).map((s) => s.nameVector);
    const examples = new Set(library.samples.filter((s) => s.example === true).map((s) => s.url));
    const parts = await partsOfSections(o, graph, scored, exampleNames, examples);
    const pages = scored.map((x) => ({ d: x.d, score: x.score, target: x.target || parts.has(x.d.url) }));
    return { pages: perSite(o, pages), searched, rounds, missing: missingExamples(o, ranked), library: samples, coherence: libraryCoherence(library, ranked), parts: [...parts] };
  } finally {
    runs.release();
    await crawl.close();
  }
}

/**
 * The path discriminator's learning from failure: the paths of pages that led nowhere (dead-ends.ts),
 * those the discriminator rated highest first (the most misleading), at most 100 a round.
 */
async function learnDeadEnds(graph: CrawlGraphReader, library: SampleLibrary, ranked: Ranked, good: Set<string>): Promise<number> {
  const paths = new Map(ranked.docs.map((d) => [d.url, d.path]));
  const candidates = deadEnds(await graph.discoveryTree(), (url) => good.has(url) || library.has(url))
    .map((url) => paths.get(url))
    .filter((p): p is string[] => p !== undefined && p.length > 0)
    .map((p) => ({ p, score: library.pathScore(p) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 100);
  let n = 0;
  for (const { p } of candidates) if (library.addDeadEnd(p)) n++;
  return n;
}

async function runFc(o: GroupCrawlOptions): Promise<GroupReport> {
  const log = o.log ?? (() => {});
  const siteOf = siteOfHost(o.sites);
  const strategy = new PhaseStrategy(EXAMPLES_FIRST);
  await refuseOtherMethod(o, 'fc');
  const crawl = await startCrawl(crawlConfig(o, o.examples.map((e) => e.url)), { strategy, command: 'group', fetcher: o.fetcher });
  const runs = stoppable(crawl, o.signal);
  try {
    const db = crawl.db;
    markGroupRun(db, o, log);
    sayStartPageExamples(o, log);
    db.setMetaNow('driver', 'group');
    db.setMetaNow('groupMethod', 'fc');
    // The examples alone: a budget of as many pages a site as it has examples.
    const perHost = new Map<string, number>();
    for (const e of o.examples) perHost.set(e.site.host, (perHost.get(e.site.host) ?? 0) + 1);
    await crawl.frontier.setHostBudget(Math.max(...perHost.values()));
    const searched = (await runs.run('the examples\' fetch')).stats.fetched;
    await db.settle();
    const graph = new SqliteCrawlGraphReader(db.db);
    let ranked = await rankableDocs(graph, siteOf);
    const found = foundExamples(o, ranked, log, await exampleFates(crawl.store, o, ranked));
    const space = new TfIdfSpace();
    for (const d of ranked.docs) space.observe(d.terms);
    const classifier = new KnnClassifier(space, found.map((d) => d.terms));
    const fc = new KnnFocusedStrategy(classifier, found.map((d) => d.url), o.fcRelevance);
    for (const d of found) fc.judged.set(d.url, { score: 1, relevant: true });
    strategy.inner = fc;
    log(`examples fetched (${searched} pages); relevant from kNN score ${fc.cut.toFixed(3)} (${o.fcRelevance} x the examples' coherence ${classifier.coherence().toFixed(3)})`);
    await crawl.crawler.addSeeds(o.sites.map((s) => s.root));
    await crawl.frontier.setHostBudget(o.budgetPerSite);
    const before = crawl.frontier.countsNow();
    const { stats } = await runs.run('round 1');
    await db.settle();
    const after = crawl.frontier.countsNow();
    const fetched = after.done + after.error - before.done - before.error;
    log(`round 1: ${fetchedNote(stats)}, ${[...fc.judged.values()].filter((j) => j.relevant).length} judged relevant, ${count(after.discarded - before.discarded, 'link')} discarded`);
    ranked = await rankableDocs(graph, siteOf);
    const pages = ranked.docs.map((d) => {
      const j = fc.judged.get(d.url);
      return { d, score: j?.score ?? 0, target: j?.relevant ?? false };
    });
    const library = found.map((d) => ({ site: d.host, url: d.url, path: d.path }));
    return { pages: perSite(o, pages), searched, rounds: [{ round: 1, fetched, added: [] }], missing: missingExamples(o, ranked), library };
  } finally {
    runs.release();
    await crawl.close();
  }
}


/** The samples as the current ranking sees them: boilerplate and IDF change as the crawl grows. */
function sampleVectors(library: SampleLibrary, ranked: Ranked): SampleView[] {
  const byUrl = new Map(ranked.docs.map((d) => [d.url, d]));
  return library.samples.map((s) => byUrl.get(s.url) ?? { vector: ranked.space.vector(s.terms), nameVector: ranked.names.vector(new Map()), shape: numberShapes(s.terms) });
}

/** The median over samples of the best cosine to a sample of another site (1 with one site's samples only). */
export function libraryCoherence(library: SampleLibrary, ranked: Ranked): number {
  return coherenceOf(library, sampleVectors(library, ranked));
}

/** libraryCoherence over the samples' vectors (sampleVectors), in the library's order. */
function coherenceOf(library: SampleLibrary, vs: SampleView[]): number {
  const best = library.samples.map((s, i) => {
    let b = -1;
    library.samples.forEach((t, j) => {
      if (t.site !== s.site) b = Math.max(b, cosineOf(vs[i]!.vector, vs[j]!.vector));
    });
    return b;
  }).filter((b) => b >= 0);
  return best.length ? quantile(best, 0.5) : 1;
}

/** bfc's ranking (nearest sample) and selection step over every fetched page. */
function scoreBfc(o: GroupCrawlOptions, ranked: Ranked, library: SampleLibrary, bridge: TopicBridge | null): { d: RankedDoc; site: string; score: number; sample: boolean; entry: boolean; target: boolean }[] {
  const samples = sampleVectors(library, ranked);
  const namers = samples.filter((_s, i) => library.samples[i]!.example === true);
  const keywords = bridge?.keywordVector(ranked.space);
  const exampleLevel = keywords ? Math.max(0, ...namers.map((e) => cosineOf(e.vector, keywords))) : 0;
  // Pages of a kind with a table of numbers (score lines by province) are told from the pages
  // that only name the kind (the list of years above them) by their numbers' shape: when the
  // samples have a table, the keywords count as much as the page's numbers look like a sample's.
  const tabled = samples.filter((s) => [...s.shape.values()].reduce((a, b) => a + b, 0) >= MIN_SHAPE_NUMBERS);
  const shapeFactor = (d: RankedDoc) => (tabled.length ? Math.max(...tabled.map((s) => shapeSimilarity(d.shape, s.shape))) : 1);
  // A sample is its own nearest sample (score 1), even when its name is not the examples'.
  const scored = ranked.docs.map((d) => {
    const sample = library.has(d.url);
    const bySamples = sample ? 1 : nearestSampleScore(d, samples, o.shapeWeight, o.nameWeight, namers);
    // The keywords score beside the samples, at most topicWeight: what lets English examples
    // reach a first Chinese target, after which Chinese samples rank its language (topic-bridge.ts).
    return { d, site: d.host, score: keywords ? Math.max(bySamples, bridge!.pageScore(d.vector, keywords, exampleLevel) * shapeFactor(d)) : bySamples, sample, entry: d.path.length === 0 };
  });
  const coherence = coherenceOf(library, samples);
  const targets = o.threshold !== undefined ? scored.map((x) => x.sample || x.score >= o.threshold!) : selectTargets(scored, o.selection, coherence);
  return scored.map((x, i) => ({ ...x, target: targets[i]! }));
}

/**
 * The final selection with the parts of the samples that are section indexes (section-parts.ts).
 * Only here, not in the rounds: a part would otherwise join the library as its site's next
 * sample, and the library would drift from the kind to whatever the parts are about.
 */
async function partsOfSections(o: GroupCrawlOptions, graph: CrawlGraphReader, scored: { d: RankedDoc; score: number; sample: boolean; target: boolean }[], exampleNames: SampleView['nameVector'][], examples: ReadonlySet<string>): Promise<Set<string>> {
  if (o.threshold !== undefined || o.selection.sectionParts === undefined) return new Set();
  const { noise } = selectionCuts(scored.map((x) => ({ site: x.d.host, score: x.score, sample: x.sample })), o.selection);
  const sections = sectionIndexes(await graph.storedTexts());
  const nameLikeness = (d: RankedDoc) => Math.max(0, ...exampleNames.map((n) => cosineOf(d.nameVector, n)));
  const candidates = scored.map((x) => ({
    url: x.d.url,
    score: x.score,
    sample: x.sample,
    target: x.target,
    entry: x.d.path.length === 0,
    nameLikeness: x.sample ? nameLikeness(x.d) : 0,
    example: examples.has(x.d.url),
    nameCoverage: sections.has(x.d.url) ? Math.max(0, ...exampleNames.map((n) => coverageOf(x.d.nameVector, n))) : 0,
  }));
  const picked = withSectionParts(candidates, sections, noise, o.selection.sectionParts);
  return new Set(candidates.filter((x, i) => picked[i] && !x.target).map((x) => x.url));
}

/** The share of `a`'s squared norm on terms `b` has too (how much of name a, name b says). */
function coverageOf(a: SampleView['nameVector'], b: SampleView['nameVector']): number {
  if (!a.norm) return 0;
  let sq = 0;
  for (const [t, w] of a.v) if (b.v.has(t)) sq += w * w;
  return sq / (a.norm * a.norm);
}

/**
 * An example that is its site's start page is taken as given, and said once the run is under way
 * (a refused database says only that): the library learns what a start page is like, menus and
 * news, not the kind of page, and a start page is never a target.
 */
function sayStartPageExamples(o: GroupCrawlOptions, log: (line: string) => void): void {
  for (const e of o.examples) if (e.url === e.site.root) log(`${e.where}: example ${e.url} is its site's start page, which is never a target: give a page of the kind you want`);
}

/** The final ranking per site in the sites file's order, best first. */
function perSite(o: GroupCrawlOptions, pages: { d: RankedDoc; score: number; target: boolean }[]): RankedPage[] {
  const bySite = new Map(o.sites.map((s) => [s.host, [] as RankedPage[]]));
  const sites = new Map(o.sites.map((s) => [s.host, s]));
  for (const { d, score, target } of pages) bySite.get(d.host)?.push({ site: sites.get(d.host)!.name, root: sites.get(d.host)!.root, url: d.url, path: d.path, score, target });
  return [...bySite.values()].flatMap((list) => list.sort((a, b) => b.score - a.score || a.url.localeCompare(b.url)));
}
