import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPage } from '../../src/bench/generated-site.js';
import { parseHtml } from '../../src/parse/html-page.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { FTS_BATCH, SqliteStore } from '../../src/store/sqlite-store.js';
import type { PageRecord } from '../../src/store/store.js';
import { urlKey } from '../../src/seen/fingerprint.js';
import { BENCH_SITE } from '../throughput/site.js';

/**
 * bench/store: what storing a page costs the writer, on one core, with no network and no other
 * thread competing: the pages of bench/throughput's site, parsed beforehand, written through
 * SqliteStore on an inline connection, committed every 16 pages as a crawl at about 1,500 pages/s
 * commits them. Compared with the same pages and rows when the full-text index is updated in the
 * transaction that stores each page (focuscrawl before the fts_pending queue), and with no
 * full-text index at all (the floor of the page rows alone).
 *
 *   npm run bench:store -- [--pages 4000] [--rounds 3] [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const argv = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf('--' + name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const N = opt('pages', 4000);
const ROUNDS = opt('rounds', 3);
const PER_COMMIT = 16;

const pages: PageRecord[] = [];
for (let i = 0; i < N; i++) {
  const url = `http://127.0.0.1:8080/p/${i}`;
  const p = parseHtml(renderPage(BENCH_SITE, i)!, url);
  pages.push({
    key: urlKey(url), url, finalUrl: url, status: 200, contentType: 'text/html', headers: { 'content-type': 'text/html', server: 'nginx' },
    redirects: [], fetchedAt: new Date(0).toISOString(), fetchMs: 1.5, bytes: 12_000, encoding: 'UTF-8', title: p.title, text: p.text,
    canonical: null, relevance: null, noindex: false, outlinks: p.links,
  });
}
const chars = pages.reduce((s, p) => s + (p.text?.length ?? 0), 0) / N;

type Mode = 'batched' | 'per-page' | 'none';
const LABEL: Record<Mode, string> = {
  batched: `full-text index updated every ${FTS_BATCH} pages (fts_pending; focuscrawl now)`,
  'per-page': 'full-text index updated in each page\'s transaction (before)',
  none: 'no full-text index (page rows and crawl log only)',
};

/** CPU microseconds per page for writing every page in `mode`, index included. */
async function measure(mode: Mode): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'fc-store-bench-'));
  const db = new SqliteDb(join(dir, 'store.db'), { create: true, writer: 'inline' });
  const store = new SqliteStore(db);
  const oldIndex = db.db.prepare("INSERT INTO pages_fts(rowid, title, text) VALUES (?, cjk_bigrams(?), cjk_bigrams(?))");
  const cpu0 = process.cpuUsage();
  pages.forEach((p, i) => {
    // The page as a crawl saves it: its log line and its row (with the fts_pending entry).
    void store.commit({ key: p.key, page: p, entry: { url: p.url, final_url: p.finalUrl, state: 'done', status: 200, depth: 1, parent: null, anchor: 'a', title: p.title,
      relevance: null, priority: 0, fetched_at: p.fetchedAt, error: null } });
    if ((i + 1) % PER_COMMIT === 0 || i === N - 1) {
      db.flush();
      if (mode !== 'batched') {
        // Undo the queue and, for per-page, index this commit's pages the old way.
        db.db.transaction(() => {
          if (mode === 'per-page') {
            // Row ids are 1, 2, ... in save order (the store gives each page's URL its row).
            for (let j = i - (i % PER_COMMIT); j <= i; j++) oldIndex.run(j + 1, pages[j]!.title, pages[j]!.text);
          }
          db.db.exec('DELETE FROM fts_pending');
        })();
      }
    }
  });
  if (mode === 'batched') {
    store.indexPending();
    db.flush();
  }
  const cpu = process.cpuUsage(cpu0);
  const indexed = db.db.prepare('SELECT count(*) FROM pages_fts_docsize').pluck().get() as number;
  if (mode !== 'none' && indexed !== N) throw new Error(`${mode}: ${indexed} of ${N} pages indexed`);
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  return (cpu.user + cpu.system) / N;
}

const modes: Mode[] = ['per-page', 'batched', 'none'];
const results = new Map<Mode, number[]>(modes.map((m) => [m, []]));
for (let r = 0; r < ROUNDS; r++) for (const m of modes) results.get(m)!.push(await measure(m));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const lines = [
  `## ${new Date().toISOString().slice(0, 10)}: the writer's cost per page (bench/store)`,
  '',
  `Command: \`npm run bench:store -- --pages ${N} --rounds ${ROUNDS}\``,
  `Machine: ${cpus()[0]?.model.trim()}, Node ${process.version}, one core, inline writer, a commit every ${PER_COMMIT} pages.`,
  `Pages: bench/throughput's site, the first ${N} (${Math.round(chars)} characters of text on average, CJK as bigrams).`,
  '',
  '| writes | CPU µs per page, median (range) |',
  '|---|---|',
  ...modes.map((m) => {
    const xs = results.get(m)!;
    return `| ${LABEL[m]} | ${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}) |`;
  }),
  '',
];
console.log(lines.join('\n'));
if (!argv.includes('--no-record')) appendFileSync(join(repo, 'bench', 'RESULTS.md'), '\n' + lines.join('\n') + '\n');
