import type { Command } from 'commander';
import { urlStateName } from '../types.js';
import { openExistingDb, runningLine } from './open-existing-db.js';
import { discardKind, discardSummary } from '../engine/discard-reasons.js';
import { stopReasonText } from './progress.js';
import type { StopReason } from '../engine/crawler.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show the state of a crawl database')
    .requiredOption('--db <file>', 'crawl database')
    .option('--json', 'print JSON')
    .action(async (o: { db: string; json?: boolean }) => {
      const { db, running } = openExistingDb(o.db);
      try {
        const counts: Record<string, number> = { waiting: 0, fetching: 0, done: 0, error: 0, discarded: 0 };
        for (const r of db.db.prepare('SELECT state, count(*) AS n FROM urls GROUP BY state').all() as { state: number; n: number }[]) {
          counts[urlStateName(r.state)] = r.n;
        }
        const pages = db.db.prepare('SELECT count(*) FROM pages').pluck().get() as number;
        const unindexed = db.db.prepare('SELECT count(*) FROM fts_pending').pluck().get() as number;
        const config = JSON.parse(db.getMeta('config') ?? '{}') as { strategy?: string | null; topic?: { name?: string; threshold?: number } | null; maxPages?: number };
        const relevant = config.topic?.threshold !== undefined
          ? (db.db.prepare('SELECT count(*) FROM pages WHERE relevance >= ?').pluck().get(config.topic.threshold) as number)
          : null;
        const errors = db.db.prepare("SELECT error, count(*) AS n FROM crawl_log WHERE state = 'error' GROUP BY error ORDER BY n DESC LIMIT 5").all() as { error: string; n: number }[];
        const finished = counts.waiting === 0 && counts.fetching === 0;
        db.db.function('discard_kind', { deterministic: true }, (r: unknown) => discardKind(String(r ?? '')));
        const discarded: Record<string, number> = {};
        for (const r of db.db.prepare('SELECT discard_kind(reason) AS k, count(*) AS n FROM urls WHERE state = 4 GROUP BY k').all() as { k: string; n: number }[]) discarded[r.k] = r.n;
        const lastRun = JSON.parse(db.getMeta('lastRun') ?? 'null') as { reason: StopReason; endedAt: string; discardedBy: Record<string, number> } | null;
        const services: Record<string, number> = {};
        for (const r of db.db.prepare('SELECT status, count(*) AS n FROM services GROUP BY status').all() as { status: string; n: number }[]) services[r.status] = r.n;
        const sitemapRows = `SELECT id FROM urls WHERE probe LIKE '{"sitemap":%'`;
        const sitemaps = {
          files: db.db.prepare(`SELECT count(*) FROM urls WHERE state IN (2, 3) AND probe LIKE '{"sitemap":%'`).pluck().get() as number,
          urls: db.db.prepare(`SELECT count(*) FROM urls WHERE probe IS NULL AND state != 4 AND parent IN (${sitemapRows})`).pluck().get() as number,
        };
        const report = { db: o.db, running: running ? (running.holder ?? {}) : null, urls: counts, pages, unindexed, relevant, topic: config.topic?.name ?? null, strategy: config.strategy ?? null, maxPages: config.maxPages ?? null, finished, lastRun, discarded, services, sitemaps, topErrors: errors };
        if (o.json) {
          process.stdout.write(JSON.stringify(report, null, 2) + '\n');
          return;
        }
        const lines = [
          ...(running ? [runningLine(o.db, running)!] : []),
          `${o.db}: ${finished ? 'nothing left to fetch' : `${counts.waiting} URLs waiting${counts.fetching ? `, ${counts.fetching} ${running ? 'being fetched by the running crawl' : 'leased by an interrupted run (resume returns them)'}` : ''}`}`,
          `urls: ${counts.done} done, ${counts.error} error, ${counts.discarded} discarded, ${counts.waiting} waiting`,
          ...(counts.discarded ? [`discarded: ${discardSummary(discarded)}`] : []),
          ...(lastRun ? [`last run ended ${lastRun.endedAt}: ${stopReasonText(lastRun.reason, lastRun.discardedBy)}`] : []),
          `pages stored: ${pages}${relevant !== null ? `, relevant: ${relevant} (topic '${config.topic?.name}')` : ''}`,
          ...(unindexed ? [`full-text index: ${unindexed} pages not yet indexed (${running ? 'the running crawl indexes them in batches and at its end' : 'the next search or crawl run indexes them'})`] : []),
        ];
        if (Object.keys(services).length) {
          lines.push(`services: ${services.valid ?? 0} valid, ${services.exception ?? 0} exception, ${services.invalid ?? 0} invalid (focuscrawl services --db ${o.db})`);
        }
        if (sitemaps.files) lines.push(`sitemaps: ${sitemaps.files} files read, ${sitemaps.urls} URLs added from them`);
        if (errors.length) lines.push('most common errors:', ...errors.map((e) => `  ${e.n} × ${e.error}`));
        process.stdout.write(lines.join('\n') + '\n');
      } finally {
        await db.close();
      }
    });
}
