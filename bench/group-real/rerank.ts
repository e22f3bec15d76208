import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteCrawlGraphReader } from '../../src/store/sqlite-crawl-graph-reader.js';
import { nearestSampleScore, rankableDocs, type RankedDoc } from '../../src/group/group-ranking.js';
import { DEFAULT_SELECTION, selectTargets, selectionCuts, type SelectionRule } from '../../src/group/target-selection.js';
import { sectionIndexes, withSectionParts } from '../../src/group/section-parts.js';
import { prf } from '../group/selection-sweep.js';
import { cosineOf } from '../../src/relevance/tfidf-space.js';

/**
 * Offline re-ranking of kept crawls (run.ts --keep-db, with --out / --dump JSON for the labels and
 * examples): the rounds' library growth replayed on the final crawl under other ranking settings.
 * A proxy for tuning, not a benchmark: the crawl itself is the one the kept run made.
 *   node dist/bench/group-real/run.js --kinds license --methods bfc --no-record --keep-db DB --out JSON
 *   node dist/bench/group-real/rerank.js DB JSON license [nameWeight,...]   (SHOW_ERRORS=1: list wrong selections)
 * For bench/group: run.js --dump JSON --keep-db DB, prefix 'group'.
 */
const [dbDir, jsonDir, prefix, weights] = process.argv.slice(2) as [string, string, string, string?];
const rule: SelectionRule = DEFAULT_SELECTION;
const ws = (weights ?? '0,0.25,0.5,0.75').split(',').map(Number);

const runs = await Promise.all(readdirSync(jsonDir).filter((f) => f.startsWith(prefix) && f.endsWith('-bfc.json')).sort().map(async (f) => {
  const j = JSON.parse(readFileSync(join(jsonDir, f), 'utf8')) as { samples: string[]; examples?: { url: string }[]; pages: { url: string; label: boolean; zh?: boolean }[] };
  const gen = /^group-\d+-(\d+)-bfc\.json$/.exec(f);
  const db = new Database(join(dbDir, gen ? `bfc-${gen[1]}.db` : f.replace('.json', '.db')), { readonly: true });
  const graph = new SqliteCrawlGraphReader(db);
  const ranked = await rankableDocs(graph);
  const sections = sectionIndexes(await graph.storedTexts());
  db.close();
  return { j, ranked, sections };
}));
const show = process.env.SHOW_ERRORS === '1';
for (const w of ws) {
  const rows: ReturnType<typeof prf>[] = [];
  let bestHits = 0;
  let sitesWith = 0;
  let zh = 0;
  for (const { j, ranked, sections } of runs) {
    const byUrl = new Map(ranked.docs.map((d) => [d.url, d]));
    const labels = new Set(j.pages.filter((p) => p.label).map((p) => p.url));
    const exampleUrls = j.examples ? j.examples.map((e) => e.url) : j.samples.slice(0, 3);
    const nEx = exampleUrls.length;
    const lib: RankedDoc[] = exampleUrls.map((u) => byUrl.get(u)).filter((d): d is RankedDoc => !!d);
    const score = () => ranked.docs.map((d) => ({ d, site: d.host, score: nearestSampleScore(d, lib, 0, w, lib.slice(0, nEx)), sample: lib.includes(d) }));
    for (let round = 1; round < 3; round++) {
      const scored = score();
      const t = selectTargets(scored, rule);
      const best = new Map<string, { d: RankedDoc; score: number }>();
      const pick = (ok: (i: number) => boolean) => {
        best.clear();
        scored.forEach((x, i) => { if (!x.sample && ok(i) && x.score > (best.get(x.site)?.score ?? 0)) best.set(x.site, x); });
      };
      pick((i) => t[i]!);
      if (!best.size) {
        const { sites } = selectionCuts(scored, { ...rule, overGroup: 0 });
        pick((i) => scored[i]!.score > 0 && scored[i]!.score >= (sites.get(scored[i]!.site) ?? Infinity));
      }
      if (!best.size) break;
      for (const { d } of [...best.values()].sort((a, b) => b.score - a.score).slice(0, 20)) lib.push(d);
    }
    const scored = score();
    const { noise } = selectionCuts(scored, rule);
    const byScore = selectTargets(scored, rule);
    const named = (d: RankedDoc) => Math.max(0, ...lib.slice(0, nEx).map((e) => cosineOf(d.nameVector, e.nameVector)));
    const t = withSectionParts(scored.map((x, i) => ({ url: x.d.url, score: x.score, sample: x.sample, target: byScore[i]!, entry: x.d.path.length === 0, nameLikeness: named(x.d) })), sections, noise, rule.sectionParts!);
    const pages = scored.map((x, i) => ({ site: x.site, root: x.site, url: x.d.url, path: x.d.path, score: x.score, target: t[i]! }));
    rows.push(prf(pages, labels, new Set(exampleUrls)));
    const zhUrls = new Set(j.pages.filter((p) => p.zh).map((p) => p.url));
    zh += pages.filter((p) => p.target && zhUrls.has(p.url)).length;
    if (show) for (const p of pages) if (p.target !== labels.has(p.url)) process.stdout.write(`  ${p.target ? 'FP' : 'FN'} ${p.score.toFixed(3)} ${p.site} ${byUrl.get(p.url)!.name.size ? [...byUrl.get(p.url)!.name.keys()].join(' ') : ''} | ${p.path.join(' > ')}\n`);
    const bySite = new Map<string, typeof pages>();
    for (const p of pages) (bySite.get(p.site) ?? bySite.set(p.site, []).get(p.site)!).push(p);
    for (const list of bySite.values()) {
      if (!list.some((p) => labels.has(p.url))) continue;
      sitesWith++;
      list.sort((a, b) => b.score - a.score);
      if (labels.has(list[0]!.url)) bestHits++;
    }
  }
  const m = (k: 'precision' | 'recall' | 'f1') => (rows.reduce((a, r) => a + r[k], 0) / rows.length).toFixed(2);
  process.stdout.write(`${prefix} nameWeight ${w}: P ${m('precision')} R ${m('recall')} F1 ${m('f1')}; best page a target on ${bestHits}/${sitesWith} site-runs; ${zh} Chinese targets returned\n`);
}
