import { startCrawl } from '../crawl.js';
import { FocusCrawlError } from '../errors.js';
import type { Fetcher } from '../fetch/fetcher.js';
import { normalizeUrl } from '../parse/normalize-url.js';
import { BootstrapGroupStrategy } from '../strategies/bootstrap-group.js';
import { KnnClassifier, KnnFocusedStrategy } from '../strategies/knn-focused.js';
import type { LinkDecision, PageView, Strategy } from '../strategies/strategy.js';
import type { CrawlRequest, Link } from '../types.js';
import type { GroupExample, GroupSite } from './group-inputs.js';
import { nearestSampleScore, rankableDocs, type RankedDoc } from './group-ranking.js';
import { SampleLibrary } from './sample-library.js';
import { ExampleSeekingStrategy } from './example-seeking.js';

export interface GroupCrawlOptions {
  sites: GroupSite[];
  examples: GroupExample[];
  /** 'bfc': method D, the bootstrapping crawler; 'fc': the source's baseline, a kNN focused crawler. */
  method: 'bfc' | 'fc';
  /** Pages fetched per site over the whole run, path extraction included. Default 100. */
  budgetPerSite: number;
  /** Rounds at most (bfc); fc always runs one. Default 3. */
  iterations: number;
  /** Pages the path extraction may fetch on an example's site to reach the example. Default 500. */
  pathSearchPages: number;
  /** The selection step: a page is returned as a target when its score reaches this. */
  threshold: number;
  /** Pages added to the sample library after a round: the best new page of a site, at most this many sites. Default 20. */
  addPerRound: number;
  db: string;
  concurrency: number;
  perHost: number;
  delayMs: number;
  robots: boolean;
  userAgent?: string;
  fetcher?: Fetcher;
  /** Progress lines (rounds, library additions). */
  log?: (line: string) => void;
}

export const GROUP_DEFAULTS = { budgetPerSite: 100, iterations: 3, pathSearchPages: 500, addPerRound: 20, threshold: { bfc: 0.5, fc: 0.2 } } as const;

