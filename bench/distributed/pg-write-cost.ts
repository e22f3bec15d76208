import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../src/bench/seeded-random.js';
import { urlKey } from '../../src/seen/fingerprint.js';
import { PgStore } from '../../src/store/pg-store.js';
import { procCpuMs } from './proc-cpu.js';
import type { PageRecord } from '../../src/store/store.js';
import type { CrawlRequest } from '../../src/types.js';

/**
 * What recording a fetched page costs PostgreSQL: the page's URL journalled as the Redis frontier
 * journals it (added() in batches of 100), then commit() of the page with its log line from
 * `concurrency` fetches in flight, as one worker commits them. Pages carry `textBytes` bytes of text (UTF-8)
 * from a Zipf-distributed vocabulary (a share of them Chinese, indexed as bigrams) and 30 outlinks.
 * Bytes are pg_total_relation_size (heap, TOAST and indexes, the GIN index included) and the WAL
 * written, divided by the pages.
 *
 *   node dist/bench/distributed/pg-write-cost.js [--pg URL] [--pages 5000] [--text 5000] [--concurrency 8] [--cjk 0.2]
 */
export interface PgWriteCost {
  pages: number;
  textBytes: number;
  concurrency: number;
  /** Wall time of the commits divided by the pages. */
  msPerPage: number;
  pagesPerSecond: number;
  commitMsMedian: number;
  commitMsP99: number;
  /** CPU of this process (building statements and parameters, pg's protocol) per page. */
  clientCpuUsPerPage: number;
  /**
   * CPU of the PostgreSQL backends serving the commits, per page (from /proc, so only when the
   * server runs on this machine; null otherwise). Background writers (WAL, checkpoints) not included.
   */
  serverCpuUsPerPage: number | null;
  journalMsPerUrl: number;
  bytesPerPage: { pages: number; crawlLog: number; urls: number; total: number };
  /** Average stored (compressed) size of the page columns that dominate, and of the GIN index per page. */
  columnBytes: { text: number; tsv: number; outlinks: number; ginIndex: number };
  walBytesPerPage: number;
}

export interface PgWriteCostOptions {
  pages?: number;
  textBytes?: number;
  concurrency?: number;
  /** Share of the pages whose text is Chinese. */
  cjk?: number;
}

const LATIN = 'etaoinshrdlucmfwypvbgkjqxz';
const HAN = '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴';

/** About `bytes` of UTF-8: a Chinese page of 5 KB holds about 1,700 characters. */
function makeText(random: () => number, bytes: number, chinese: boolean): string {
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    let w: string;
    if (chinese) {
      const len = 2 + Math.floor(random() * 12);
      w = Array.from({ length: len }, () => HAN[Math.floor(HAN.length * random() ** 2)]!).join('');
    } else {
      // Zipf-like: most words are a few hundred common ones, the tail is long.
      const rank = Math.floor(1 / (random() + 1e-4));
      w = rank.toString(36).split('').map((d) => LATIN[parseInt(d, 36) % LATIN.length]).join('') + LATIN[rank % 26];
    }
    parts.push(w);
    n += Buffer.byteLength(w) + (chinese ? 3 : 1);
  }
  return parts.join(chinese ? '，' : ' ');
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

