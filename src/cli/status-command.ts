import type { Command } from 'commander';
import { discardSummary } from '../engine/discard-reasons.js';
import type { SharedFlags } from '../distributed/shared-target.js';
import { expiredLeasesLine, openReader, redisProblem, type SharedLiveness } from './open-reader.js';
import { count, stopReasonText } from './progress.js';
import { withSharedOptions } from './shared-options.js';
import type { CrawlReader } from '../store/crawl-reader.js';

/** What `status` reports, from the read model alone. */
export async function crawlStatus(reader: CrawlReader) {
  const counts = await reader.urlCounts();
  const config = (await reader.config()) ?? {};
  const threshold = config.topic?.threshold;
  const strategy = await reader.strategy();
  return {
    urls: counts,
    pages: await reader.pageCount(),
    unindexed: await reader.unindexed(),
    relevant: threshold !== undefined ? await reader.countRelevant(threshold) : null,
    topic: config.topic?.name ?? null,
    strategy: strategy?.name ?? null,
    /** Why that strategy: named when the crawl was started, the default, or a group crawl's (CrawlStrategy). */
    strategySource: strategy?.source ?? null,
    maxPages: config.maxPages ?? null,
    finished: counts.waiting === 0 && counts.fetching === 0,
    lastRun: await reader.lastRun(),
    /** When the latest run started if it recorded no end (running, or killed between two requests). */
    unendedRunStart: await reader.unendedRunStart(),
    discarded: await reader.discardedByKind(),
    services: await reader.serviceCounts(),
    sitemaps: await reader.sitemapCounts(),
    topErrors: await reader.topErrors(5),
  };
}

/** What the strategy line adds after the name: why this one. */
function strategyWhy(source: string | null, name: string, topic: boolean): string {
  if (source === 'default') return ` (the default ${topic ? 'with' : 'without'} a topic)`;
  if (source === 'object') return ' (a strategy object given to startCrawl: resumeCrawl needs it again)';
  if (source === 'group') return name === 'group' ? " (the group crawler's; this database does not record its --method)" : ` (the group crawler's, --method ${name === 'knn-focused' ? 'fc' : 'bfc'})`;
  return '';
}

/**
 * Whether a run that ended at `endedAt` is a phase of the process holding the crawl now (group
 * runs a crawl per round): "last run ended: stopped" beside "a group is running" read as a
 * stopped crawl.
 */
export function phaseOfHolder(running: boolean, holder: object | null, endedAt: string): boolean {
  const started = (holder as { started?: unknown } | null)?.started;
  return running && typeof started === 'string' && endedAt >= started;
}

/**
 * A shared crawl's first line: waiting, being fetched and by whom, and leases whose worker is gone;
 * without Redis, PostgreSQL's open URLs, which it cannot split.
 */
function sharedLines(label: string, c: { waiting: number; fetching: number }, finished: boolean, live: SharedLiveness | null, missing: string | null, noRedis = false): string[] {
  // Said even when PostgreSQL's record looks finished: no worker can run until rebuild.
  if (missing !== null) return [`${label}: the Redis frontier is missing (focuscrawl rebuild --name ${missing} recreates it from PostgreSQL); ${count(c.waiting, 'URL')} waiting or being fetched in PostgreSQL's record`];
  if (!live) return [`${label}: ${finished ? 'nothing left to fetch' : `${count(c.waiting, 'URL')} waiting or being fetched (${noRedis ? 'no Redis given' : 'Redis did not answer'})`}`];
  const who = live.workers.length ? `${count(live.workers.length, 'worker')} running (${live.workers.join(', ')})` : 'no worker running';
  const head = finished ? 'nothing left to fetch' : `${count(c.waiting, 'URL')} waiting${live.leases ? `, ${live.leases} being fetched` : ''}`;
  return [
    `${label}: ${head}; ${who}`,
    ...[expiredLeasesLine(live)].filter((x) => x !== null),
  ];
}

/** The URLs held (leased) for the `urls:` line: being fetched, or in leases whose run or worker is gone. */
function heldText(embedded: boolean, running: boolean, fetching: number, live: SharedLiveness | null): string {
  if (!embedded && !live) return ' or being fetched';
  const held = embedded ? [running ? fetching : 0, running ? 0 : fetching] : [live!.leases, live!.expired];
  return (held[0] ? `, ${held[0]} being fetched` : '') + (held[1] ? `, ${held[1]} in ${embedded ? 'leases of an interrupted run' : 'expired leases'}` : '');
}

