import type { startCrawl } from '../crawl.js';

/** The run was stopped by its signal: nothing was ranked; what was fetched is in the database. */
export class GroupStopped extends Error {
  constructor(readonly stage: string) {
    super(`group crawl stopped during ${stage}`);
  }
}

/** crawl.run() that throws GroupStopped once the signal has stopped the crawl. */
export function stoppable(crawl: Awaited<ReturnType<typeof startCrawl>>, signal: AbortSignal | undefined): { run: (stage: string) => ReturnType<typeof crawl.run>; release: () => void } {
  const stop = () => crawl.crawler.stop();
  signal?.addEventListener('abort', stop, { once: true });
  if (signal?.aborted) stop();
  return {
    run: async (stage) => {
      const summary = await crawl.run();
      if (signal?.aborted) throw new GroupStopped(stage);
      return summary;
    },
    release: () => signal?.removeEventListener('abort', stop),
  };
}
