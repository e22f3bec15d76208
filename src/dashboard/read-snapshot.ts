import { basename } from 'node:path';
import type { CrawlReader, HostSummary, PageSummary, PathStep } from '../store/crawl-reader.js';
import { clip } from '../text/clip.js';
import { MAX_ANCHOR_CHARS, MAX_TITLE_CHARS } from '../parse/stored-text-limits.js';
import type { SearchHit } from '../store/store.js';
import { count, stopReasonText } from '../cli/progress.js';
import type { ListedPage, RecallSeries, ServiceOnMap, Snapshot } from './snapshot.js';
import type { TruthList } from './truth-file.js';
import { expiredLeasesLine, type SharedLiveness } from '../cli/open-reader.js';

/** The parts of an opened crawl a snapshot needs besides the reader. */
export interface SnapshotSource {
  reader: CrawlReader;
  label: string;
  /** True or false when it can be told whether a crawl process runs now (see OpenReader.runningNow). */
  runningNow(): boolean | null;
  /**
   * A shared crawl's workers and leases from Redis (OpenReader.liveness), null when Redis did not
   * answer: running is then what status calls running, a worker's heartbeat or a live lease, not
   * leases whose worker was killed.
   */
  liveness?(): Promise<SharedLiveness | null>;
  /** Ground truth for a recall curve (serve and report --truth). */
  truth?: TruthList | null;
}

const HARVEST_POINTS = 300;