export interface RankedPage {
  site: string;
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

/**
 * Method D on the crawl engine. One crawl database holds the whole run; every fetch goes through
 * the same frontier, politeness, robots.txt and storage as `crawl`.
 *
 * 1. Path extraction: the example sites are searched from their roots (ExampleSeekingStrategy)
 *    until every example page is fetched, at most pathSearchPages pages a site; an example's
 *    anchor path is its chain of anchors in the discovery tree. Examples and paths form the
 *    sample library. These pages count against their sites' budgets too.
 * 2. Rounds: all sites are crawled with the path discriminator as priority, each site's budget
 *    raised to round/iterations of the whole. After a round, every fetched page is ranked by
 *    similarity to the library; the best new page of each site that reaches the threshold joins
 *    the library (at most addPerRound), waiting URLs are re-scored with the new paths, and the
 *    next round continues the same crawl. It stops when a round adds nothing or at the cap.
 * 3. Selection: a page is a target when its final score reaches the threshold.
 *
 * fc: path extraction the same way (for the example pages), then one round with the full budget
 * ordered by a kNN classifier over the examples, and targets by the same classifier.
 */
export async function runGroupCrawl(o: GroupCrawlOptions): Promise<GroupReport> {
  const log = o.log ?? (() => {});
  const library = new SampleLibrary();
  const bfc = new BootstrapGroupStrategy(library);
  const strategy = new PhaseStrategy(new ExampleSeekingStrategy(o.examples.map((e) => e.url)));
  const pending = new Set(o.examples.map((e) => e.url));
  const exampleRoots = [...new Set(o.examples.map((e) => e.site.root))];
  let phase = 0;
  const crawl = await startCrawl(
    {
      seeds: exampleRoots, hosts: o.sites.map((s) => s.host), scope: 'host', db: o.db, maxPages: 1_000_000_000, maxDepth: 20,
      concurrency: o.concurrency, perHost: o.perHost, delayMs: o.delayMs, robots: o.robots, ...(o.userAgent ? { userAgent: o.userAgent } : {}),
    },
    {
      strategy,
      command: 'group',
      fetcher: o.fetcher,
      onFetched: (req: CrawlRequest) => {
        if (pending.delete(req.url) && pending.size === 0 && phase === 0) crawl.crawler.stop({ finishInFlight: true });
      },
    },
  );
  const rounds: GroupReport['rounds'] = [];
  try {
    const db = crawl.db;
    // `focuscrawl resume` cannot rebuild this crawl's strategy (it needs the examples and the
    // library): it refuses a database marked so, instead of crawling every site breadth-first.
    db.setMetaNow('driver', 'group');
    // Running again on the same database: examples fetched before need no search.
    const fetchedBefore = db.db.prepare('SELECT 1 FROM urls WHERE url = ? AND state = 2');
    for (const url of [...pending]) if (fetchedBefore.get(url)) pending.delete(url);
    crawl.frontier.setHostBudget(o.pathSearchPages);
    const searched = pending.size ? (await crawl.run()).stats.fetched : 0;
    await db.settle();
    let ranked = rankableDocs(db.db);
    const byUrl = new Map(ranked.docs.map((d) => [d.url, d]));
    const missing = o.examples.filter((e) => !byUrl.has(normalizeUrl(e.url) ?? e.url));
    for (const e of missing) log(`${e.where}: example ${e.url} was not reached from ${e.site.root} within ${o.pathSearchPages} pages; left out`);
    const found = o.examples.filter((e) => !missing.includes(e)).map((e) => byUrl.get(normalizeUrl(e.url) ?? e.url)!);
    if (!found.length) throw new FocusCrawlError('USAGE', `no example page was reached from its site root within ${o.pathSearchPages} pages: check the examples or raise --path-search`);
    for (const d of found) library.add({ site: d.host, url: d.url, path: d.path, terms: d.terms });
    log(`path extraction (${searched} pages): ${found.map((d) => d.path.join(' > ') || '(root)').join(' | ')}`);
    strategy.inner = bfc;

    phase = 1;
    await crawl.crawler.addSeeds(o.sites.map((s) => s.root));
    const iterations = o.method === 'fc' ? 1 : o.iterations;
    if (o.method === 'fc') strategy.inner = new KnnFocusedStrategy(new KnnClassifier(ranked.space, found.map((d) => d.terms)));
    for (let round = 1; round <= iterations; round++) {
      crawl.frontier.setHostBudget(Math.ceil((round * o.budgetPerSite) / iterations));
      if (o.method === 'bfc') crawl.frontier.rescore((r) => bfc.rescore(r));
      const before = crawl.frontier.counts();
      await crawl.run();
      await db.settle();
      const after = crawl.frontier.counts();
      ranked = rankableDocs(db.db);
      const added: string[] = [];
      if (o.method === 'bfc' && round < iterations) {
        const samples = sampleVectors(library, ranked);
        const best = new Map<string, { d: RankedDoc; score: number }>();
        for (const d of ranked.docs) {
          if (library.has(d.url)) continue;
          const score = nearestSampleScore(d, samples);
          if (score >= o.threshold && score > (best.get(d.host)?.score ?? 0)) best.set(d.host, { d, score });
        }
        for (const { d } of [...best.values()].sort((a, b) => b.score - a.score).slice(0, o.addPerRound)) {
          library.add({ site: d.host, url: d.url, path: d.path, terms: d.terms });
          added.push(d.url);
        }
      }
      const fetched = after.done + after.error - before.done - before.error;
      rounds.push({ round, fetched, added });
      log(`round ${round}: ${fetched} pages fetched, ${added.length} pages added to the sample library (${library.samples.length} samples)`);
      if (o.method === 'bfc' && round < iterations && added.length === 0) break;
    }
    const samples = library.samples.map(({ site, url, path }) => ({ site, url, path }));
    return { pages: select(o, ranked, library, found), searched, rounds, missing, library: samples };
  } finally {
    await crawl.close();
  }
}

/** The samples as the current ranking sees them: boilerplate and IDF change as the crawl grows. */
function sampleVectors(library: SampleLibrary, ranked: ReturnType<typeof rankableDocs>): RankedDoc['vector'][] {
  const byUrl = new Map(ranked.docs.map((d) => [d.url, d]));
  return library.samples.map((s) => byUrl.get(s.url)?.vector ?? ranked.space.vector(s.terms));
}

/** The final ranking per site and the selection step (threshold). */
function select(o: GroupCrawlOptions, ranked: ReturnType<typeof rankableDocs>, library: SampleLibrary, examples: RankedDoc[]): RankedPage[] {
  const score: (d: RankedDoc) => number =
    o.method === 'fc'
      ? (() => {
          const byUrl = new Map(ranked.docs.map((d) => [d.url, d]));
          const knn = new KnnClassifier(ranked.space, examples.map((e) => (byUrl.get(e.url) ?? e).terms));
          return (d: RankedDoc) => knn.score(d.terms);
        })()
      : (() => {
          const samples = sampleVectors(library, ranked);
          return (d: RankedDoc) => nearestSampleScore(d, samples);
        })();
  const bySite = new Map(o.sites.map((s) => [s.host, [] as RankedPage[]]));
  const names = new Map(o.sites.map((s) => [s.host, s.name]));
  for (const d of ranked.docs) {
    const s = score(d);
    bySite.get(d.host)?.push({ site: names.get(d.host)!, url: d.url, path: d.path, score: s, target: s >= o.threshold });
  }
  return [...bySite.values()].flatMap((list) => list.sort((a, b) => b.score - a.score || a.url.localeCompare(b.url)));
}