export async function measurePgWriteCost(pgUrl: string, o: PgWriteCostOptions = {}): Promise<PgWriteCost> {
  const n = o.pages ?? 5000;
  const textBytes = o.textBytes ?? 5000;
  const concurrency = o.concurrency ?? 8;
  const random = seededRandom(7);
  const reqs: CrawlRequest[] = [];
  const pages: PageRecord[] = [];
  for (let i = 0; i < n; i++) {
    const host = `h${i % 100}.test`;
    const url = `http://${host}/page/${i}`;
    reqs.push({ key: urlKey(url), id: i, url, host, depth: 2, parent: urlKey(`http://${host}/`), anchor: 'a link', priority: random(), data: { m: 0.5 }, attempts: 0, probe: null, sitemap: null });
    const text = makeText(random, textBytes, random() < (o.cjk ?? 0.2));
    pages.push({
      key: urlKey(url), url, finalUrl: url, status: 200, contentType: 'text/html; charset=utf-8', headers: { 'content-type': 'text/html; charset=utf-8', server: 'nginx', 'content-length': String(3 * textBytes) },
      redirects: [], fetchedAt: new Date().toISOString(), fetchMs: 40, bytes: 3 * textBytes, encoding: 'UTF-8', title: text.slice(0, 60), text, canonical: null,
      relevance: random(), noindex: false,
      outlinks: Array.from({ length: 30 }, (_, k) => ({ url: `http://h${(i + k) % 100}.test/page/${(i * 31 + k) % (10 * n)}`, anchor: `link ${k}`, nofollow: false })),
    });
  }
  const schema = `fcbench_${randomBytes(4).toString('hex')}`;
  const tagged = new URL(pgUrl);
  tagged.searchParams.set('application_name', schema);
  const store = await PgStore.connect(tagged.toString(), schema, { poolSize: Math.max(2, concurrency + 2) });
  try {
    const wal0 = await walLsn(store);
    let t = performance.now();
    for (let i = 0; i < n; i += 100) await store.added(reqs.slice(i, i + 100), 'waiting', null);
    const journalMs = performance.now() - t;
    const latencies: number[] = [];
    let next = 0;
    // Open every connection of the pool first, so that the backends measured are the ones that commit.
    await Promise.all(Array.from({ length: concurrency }, () => store.pool.query('SELECT pg_sleep(0.05)')));
    const backends = ((await store.pool.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [schema])).rows as { pid: number }[]).map((r) => r.pid);
    const server0 = backendCpuUs(backends);
    const cpu0 = process.cpuUsage();
    t = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const p = pages[next++]!;
        const t0 = performance.now();
        await store.commit({ key: p.key, page: p, entry: { url: p.url, final_url: p.finalUrl, state: 'done', status: 200, depth: 2, parent: null, anchor: 'a link', title: p.title, relevance: p.relevance, priority: 0.5, fetched_at: p.fetchedAt, error: null } });
        latencies.push(performance.now() - t0);
      }
    }));
    const wall = performance.now() - t;
    const cpu = process.cpuUsage(cpu0);
    const server1 = backendCpuUs(backends);
    const walBytes = await walDiff(store, wal0);
    const size = async (table: string) => ((await store.pool.query(`SELECT pg_total_relation_size('${schema}.${table}')::float8 AS b`)).rows[0] as { b: number }).b / n;
    const col = (await store.pool.query(`SELECT avg(pg_column_size(text))::float8 AS text,
        avg(pg_column_size(tsv))::float8 AS tsv, avg(pg_column_size(outlinks))::float8 AS outlinks, pg_relation_size('${schema}.pages_tsv')::float8 / $1 AS "ginIndex"
      FROM ${schema}.pages`, [n])).rows[0] as PgWriteCost['columnBytes'];
    const bytes = { pages: await size('pages'), crawlLog: await size('crawl_log'), urls: await size('urls'), total: 0 };
    bytes.total = bytes.pages + bytes.crawlLog + bytes.urls;
    latencies.sort((a, b) => a - b);
    return {
      pages: n, textBytes, concurrency, msPerPage: wall / n, pagesPerSecond: (1000 * n) / wall, commitMsMedian: percentile(latencies, 0.5), commitMsP99: percentile(latencies, 0.99),
      clientCpuUsPerPage: (cpu.user + cpu.system) / n, serverCpuUsPerPage: server0 === null || server1 === null ? null : (server1 - server0) / n, journalMsPerUrl: journalMs / n, bytesPerPage: bytes, columnBytes: col, walBytesPerPage: walBytes / n,
    };
  } finally {
    await store.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await store.close();
  }
}

/** utime + stime of the processes, in µs; null when /proc cannot tell. */
function backendCpuUs(pids: number[]): number | null {
  let ms = 0;
  for (const pid of pids) {
    const m = procCpuMs(`/proc/${pid}/stat`);
    if (m === null) return null;
    ms += m;
  }
  return pids.length ? ms * 1000 : null;
}

async function walLsn(store: PgStore): Promise<string> {
  return ((await store.pool.query('SELECT pg_current_wal_lsn()::text AS l')).rows[0] as { l: string }).l;
}

async function walDiff(store: PgStore, from: string): Promise<number> {
  return ((await store.pool.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 AS d', [from])).rows[0] as { d: number }).d;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = argv.indexOf('--' + name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string) => (opt(name) === undefined ? undefined : Number(opt(name)));
  const url = opt('pg') ?? process.env.FOCUSCRAWL_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
  const r = await measurePgWriteCost(url, { pages: num('pages'), textBytes: num('text'), concurrency: num('concurrency'), cjk: num('cjk') });
  const kb = (b: number) => (b / 1024).toFixed(1) + ' KB';
  process.stdout.write(
    `${r.pages} pages of ${r.textBytes} bytes of text, ${r.concurrency} commits in flight:\n` +
    `  commit: ${r.msPerPage.toFixed(2)} ms per page of wall time (${r.pagesPerSecond.toFixed(0)} pages/s), latency median ${r.commitMsMedian.toFixed(1)} ms, p99 ${r.commitMsP99.toFixed(1)} ms, CPU per page: client ${r.clientCpuUsPerPage.toFixed(0)} µs, PostgreSQL backends ${r.serverCpuUsPerPage === null ? 'not measurable here' : r.serverCpuUsPerPage.toFixed(0) + ' µs'}\n` +
    `  journal: ${(1000 * r.journalMsPerUrl).toFixed(0)} µs per URL (batches of 100)\n` +
    `  stored per page: ${kb(r.bytesPerPage.total)} (pages ${kb(r.bytesPerPage.pages)}, crawl_log ${kb(r.bytesPerPage.crawlLog)}, urls ${kb(r.bytesPerPage.urls)}); WAL ${kb(r.walBytesPerPage)}\n` +
    `  of which: text ${kb(r.columnBytes.text)}, tsv ${kb(r.columnBytes.tsv)}, outlinks ${kb(r.columnBytes.outlinks)}, GIN index ${kb(r.columnBytes.ginIndex)}\n`,
  );
}
