import { Agent, request } from 'undici';
import { ceilingLoop } from './ceiling-loop.js';
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
const HREF = /href="([^"#]+)"/g;

const fetched = await ceilingLoop(origin + '/', concurrency, maxPages, async (url) => {
  const res = await request(url, { dispatcher: agent });
  const html = await res.body.text();
  const links: string[] = [];
  for (const match of html.matchAll(HREF)) {
    const href = match[1]!;
    links.push(href.startsWith('/') ? origin + href : href);
  }
  return links;
});
await agent.close();
console.log(JSON.stringify(m.finish(fetched)));
