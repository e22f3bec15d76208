import { urlKey } from '../seen/fingerprint.js';
import { displayUrl } from '../parse/display-url.js';
import { posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { HttpFetcher } from '../fetch/http-fetcher.js';
import { ExampleScorer } from '../relevance/example-scorer.js';
import { levelScore } from '../relevance/level-scorer.js';
import { anchorScore, contextScore, linkLevel } from '../relevance/link-scorers.js';
import type { Scored } from '../relevance/scored.js';
import { loadTopic, type Topic } from '../relevance/topic.js';
import { topicProfile, vsmScore } from '../relevance/vsm-scorer.js';
import { positionTerms, weightedTerms } from '../text/position-terms.js';
import type { Fetcher } from '../fetch/fetcher.js';
import { loadPage, PLACEHOLDER_ORIGIN } from './load-document.js';
import { positiveInt } from './option-parsers.js';
import { FocusCrawlError } from '../errors.js';
import { AdaptiveStrategy } from '../strategies/adaptive.js';
import { hostOf, isHttpUrl } from '../parse/normalize-url.js';

const CONTEXT_CHARS = 60;

/**
 * What a file's relative links resolve against when it has no <base> and no --url is given: a
 * placeholder deep enough for '../', so that each link can be shown as the file wrote it.
 */
const PLACEHOLDER_DIR = '/~1/~2/~3/~4/~5/~6/~7/~8/';

/** A link resolved against the placeholder, shown as written (a.html, ../up.html, /root); others unchanged. */
function shownLink(url: string): string {
  if (!url.startsWith(PLACEHOLDER_ORIGIN + '/')) return url;
  const u = new URL(url);
  if (!u.pathname.startsWith('/~1/')) return u.pathname + u.search;
  if (u.pathname === PLACEHOLDER_DIR) return u.search || './';
  return posix.relative(PLACEHOLDER_DIR, u.pathname) + (u.pathname.endsWith('/') ? '/' : '') + u.search;
}

const fmt = (s: Scored) => `${s.score.toFixed(3)}${s.terms.length ? '  ' + s.terms.map(([t, v]) => `${t} ${v.toFixed(3)}`).join(', ') : ''}`;

async function exampleScorer(topic: Topic, fetcher: Fetcher, topicFile: string): Promise<ExampleScorer | null> {
  if (!topic.examples.length) return null;
  const scorer = new ExampleScorer();
  for (const [refs, negative] of [[topic.examples, false], [topic.negatives, true]] as const) {
    for (const ref of refs) {
      // A sample the topic file names: a failure names the file and the field, as a bad keyword does.
      const p = await loadPage(ref, fetcher).catch((err: unknown) => {
        throw new FocusCrawlError('USAGE', `${topicFile}: ${negative ? 'negatives' : 'examples'}: ${(err as Error).message}`);
      });
      scorer.addExample(ref, weightedTerms(positionTerms(p, topic.tokenizeOptions), topic.positions), negative);
    }
  }
  return scorer;
}

export function registerScore(program: Command): void {
  program
    .command('score')
    .description('score one page and its links under a topic, with the terms that produced each score')
    .requiredOption('--topic <file>', 'topic file')
    .option('--url <url>', 'the URL of a page given as a file (for its links)')
    .option('--links <n>', 'links to show, best first (default 20)', positiveInt, 20)
    .option('--json', 'print JSON')
    .argument('<page>', 'URL or HTML file')
    .action(async (ref: string, o: { topic: string; url?: string; links: number; json?: boolean }) => {
      if (o.url !== undefined && !isHttpUrl(o.url)) throw new FocusCrawlError('USAGE', `--url: '${o.url}' is not an http(s) URL`);
      const topic = loadTopic(o.topic);
      const fetcher = new HttpFetcher();
      try {
        const placeholder = !o.url && !/^https?:\/\//i.test(ref);
        const parsed = await loadPage(ref, fetcher, { pageUrl: o.url ?? (placeholder ? PLACEHOLDER_ORIGIN + PLACEHOLDER_DIR : undefined), parse: { linkContext: CONTEXT_CHARS } });
        // The placeholder is for links only: the page's own URL terms stay the file's.
        const page = placeholder ? { ...parsed, url: pathToFileURL(resolve(ref)).href } : parsed;
        const where = placeholder ? ref : page.url;
        const relative = placeholder && page.links.some((l) => l.url.startsWith(PLACEHOLDER_ORIGIN + '/'));
        const terms = positionTerms(page, topic.tokenizeOptions);
        const vsm = vsmScore(topic, terms);
        const level = levelScore(topic, terms);
        const examples = await exampleScorer(topic, fetcher, o.topic);
        const example = examples?.score(weightedTerms(terms, topic.positions)) ?? null;
        const seen = new Set<string>();
        // The default strategy's view of each link, as at the start of a crawl (nothing learned, one page of the host seen).
        const adaptive = new AdaptiveStrategy(topic);
        const view = { request: { key: urlKey(page.url), id: 0, url: page.url, host: hostOf(page.url), depth: 1, parent: null, anchor: '', priority: 0, data: null, attempts: 0 }, page, relevance: vsm.score, profile: topicProfile(topic, page) };
        const links = page.links
          .filter((l) => !seen.has(l.url) && seen.add(l.url))
          .map((l) => ({ url: shownLink(l.url), anchor: l.anchor, anchorScore: anchorScore(topic, l.anchor), contextScore: contextScore(topic, l.context ?? ''), ...linkLevel(topic, shownLink(l.url), l.anchor), adaptive: adaptive.explain(view, l) }))
          .sort((a, b) => b.adaptive.priority - a.adaptive.priority || b.anchorScore.score - a.anchorScore.score || b.level - a.level);
        if (o.json) {
          process.stdout.write(JSON.stringify({ url: where, title: page.title, relevance: vsm, level, example, relativeLinks: relative, links: links.slice(0, o.links) }, null, 2) + '\n');
          return;
        }
        const out = [
          `${placeholder ? where : displayUrl(where)}  "${page.title}"  (topic '${topic.name}', threshold ${topic.threshold})`,
          `relevance (position-weighted VSM, method C): ${fmt(vsm)}${vsm.score >= topic.threshold ? '  [relevant]' : ''}`,
          `level (method B, topic terms in title and body): ${level.level}  r = ${fmt(level)}`,
        ];
        if (example) out.push(`example similarity (method D): ${fmt(example)}  nearest: ${String(example.detail?.nearestExample)}`);
        out.push(`links: ${links.length} distinct, best ${Math.min(o.links, links.length)} by the default strategy (adaptive) priority${relative ? ' (relative links as the file has them: it has no <base>; --url URL resolves them)' : ''}`);
        const site = [...adaptive.siteTermsOf(view.request.host)].filter((t) => topic.vector.has(t));
        if (site.length) out.push(`site terms (the host's name; adaptive gives them ${adaptive.options.siteTerm} of their weight on its pages): ${site.join(', ')}`);
        out.push('  priority = (parent*(1-0.8*nav) + own) / 2   anchor  context  level  url  "anchor text"  [terms]');
        for (const l of links.slice(0, o.links)) {
          const why = [...l.anchorScore.terms, ...l.contextScore.terms].map(([t]) => t);
          const a = l.adaptive;
          const parts = `${a.priority.toFixed(3)} = (${a.inherited.toFixed(2)}*(1-0.8*${a.navigation.toFixed(2)}) + ${(a.anchor > 0 ? a.anchor : 0.5 * a.context).toFixed(2)}) / 2`;
          out.push(`  ${parts}   ${l.anchorScore.score.toFixed(3)}   ${l.contextScore.score.toFixed(3)}   ${l.level}${l.matched ? ` (${l.matched})` : ''}  ${displayUrl(l.url)}  "${l.anchor}"${why.length ? `  [${[...new Set(why)].join(', ')}]` : ''}`);
        }
        process.stdout.write(out.join('\n') + '\n');
      } finally {
        await fetcher.close();
      }
    });
}
