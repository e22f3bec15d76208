/**
 * The loop of the ceiling contenders: `concurrency` workers take URLs from a stack until
 * `maxPages` have been started, and each page's links that a Set has not seen are pushed.
 * `visit` fetches (and whatever else a contender does) and returns the page's absolute links.
 * Returns the number of pages visited.
 */
export async function ceilingLoop(
  start: string,
  concurrency: number,
  maxPages: number,
  visit: (url: string, id: number) => Promise<Iterable<string>>,
): Promise<number> {
  const seen = new Set<string>([start]);
  const queue: string[] = [start];
  let fetched = 0;
  let started = 0;
  async function worker(): Promise<void> {
    for (;;) {
      const url = queue.pop();
      if (url === undefined) {
        if (started === fetched) return;
        await new Promise((r) => setTimeout(r, 1));
        continue;
      }
      if (started >= maxPages) return;
      const links = await visit(url, ++started);
      fetched++;
      for (const link of links) {
        if (!seen.has(link)) {
          seen.add(link);
          queue.push(link);
        }
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return fetched;
}
