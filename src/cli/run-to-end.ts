import type { RunnableCrawl } from '../crawl.js';
import { showProgress, summaryText } from './progress.js';
import { startHeapTrim } from './heap-trim.js';

/**
 * Runs an open crawl with a progress display. Ctrl-C or SIGTERM aborts the requests in flight,
 * whose URLs wait again (for resume; a shared crawl's at once, for any worker), and ends the run;
 * a second signal exits at once (everything accepted is already journaled, and resume picks it
 * up; a shared crawl's URLs not yet given back wait for their leases to expire).
 */
export async function runToEnd(crawl: RunnableCrawl): Promise<void> {
  for (const note of crawl.notes) process.stderr.write(`focuscrawl: ${note}\n`);
  const topic = crawl.config.topic !== null;
  const stopTrim = startHeapTrim();
  const stopProgress = showProgress({ stats: crawl.crawler.stats, counts: () => crawl.crawler.stats.frontier }, { topic, maxPages: crawl.config.maxPages });
  let interrupts = 0;
  let stopped = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++interrupts > 1) {
      crawl.flushNow();
      process.exit(130);
    }
    // systemd and container runtimes stop a worker with SIGTERM: the line names what arrived.
    process.stderr.write(`\nstopping${signal === 'SIGINT' ? '' : ` (${signal})`}: ${crawl.onStop} (${signal === 'SIGINT' ? 'Ctrl-C again' : 'a second signal'} to quit now)\n`);
    crawl.crawler.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let failed = false;
  try {
    const summary = await crawl.run();
    stopTrim();
    stopProgress();
    stopped = true;
    const threshold = typeof crawl.config.topic === 'object' && crawl.config.topic ? crawl.config.topic.threshold : null;
    const relevant = threshold !== null ? await crawl.store.countRelevant(threshold) : null;
    const c = summary.stats.frontier;
    // Pages downloaded: URLs that ended without a request of their own (a dead host's) are none.
    const services = crawl.config.detect.length ? { ...(await crawl.services.counts()), fetched: c.done + c.error - c.notFetched } : null;
    process.stdout.write([summaryText(summary, crawl.where, relevant, services), ...(crawl.summaryNotes?.(summary) ?? [])].join('\n') + '\n');
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // A failed run must not leave the progress timer holding the process open.
    if (!stopped) stopProgress();
    stopTrim();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // After a failed run closing usually fails the same way (its store is gone too): the run's
    // error is the one that says what happened, so a second one must not replace it.
    await crawl.close().catch((err: unknown) => {
      if (!failed) throw err;
    });
  }
}
