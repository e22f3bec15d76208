import type { Command } from 'commander';
import { discardSummary } from '../engine/discard-reasons.js';
import type { SharedFlags } from '../distributed/shared-target.js';
import { openReader } from './open-reader.js';
import { stopReasonText } from './progress.js';
import { withSharedOptions } from './shared-options.js';
import type { CrawlReader } from '../store/crawl-reader.js';

/** What `status` reports, from the read model alone. */
export async function crawlStatus(reader: CrawlReader) {
  const counts = await reader.urlCounts();
  const config = (await reader.config()) ?? {};
  const threshold = config.topic?.threshold;
  return {
    urls: counts,
    pages: await reader.pageCount(),
    unindexed: await reader.unindexed(),
    relevant: threshold !== undefined ? await reader.countRelevant(threshold) : null,
    topic: config.topic?.name ?? null,
    strategy: config.strategy ?? null,
    maxPages: config.maxPages ?? null,
    finished: counts.waiting === 0 && counts.fetching === 0,
    lastRun: await reader.lastRun(),
    discarded: await reader.discardedByKind(),
    services: await reader.serviceCounts(),
    sitemaps: await reader.sitemapCounts(),
    topErrors: await reader.topErrors(5),
  };
}

export function registerStatus(program: Command): void {
  withSharedOptions(program.command('status').description('show the state of a crawl (a database, or a shared crawl)'))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--json', 'print JSON')
    .action(async (o: SharedFlags & { db?: string; json?: boolean }) => {
      const open = await openReader(o);
      try {
        const s = await crawlStatus(open.reader);
        const embedded = !o.name;
        if (o.json) {
          process.stdout.write(JSON.stringify({ [embedded ? 'db' : 'crawl']: embedded ? open.label : o.name, running: embedded ? open.holder : open.running, ...s }, null, 2) + '\n');
          return;
        }
        const c = s.urls;
        const running = open.running !== null && embedded;
        // URLs still leased with no crawl running: a run ended without writing its end (kill -9).
        const interrupted = embedded && !running && c.fetching > 0;
        const lines = [
          ...(open.running ? [open.running] : []),
          `${open.label}: ${s.finished ? 'nothing left to fetch' : `${c.waiting} URLs waiting${c.fetching ? `, ${c.fetching} ${running ? 'being fetched by the running crawl' : !embedded ? 'being fetched by its workers' : 'leased by an interrupted run (resume returns them)'}` : ''}`}`,
          `urls: ${c.done} done, ${c.error} error, ${c.discarded} discarded, ${c.waiting} waiting`,
          ...(c.discarded ? [`discarded: ${discardSummary(s.discarded)}`] : []),
          ...(s.lastRun ? [`last run ended ${s.lastRun.endedAt}: ${stopReasonText(s.lastRun.reason, s.lastRun.discardedBy)}${interrupted ? '; a later run was interrupted (killed or crashed): focuscrawl resume continues it' : ''}`] : []),
          `pages stored: ${s.pages}${s.relevant !== null ? `, relevant: ${s.relevant} (topic '${s.topic}')` : ''}`,
          ...(s.unindexed ? [`full-text index: ${s.unindexed} pages not yet indexed (${running ? 'the running crawl indexes them in batches and at its end' : 'the next search or crawl run indexes them'})`] : []),
        ];
        const sv = s.services;
        if (Object.values(sv).some((n) => n)) {
          lines.push(`services: ${sv.valid ?? 0} valid, ${sv.exception ?? 0} exception, ${sv.invalid ?? 0} invalid (focuscrawl services ${embedded ? `--db ${open.label}` : `--name ${o.name}`})`);
        }
        if (s.sitemaps.files) lines.push(`sitemaps: ${s.sitemaps.files} ${s.sitemaps.files === 1 ? 'file' : 'files'} read, ${s.sitemaps.urls} URLs added from them`);
        if (s.topErrors.length) lines.push('most common errors:', ...s.topErrors.map((e) => `  ${e.n} × ${e.error}`));
        process.stdout.write(lines.join('\n') + '\n');
      } finally {
        await open.close();
      }
    });
}
