import { count } from '../text/count.js';
import { displayUrl } from '../parse/display-url.js';
import cliProgress from 'cli-progress';
import type { CrawlSummary, StopReason } from '../engine/crawler.js';
import { discardSummary } from '../engine/discard-reasons.js';
import { pagesPerSecond, type CrawlStats } from '../engine/crawl-stats.js';
import type { FrontierCounts } from '../frontier/frontier.js';

export interface ProgressSource {
  stats: CrawlStats;
  counts(): FrontierCounts;
}

function line(s: CrawlStats, c: FrontierCounts, topic: boolean): string {
  const parts = [
    `fetched ${s.fetched}`,
    `${pagesPerSecond(s).toFixed(1)} pages/s`,
    `frontier ${c.waiting}`,
    `in flight ${c.fetching}`,
    `errors ${s.errors}`,
  ];
  if (topic) parts.push(`relevant ${s.relevant}`);
  if (s.probes) parts.push(`services ${s.services.valid}`);
  if (s.sitemapUrls) parts.push(`from sitemaps ${s.sitemapUrls}`);
  return parts.join(' | ');
}

/**
 * Shows progress while a crawl runs: a live line on a terminal, a plain log line every few
 * seconds otherwise (CI logs, files). Returns a function that stops it.
 */
export function showProgress(src: ProgressSource, opts: { topic: boolean; maxPages: number; stream?: NodeJS.WriteStream }): () => void {
  const stream = opts.stream ?? process.stderr;
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: '{bar} {value}/{total} | {info}', stream, hideCursor: true, clearOnComplete: false, etaBuffer: 50 },
      cliProgress.Presets.shades_classic,
    );
    // The budget is the crawl's, over all its runs: so is the bar's count (a resumed run's own
    // fetches against the whole budget ended a finished resume at "15/75").
    const overall = () => {
      const c = src.counts();
      return Math.max(src.stats.fetched, c.done + c.error - c.notFetched);
    };
    bar.start(opts.maxPages, overall(), { info: '' });
    const t = setInterval(() => bar.update(overall(), { info: line(src.stats, src.counts(), opts.topic) }), 250);
    return () => {
      clearInterval(t);
      bar.update(overall(), { info: line(src.stats, src.counts(), opts.topic) });
      bar.stop();
    };
  }
  const t = setInterval(() => stream.write(`[focuscrawl] ${line(src.stats, src.counts(), opts.topic)}\n`), 5000);
  return () => clearInterval(t);
}

/** The service registry's counts over the whole crawl, and the fetches they cost. */
export interface ServiceTotals {
  valid: number;
  exception: number;
  invalid: number;
  /** Fetches (done + error) over the whole crawl, probes included: the source's "pages downloaded". */
  fetched: number;
}

/** Why a run ended, in words; an exhausted frontier says how much the crawl dropped on the way. */
export function stopReasonText(reason: StopReason, discardedBy: Record<string, number>): string {
  if (reason === 'max-pages') return 'page budget reached';
  if (reason === 'stopped') return 'stopped';
  if (reason === 'stalled') return 'stalled: the last pages fetched found nothing relevant (--stop-when-stalled)';
  if (reason === 'host-budgets') return 'host budgets reached: the URLs left wait on hosts that reached --max-pages-per-host';
  const dropped = Object.values(discardedBy).reduce((a, b) => a + b, 0);
  return dropped ? `frontier exhausted: nothing left to fetch; ${count(dropped, 'link was', 'links were')} discarded` : 'frontier exhausted: nothing left to fetch';
}

/** "1 error", "2 errors". */
/** "1 seed", "2 seeds": a count with its noun agreeing. */
export { count };

export function summaryText(summary: CrawlSummary, db: string, relevantTotal: number | null, services: ServiceTotals | null = null): string {
  const s = summary.stats;
  const c = s.frontier;
  const secs = (Date.now() - s.startedAt) / 1000;
  const lines = [
    `crawl ended (${stopReasonText(summary.reason, s.discardedBy)}) after ${secs.toFixed(1)} s: ${s.fetched} fetched this run (${s.done} done, ${count(s.errors, 'error')}, ${count(s.retries, 'retry', 'retries')})${s.notFetched ? `, ${s.notFetched} ended without a request` : ''}, ${pagesPerSecond(s).toFixed(1)} pages/s, ${(s.bytes / 1e6).toFixed(1)} MB`,
    `frontier: ${c.waiting} waiting, ${c.done} done, ${count(c.error, 'error')}, ${c.discarded} discarded`,
  ];
  // A run that stored no page says why, not only that the frontier ran dry (a dead or mistyped
  // seed). "This run": a shared worker speaks for itself, whatever the other workers stored.
  if (s.pages === 0 && s.failures.length) {
    const more = s.errors + s.notFetched - s.failures.length;
    lines.push(`no page was stored this run; ${s.failures.length === 1 && more <= 0 ? 'the failure' : 'the first failures'}:`, ...s.failures.map((f) => `  ${displayUrl(f.url)}: ${f.reason}`));
    if (more > 0) lines.push(`  and ${count(more, 'other')} (focuscrawl status lists the most common errors)`);
  }
  if (summary.reason === 'max-pages' && s.fetched === 0) lines.push('the page budget was spent before this run: focuscrawl resume --max-pages N raises it');
  if (s.discarded) lines.push(`discarded this run: ${discardSummary(s.discardedBy)}`);
  // Their discard may be this run's, an earlier run's or (shared) another worker's.
  if (s.revived) lines.push(`found again: ${count(s.revived, 'link')} discarded before as deeper than max depth or by the strategy, then reached after all (a shorter path, a better page, or a redirect whose page was stored)`);
  if (relevantTotal !== null) {
    const rate = s.fetched ? ((100 * s.relevant) / s.fetched).toFixed(1) : '0.0';
    lines.push(`relevant: ${s.relevant} this run (harvest rate ${rate}%), ${relevantTotal} in the repository`);
  }
  if (s.sitemaps) {
    lines.push(`sitemaps: ${count(s.sitemaps, 'file')} fetched this run${s.sitemapsCut ? ` (${s.sitemapsCut} cut at a limit)` : ''}, ${s.sitemapUrls} URLs added from them`);
  }
  if (s.seen) {
    const total = s.seen.cacheHits + s.seen.cacheMisses;
    lines.push(`URL-seen cache: ${s.seen.cacheHits} hits, ${s.seen.cacheMisses} misses (${total ? ((100 * s.seen.cacheHits) / total).toFixed(1) : '0.0'}% hits)`);
  }
  if (services) {
    const per = services.fetched ? services.valid / services.fetched : 0;
    lines.push(
      `services (whole crawl): ${services.valid} valid, ${services.exception} exception, ${services.invalid} invalid; ` +
        `${per.toFixed(4)} valid services per page downloaded (${services.fetched} fetched in the whole crawl); ${count(s.probes, 'probe')} this run`,
    );
  }
  lines.push(`repository: ${db}`);
  return lines.join('\n');
}