export function registerStatus(program: Command): void {
  withSharedOptions(program.command('status').description('show the state of a crawl (a database, or a shared crawl)'))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--json', 'print JSON')
    .action(async (o: SharedFlags & { db?: string; json?: boolean }) => {
      const open = await openReader(o, { live: true });
      try {
        const s = await crawlStatus(open.reader);
        const embedded = !o.name;
        const live = embedded ? null : await open.liveness();
        const problem = redisProblem(open);
        if (problem) process.stderr.write(`focuscrawl: ${problem}\n`);
        if (o.json) {
          // Shared: running while a worker reported lately or a lease is live; null when not, or when Redis did not say.
          const running = embedded ? open.holder : live && (live.workers.length || live.leases) ? { workers: live.workers, leases: live.leases } : null;
          const shared = embedded
            ? {}
            : {
                redis: { url: open.redis!.url, answered: open.redis!.error === null || open.redis!.missing === true, ...(open.redis!.missing ? { frontier: 'missing' } : {}), ...(open.redis!.error ? { error: open.redis!.error } : {}) },
                expiredLeases: live ? live.expired : null,
              };
          const urls = live || embedded ? { ...s.urls, ...(live ? { fetching: live.leases } : {}) } : { ...s.urls, fetching: null };
          // An embedded run that ended without recording its end (kill -9, a crash): resume continues it.
          const interrupted = embedded ? !open.holder && (s.urls.fetching > 0 || s.unendedRunStart !== null) : null;
          process.stdout.write(JSON.stringify({ [embedded ? 'db' : 'crawl']: embedded ? open.label : o.name, running, interrupted, ...shared, ...s, urls }, null, 2) + '\n');
          return;
        }
        const c = s.urls;
        const running = open.running !== null && embedded;
        // URLs still leased, or a run started after the last recorded end, with no crawl running: a
        // run ended without writing its end (kill -9, between two requests too).
        const interrupted = embedded && !running && (c.fetching > 0 || s.unendedRunStart !== null);
        const lines = [
          ...(open.running ? [open.running] : []),
          ...(embedded
            ? [`${open.label}: ${s.finished ? 'nothing left to fetch' : `${count(c.waiting, 'URL')} waiting${c.fetching ? `, ${c.fetching} ${running ? 'being fetched by the running crawl' : 'leased by an interrupted run (resume returns them)'}` : ''}`}`]
            : sharedLines(open.label, c, s.finished, live, open.redis?.missing && o.name ? o.name : null, open.redis?.notGiven === true)),
          // Every URL once: the ones held too, so that the line adds up to the crawl's URLs.
          `urls: ${c.done} done, ${c.error} error, ${c.discarded} discarded, ${c.waiting} waiting${heldText(embedded, running, c.fetching, live)}`,
          ...(c.discarded ? [`discarded: ${discardSummary(s.discarded)}`] : []),
          // A shared crawl's runs are its workers': one worker's stop is not the crawl's while others run.
          ...(s.lastRun && !phaseOfHolder(running, open.holder, s.lastRun.endedAt)
            ? [`${embedded ? 'last run' : "a worker's last run"} ended ${s.lastRun.endedAt}: ${stopReasonText(s.lastRun.reason, s.lastRun.discardedBy)}${interrupted ? `; a later run${s.unendedRunStart ? `, started ${s.unendedRunStart},` : ''} was interrupted (killed or crashed): focuscrawl resume continues it` : ''}${!embedded && live?.workers.length ? '; the crawl goes on with the workers running' : ''}`]
            : interrupted
              ? [`the last run${s.unendedRunStart ? `, started ${s.unendedRunStart},` : ''} was interrupted (killed or crashed) before recording its end: focuscrawl resume continues it`]
              : []),
          ...(s.strategy ? [`strategy: ${s.strategy}${strategyWhy(s.strategySource, s.strategy, s.topic !== null)}`] : []),
          `pages stored: ${s.pages}${s.relevant !== null ? `, relevant: ${s.relevant} (topic '${s.topic}')` : ''}`,
          ...(s.unindexed ? [`full-text index: ${s.unindexed} pages not yet indexed (${running ? 'the running crawl indexes them in batches and at its end' : 'the next search or crawl run indexes them'})`] : []),
        ];
        const sv = s.services;
        if (Object.values(sv).some((n) => n)) {
          lines.push(`services: ${sv.valid ?? 0} valid, ${sv.exception ?? 0} exception, ${sv.invalid ?? 0} invalid (focuscrawl services ${embedded ? `--db ${open.label}` : `--name ${o.name}`})`);
        }
        if (s.sitemaps.files) lines.push(`sitemaps: ${s.sitemaps.files} ${s.sitemaps.files === 1 ? 'file' : 'files'} fetched (found or not), ${s.sitemaps.urls} URLs added from them`);
        if (s.topErrors.length) lines.push('most common errors:', ...s.topErrors.map((e) => `  ${e.n} × ${e.error}`));
        process.stdout.write(lines.join('\n') + '\n');
      } finally {
        await open.close();
      }
    });
}
