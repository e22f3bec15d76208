import { FocusCrawlError } from '../errors.js';
import { parseStored } from '../store/stored-json.js';
import { optionMessage } from '../config/option-issue.js';
import { heartbeatWindowMs } from '../frontier/lease-timing.js';
import { DEFAULT_LEASE_MS } from '../frontier/frontier.js';
import { count } from '../text/count.js';
import { crawlConfigSchema } from '../config/crawl-config.js';
import type { CrawlRequest } from '../types.js';
import { connectBoth, redisPrefix, sharedFrontier } from './shared-crawl.js';
import { redact, type SharedTarget } from './shared-target.js';
import { dropCrawlKeys } from './drop-crawl-keys.js';

export { dropCrawlKeys };

/** URLs sent to Redis per script call while rebuilding. */
const CHUNK = 1000;

export interface RebuildReport {
  /** Final URLs (done, error, discarded) recorded as seen again. */
  final: number;
  /** URLs waiting again (those waiting or leased when Redis lost its data). */
  open: number;
}

/**
 * Recreates a shared crawl's live frontier in Redis from its record in PostgreSQL, after Redis lost
 * data (Redis persistence is optional; PostgreSQL is the record): every final URL becomes seen
 * (so none is fetched again), every other one waits again with its priority and carried state.
 * Failed attempts so far are not carried back: a rebuilt URL starts its retries afresh.
 * A frontier still in Redis is not replaced unless `force` clears it first.
 */
export async function rebuildFrontier(target: SharedTarget, opts: { force?: boolean; progress?: (r: RebuildReport) => void } = {}): Promise<RebuildReport> {
  const { redis, pg } = await connectBoth(target, { join: true });
  try {
    const stored = await pg.getMeta('config');
    if (!stored) throw new FocusCrawlError('USAGE', `there is no crawl named '${target.name}' in PostgreSQL at ${redact(target.pg)}`);
    const checked = crawlConfigSchema.safeParse(parseStored(stored, 'config', `crawl '${target.name}'`));
    if (!checked.success) throw new FocusCrawlError('STORE', `crawl '${target.name}' holds a crawl config this focuscrawl cannot use: ${optionMessage('field', checked.error)}`);
    const config = checked.data;
    const frontier = sharedFrontier(redis, config, target.name, `rebuild-${process.pid}`, null);
    const live = await frontier.counts();
    const held = live.waiting + live.fetching + live.done + live.error + live.discarded;
    if (held > 0) {
      // Workers running write to the keys a rebuild clears and refills: not even --force goes past them.
      const leaseMs = typeof config.leaseMs === 'number' ? config.leaseMs : DEFAULT_LEASE_MS;
      const running = (await frontier.liveness(Date.now(), heartbeatWindowMs(leaseMs))).workers;
      if (running.length) {
        throw new FocusCrawlError('USAGE', `crawl '${target.name}' has ${count(running.length, 'worker')} running (${running.join(', ')}): stop its workers (Ctrl-C or SIGTERM) before a rebuild; nothing was changed`);
      }
      if (!opts.force) {
        const what = (await frontier.layout()) === 'rebuilding' ? 'half rebuilt, by a rebuild that was interrupted' : `${live.waiting} waiting, ${live.fetching} being fetched, ${live.done} done`;
        throw new FocusCrawlError('USAGE', `Redis at ${redact(target.redis)} still holds crawl '${target.name}' (${what}): rebuild replaces it; stop its workers and pass --force to clear it first`);
      }
    }
    // Whatever is left goes (keys of an earlier layout, a seen set, settings). The mark of a
    // rebuild under way keeps workers out until every URL is back (a worker still running since
    // Redis lost its data would otherwise carry on against a half-rebuilt frontier).
    await dropCrawlKeys(redis, redisPrefix(target.name));
    await frontier.beginRebuild();
    const report: RebuildReport = { final: 0, open: 0 };
    let batch: { url: string; host: string; state: 'done' | 'error' | 'discarded'; reason: string | null }[] = [];
    for await (const row of pg.finalRows()) {
      batch.push(row);
      if (batch.length >= CHUNK) {
        report.final += await frontier.restoreFinal(batch);
        batch = [];
        opts.progress?.(report);
      }
    }
    if (batch.length) report.final += await frontier.restoreFinal(batch);
    let open: CrawlRequest[] = [];
    const now = Date.now();
    for await (const row of pg.openRows()) {
      open.push(row);
      if (open.length >= CHUNK) {
        report.open += (await frontier.restoreOpen(open, now)).filter(Boolean).length;
        open = [];
        opts.progress?.(report);
      }
    }
    if (open.length) report.open += (await frontier.restoreOpen(open, now)).filter(Boolean).length;
    await frontier.endRebuild();
    return report;
  } finally {
    redis.disconnect();
    await pg.close();
  }
}

