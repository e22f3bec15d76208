import Database from 'better-sqlite3';
import { rankableDocs } from '../../src/group/group-ranking.js';
import { GROUP_TOKENS } from '../../src/group/anchor-path.js';
import { SiteTerms } from '../../src/strategies/site-terms.js';
import { SqliteCrawlGraphReader } from '../../src/store/sqlite-crawl-graph-reader.js';

/**
 * Does a site's title affix ("… — h5py 3.7.0 documentation") survive into the group ranking?
 * For a kept crawl (run.js --keep-db DIR), per host: the affix terms SiteTerms finds in its titles,
 * and on how many of the host's ranked pages each is still in the name and in the words after
 * page-vectors.ts's boilerplate removal.
 *   node dist/bench/group-real/site-affixes.js DIR/license-0-bfc.db
 */
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node dist/bench/group-real/site-affixes.js CRAWL.db\n');
  process.exit(2);
}
const db = new Database(file, { readonly: true });
const graph = new SqliteCrawlGraphReader(db);
const rows = await graph.storedTexts();
const site = new SiteTerms(GROUP_TOKENS);
for (const r of rows) site.observe(r.host, r.title ?? '');
const { docs } = await rankableDocs(graph);
db.close();
const byHost = new Map<string, typeof docs>();
for (const d of docs) (byHost.get(d.host) ?? byHost.set(d.host, []).get(d.host)!).push(d);
let kept = 0;
for (const [host, list] of byHost) {
  const affix = [...site.of(host)].map((t) => ({ t, names: list.filter((d) => d.name.has(t)).length, words: list.filter((d) => d.terms.has(t)).length }));
  kept += affix.reduce((a, x) => a + x.names + x.words, 0);
  process.stdout.write(`${host}\t${list.length} pages\t${affix.map((x) => `${x.t}: ${x.names} names, ${x.words} words`).join('; ') || '(no shared title affix)'}\n`);
}
process.stdout.write(`affix terms left in names or words: ${kept}\n`);
