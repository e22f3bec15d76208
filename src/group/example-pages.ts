import { FocusCrawlError } from '../errors.js';
import { hostOf, normalizeUrl } from '../parse/normalize-url.js';
import { siteOfHost } from './site-of-host.js';
import type { LogEntry } from '../store/store.js';
import type { GroupExample } from './group-inputs.js';
import type { rankableDocs, RankedDoc } from './group-ranking.js';

/*
 * The example pages of a group crawl as its crawl left them: found among the rankable pages, or
 * missing, with why when the crawl log says (an error, a discard, no HTML).
 */

type Ranked = Awaited<ReturnType<typeof rankableDocs>>;

/** What of a group crawl's options the examples need. */
export interface ExampleOptions {
  examples: readonly GroupExample[];
  pathSearchPages: number;
}

export function missingExamples(o: ExampleOptions, ranked: Ranked): GroupExample[] {
  const urls = new Set(ranked.docs.map((d) => d.url));
  return o.examples.filter((e) => !urls.has(normalizeUrl(e.url) ?? e.url));
}

/**
 * Why each example that is no rankable page is missing, from the crawl log: an error (HTTP 404,
 * too large), a discard (depth, traps), or a page that was fetched but is no HTML text. An example
 * the log never names is explained by its site: a root that could not be fetched (a dead host),
 * or a site whose pages ran out before the path search's budget (a mistyped URL, an unlinked page).
 */
export async function exampleFates(store: { logEntries(): AsyncIterable<LogEntry> }, o: ExampleOptions, ranked: Ranked): Promise<Map<string, string>> {
  const missing = missingExamples(o, ranked);
  const wanted = new Set(missing.map((e) => normalizeUrl(e.url) ?? e.url));
  const fates = new Map<string, string>();
  if (!wanted.size) return fates;
  const roots = new Map(missing.map((e) => [normalizeUrl(e.site.root) ?? e.site.root, e.site.host]));
  const rootErrors = new Map<string, string>();
  const fetched = new Map<string, number>();
  const siteOf = siteOfHost(o.examples.map((e) => e.site));
  for await (const e of store.logEntries()) {
    if (e.state === 'done') {
      const host = siteOf(hostOf(e.url));
      fetched.set(host, (fetched.get(host) ?? 0) + 1);
    }
    // A root that ended without its page (refused, dead, disallowed by robots.txt, redirected out of scope).
    if (e.state !== 'done' && roots.has(e.url)) rootErrors.set(roots.get(e.url)!, `${e.state === 'error' ? '' : 'discarded: '}${groupReason(e.error)}`);
    if (!wanted.has(e.url)) continue;
    fates.set(e.url, e.state === 'done' ? `fetched, but it is no HTML page with text${e.status ? ` (HTTP ${e.status})` : ''}` : `${e.state === 'error' ? 'could not be fetched' : 'was discarded'}: ${groupReason(e.error)}`);
  }
  for (const e of missing) {
    const key = normalizeUrl(e.url) ?? e.url;
    if (fates.has(key)) continue;
    const rootError = rootErrors.get(e.site.host);
    const n = fetched.get(e.site.host) ?? 0;
    if (rootError !== undefined) fates.set(key, `was not reached: its site root ${e.site.root} could not be fetched (${rootError})`);
    else if (n === 0) fates.set(key, `was not reached: no page of its site was crawled from ${e.site.root} (its reason is in the crawl log)`);
    else if (n < o.pathSearchPages) fates.set(key, `was not reached: ${n === 1 ? 'the one page' : `none of the ${n} pages`} crawled from ${e.site.root} ${n === 1 ? 'does not link' : 'links'} to it, and no more were found from there (check the URL)`);
  }
  return fates;
}

/**
 * A crawl log reason as the group's user acts on it: a redirect to another host names the crawl's
 * `--hosts`, which `group` has not (its hosts are the sites file's roots).
 */
function groupReason(reason: string | null): string {
  if (reason === null) return 'no reason recorded';
  return reason.replace(/; --hosts (\S+) would allow it$/, (_m, host: string) => `; it moved to ${host}: give that address as the site's root in the sites file`);
}

/** The example pages as fetched; the ones not reached are reported, with why when the log says, and left out. */
export function foundExamples(o: ExampleOptions, ranked: Ranked, log: (line: string) => void, fates: Map<string, string>): RankedDoc[] {
  const byUrl = new Map(ranked.docs.map((d) => [d.url, d]));
  const missing = missingExamples(o, ranked);
  for (const e of missing) {
    const fate = fates.get(normalizeUrl(e.url) ?? e.url);
    log(`${e.where}: example ${e.url} ${fate ?? `was not reached from ${e.site.root} within ${o.pathSearchPages} pages`}; left out`);
  }
  const found = o.examples.filter((e) => !missing.includes(e)).map((e) => byUrl.get(normalizeUrl(e.url) ?? e.url)!);
  if (!found.length) {
    const why = fates.size ? 'no example page could be used (the reasons are above)' : `no example page was reached from its site root within ${o.pathSearchPages} pages`;
    throw new FocusCrawlError('USAGE', `${why}: check the examples${fates.size ? '' : ' or raise --path-search'}`);
  }
  return [...new Map(found.map((d) => [d.url, d])).values()];
}