/** The dashboard's view of a crawl, read through the CrawlReader only. */
export async function readSnapshot(src: SnapshotSource, pagesPerSecond: number | null, pageLimit = 50): Promise<Snapshot> {
  const r = src.reader;
  const config = (await r.config()) ?? {};
  const threshold = config.topic?.threshold ?? null;
  const urls = await r.urlCounts();
  const lastRun = await r.lastRun();
  const unended = await r.unendedRunStart();
  const live = (await src.liveness?.()) ?? null;
  const running = live ? live.workers.length > 0 || live.leases > 0 : src.runningNow();
  const fetching = live ? live.leases : urls.fetching;
  const who = live?.workers.length ? ` by ${count(live.workers.length, 'worker')} (${live.workers.join(', ')})` : '';
  // Left out, the leases of a killed worker would read as a crawl stopped with nothing in flight, or not started.
  const expired = expiredLeasesLine(live);
  // An embedded crawl's leases with no run holding them: a run killed (kill -9) or crashed, as status says.
  const interrupted = !live && running === false && urls.fetching > 0 ? `${count(urls.fetching, 'URL')} leased by an interrupted run (killed or crashed): focuscrawl resume returns them` : null;
  // Killed between two requests: nothing leased, but pages fetched and no end recorded.
  const unrecorded = !live && running === false && !interrupted && (unended !== null || (!lastRun && urls.done + urls.error > 0)) ? `a run${unended ? ` started ${unended}` : ''} ended without recording its end (killed or crashed): focuscrawl resume continues it` : null;
  const state: Snapshot['state'] =
    running === true || (running === null && fetching > 0)
      ? fetching > 0
        ? { name: 'running', detail: `${count(fetching, 'URL')} being fetched${who}` }
        : { name: 'waiting on politeness', detail: `${urls.waiting ? `${urls.waiting} URLs wait for their hosts' delay` : 'nothing claimable now'}${who}` }
      : urls.waiting === 0 && urls.fetching === 0 && urls.done + urls.error > 0
        ? { name: 'exhausted', detail: lastRun ? `nothing left to fetch; last run: ${stopReasonText(lastRun.reason, lastRun.discardedBy)}` : 'nothing left to fetch' }
        : lastRun || expired || interrupted || unrecorded
          ? { name: 'stopped', detail: [unrecorded, interrupted, lastRun ? `${unrecorded || interrupted ? 'the run before: ' : ''}${stopReasonText(lastRun.reason, lastRun.discardedBy)} (${lastRun.endedAt})` : null, expired].filter((x) => x !== null).join('; ') }
          : { name: 'not started', detail: urls.waiting ? `${count(urls.waiting, 'URL')} waiting` : 'no URLs yet' };
  const labels = await r.labels();
  const labelOf = new Map(labels.map((l) => [l.url, l.relevant]));
  const relevantPages = threshold === null ? [] : await listPages(r, await r.relevantPages(threshold, pageLimit), labelOf);
  return {
    at: new Date().toISOString(),
    crawl: { label: src.label, topic: config.topic?.name ?? null, strategy: (await r.strategy())?.name ?? null, threshold, maxPages: config.maxPages ?? null },
    state,
    pagesPerSecond,
    urls,
    waitingByPriority: await r.waitingByPriority(),
    pages: await r.pageCount(),
    relevant: threshold === null ? null : await r.countRelevant(threshold),
    errors: await r.topErrors(10),
    discarded: await r.discardedByKind(),
    sitemaps: await r.sitemapCounts(),
    harvest: threshold === null ? [] : await r.harvestCurve(threshold, HARVEST_POINTS),
    recall: {
      labelled: await recallSeries(r, 'labelled relevant', labels.filter((l) => l.relevant).map((l) => l.url)),
      truth: src.truth ? await recallSeries(r, basename(src.truth.file), src.truth.urls) : null,
    },
    hosts: (await r.hosts(50, threshold)).filter(wasInPlay),
    services: servicesOnMap(await r.services(SERVICES_SHOWN)),
    servicesTotal: Object.values(await r.serviceCounts()).reduce((a, b) => a + (b ?? 0), 0),
    relevantPages,
    labels: { relevant: labels.filter((l) => l.relevant).length, notRelevant: labels.filter((l) => !l.relevant).length },
  };
}

/**
 * Whether a host belongs in the hosts table: something fetched, waiting, or a request recorded
 * (its politeness is written when a request reaches it, so a first fetch in flight counts). A
 * host known only from discarded links (out of scope, too deep) was never contacted and would
 * be a row of zeros. Filtered here, not in the readers' SQL, so SQLite and PostgreSQL agree; the
 * readers list hosts in play before the others and then apply the limit, so the filter never
 * costs one of them its row.
 */
export function wasInPlay(h: HostSummary): boolean {
  return h.fetched > 0 || h.waiting > 0 || h.delayMs !== null || h.nextAllowedAt !== null;
}

async function recallSeries(r: CrawlReader, source: string, urls: string[]): Promise<RecallSeries | null> {
  return urls.length ? { source, total: urls.length, points: await r.recallCurve(urls, HARVEST_POINTS) } : null;
}

async function listPages(r: CrawlReader, pages: PageSummary[], labelOf: Map<string, boolean>): Promise<ListedPage[]> {
  const paths = await r.anchorPaths(pages.map((p) => p.url));
  return pages.map((p) => ({ ...p, title: shown(p.title), path: shownPath(paths[p.url]), label: labelOf.get(p.url) ?? null }));
}

/**
 * Titles and anchors as listed, each bounded: a database from before the parser bounded them
 * (MAX_TITLE_CHARS) can hold megabytes in one, and every page's path repeats its ancestors'.
 */
const shown = <T extends string | null>(s: T): T => (s === null ? s : (clip(s, MAX_TITLE_CHARS) as T));
const shownPath = (path: PathStep[] | undefined): PathStep[] => (path ?? []).map((step) => ({ ...step, anchor: clip(step.anchor, MAX_ANCHOR_CHARS) }));

/** Full-text search results as listed pages (scores and path from the anchor path's last step). */
export async function searchPages(r: CrawlReader, query: string, limit: number): Promise<ListedPage[]> {
  const hits: SearchHit[] = await r.search(query, limit);
  const paths = await r.anchorPaths(hits.map((h) => h.url));
  const labelOf = new Map((await r.labels()).map((l) => [l.url, l.relevant]));
  return hits.map((h) => {
    const path = shownPath(paths[h.url]);
    const self = path[path.length - 1];
    return { url: h.url, title: shown(h.title), snippet: h.snippet, relevance: h.relevance, priority: self?.priority ?? 0, depth: Math.max(0, path.length - 1), path, label: labelOf.get(h.url) ?? null };
  });
}

/**
 * Services in a snapshot, and extents per service: a WMS crawl that found 1,000 services sent all
 * of them every second (1.4 MB), and the page, redrawing 20,000 rectangles, was busy 8 s in 10.
 */
export const SERVICES_SHOWN = 200;
export const MAP_EXTENTS = 20;

function servicesOnMap(entries: Awaited<ReturnType<CrawlReader['services']>>): ServiceOnMap[] {
  return entries.map((s) => {
    const extents = s.layers.map((l) => l.wgs84).filter((b): b is [number, number, number, number] => b !== null && b.every(Number.isFinite));
    return { endpoint: s.endpoint, type: s.type, status: s.status, title: s.title, extents: extents.slice(0, MAP_EXTENTS), extentCount: extents.length };
  });
}
