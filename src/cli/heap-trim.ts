import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Keeps a long crawl's V8 heap near what it really holds. The crawl's live heap is bounded (the
 * frontier keeps `frontierMemory` waiting URLs in memory, the rest in the database), but V8 sizes
 * its heap for a 4 GB limit on a large machine and let bench/soak's process grow past 650 MB of
 * RSS around 80 MB of live objects. A full collection when more than `slackMb` of the heap is
 * garbage returns that memory; checked every 2 s, it costs a few tens of ms when it runs. The flag can only be
 * turned on from inside through vm (node --expose-gc would need every user to pass it).
 */
export function startHeapTrim(opts: { everyMs?: number; slackMb?: number } = {}): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const slack = (opts.slackMb ?? 32) * 1024 * 1024;
  const t = setInterval(() => {
    const m = process.memoryUsage();
    if (m.heapTotal - m.heapUsed > slack) gc();
  }, opts.everyMs ?? 2000);
  t.unref();
  return () => clearInterval(t);
}
