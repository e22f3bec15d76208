import { Agent, request } from 'undici';
import { arg, measure } from './report.js';

/**
 * The ceiling: undici `request` calls, a regex link extractor and an in-memory Set. No robots.txt,
 * no parsing, no storage. What a crawler could reach if everything but fetching were free.
 */
const origin = arg('origin');
const concurrency = Number(arg('concurrency'));
const maxPages = Number(arg('max-pages'));
const m = measure('ceiling loop (undici request + regex + Set)');
const agent = new Agent({ connections: concurrency });
const seen = new Set<string>([origin + '/']);
const queue: string[] = [origin + '/'];
let fetched = 0;
let started = 0;
const HREF = /href="([^"#]+)"/g;

async function worker(): Promise<void> {
  for (;;) {
    const url = queue.pop();
    if (url === undefined) {
      if (started === fetched) return;
      await new Promise((r) => setTimeout(r, 1));
      continue;
    }
    if (started >= maxPages) return;
    started++;
    const res = await request(url, { dispatcher: agent });
    const html = await res.body.text();
    fetched++;
    for (const match of html.matchAll(HREF)) {
      const href = match[1]!;
      const abs = href.startsWith('/') ? origin + href : href;
      if (!seen.has(abs)) {
        seen.add(abs);
        queue.push(abs);
      }
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
await agent.close();
console.log(JSON.stringify(m.finish(fetched)));
