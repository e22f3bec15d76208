import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startCrawl } from '../../src/crawl.js';
import { dropCrawl } from '../../src/distributed/drop-crawl.js';
import { openSharedWorker, pgSchema, startSharedCrawl } from '../../src/distributed/shared-crawl.js';
import type { SharedTarget } from '../../src/distributed/shared-target.js';
import type { CrawlConfigInput } from '../../src/config/crawl-config.js';
import { pagesDir, readBuiltSite } from './built-site.js';
import { grade } from './grade.js';
import { labelTargets } from './labels.js';
import { TOPICS, siteOf, topicFile } from './manifest.js';
import { reachable } from './oracle.js';
import { folderPages, serveBuiltSite } from './serve-sites.js';

/**
 * The default strategy in a shared crawl against the embedded crawler, on bench/realweb's sites:
 * does a strategy that learns as it goes lose recall when its evidence is split over workers?
 * Each worker runs its own strategy object and learns only from the pages it fetches itself.
 *
 *   node dist/bench/realweb/shared-workers.js [--topics a,b] [--split tune|report|all] [--strategy adaptive] [--workers 2]
 *
 * Per topic, recall at 10/20/50% of the site's reachable pages for:
 * - embedded, one request at a time (bench:realweb's own reading, a deterministic order);
 * - embedded, `workers` requests at once on the site (one strategy sees every page);
 * - shared: `workers` worker processes' worth of workers (in this process) on Redis and PostgreSQL,
 *   one request each, the same per-site limit, so only the split of the evidence differs.
 * With --rejoin, instead: one shared worker at one request, stopped once it fetched 10% of the
 * site and replaced by a new worker that crawls the rest, against the embedded crawl one request
 * at a time (which one uninterrupted shared worker matches page for page): what the replacement
 * restores of what the first learned decides how close it stays.
 *
 *   node dist/bench/realweb/shared-workers.js --rejoin [--topics a,b] [--split tune|report|all]
 *
 * Needs Redis and PostgreSQL (FOCUSCRAWL_TEST_REDIS, FOCUSCRAWL_TEST_PG, or their local defaults)
 * and the sites built by `npm run bench:realweb -- --build-only`.
 */
const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..', '..', '..', 'bench', 'realweb');
const outRoot = join(benchDir, 'out');
const REDIS = process.env.FOCUSCRAWL_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const PG = process.env.FOCUSCRAWL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

const { values: args } = parseArgs({
  options: {
    topics: { type: 'string' },
    split: { type: 'string', default: 'all' },
    strategy: { type: 'string', default: 'adaptive' },
    workers: { type: 'string', default: '2' },
    'skip-large': { type: 'boolean', default: true },
    rejoin: { type: 'boolean', default: false },
  },
});
const fail = (msg: string): never => {
  process.stderr.write(`shared-workers: ${msg}\n`);
  process.exit(2);
};
const workers = Number(args.workers);
if (!args.rejoin && !(Number.isInteger(workers) && workers >= 2)) fail(`--workers: expected a whole number >= 2, got '${args.workers}'`);
const wanted = args.topics?.split(',').map((s) => s.trim());
for (const t of wanted ?? []) if (!TOPICS.some((x) => x.id === t)) fail(`unknown topic '${t}'`);
const topics = TOPICS.filter((t) => (wanted ? wanted.includes(t.id) : args.split === 'all' || t.split === args.split));
const BUDGETS = [10, 20, 50];

/**
 * Runs `crawl` on a new shared crawl of `perHost` requests at once on the site, then returns its
 * log's URLs in the order the pages were fetched (`fetched_at`, then the commit order): workers
 * commit in batches, so the log's own order is not the fetch order. The crawl is dropped after.
 */
async function sharedCrawlOrder(seed: string, topic: string, maxPages: number, perHost: number, crawl: (config: CrawlConfigInput, target: SharedTarget) => Promise<void>): Promise<string[]> {
  const target = { redis: REDIS, pg: PG, name: `rw${randomBytes(5).toString('hex')}` };
  const config = { seeds: [seed], topic, strategy: args.strategy!, maxPages, concurrency: 1, perHost, delayMs: 0, scope: 'host' as const, maxDepth: 1_000_000, sitemaps: false };
  try {
    await crawl(config, target);
    const db = new pg.Client(PG);
    await db.connect();
    try {
      const r = await db.query(`SELECT url FROM ${pgSchema(target.name)}.crawl_log WHERE state IN ('done', 'error') ORDER BY fetched_at, seq`);
      return r.rows.map((x: { url: string }) => x.url);
    } finally {
      await db.end();
    }
  } finally {
    await dropCrawl(target, { force: true });
  }
}

/** `workers` workers of one request each, started together. */
const sharedOrder = (seed: string, topic: string, maxPages: number) =>
  sharedCrawlOrder(seed, topic, maxPages, workers, async (config, target) => {
    const first = await startSharedCrawl(config, target);
    const others = await Promise.all(Array.from({ length: workers - 1 }, () => openSharedWorker(target, { concurrency: 1 })));
    try {
      await Promise.all([first, ...others].map((w) => w.run()));
    } finally {
      for (const w of [first, ...others]) await w.close();
    }
  });

/** One worker that stops after `handOver` pages, then a new worker that crawls on to `maxPages`. */
const rejoinedOrder = (seed: string, topic: string, maxPages: number, handOver: number) =>
  sharedCrawlOrder(seed, topic, maxPages, 1, async (config, target) => {
    const first = await startSharedCrawl(config, target);
    try {
      let fetched = 0;
      first.crawler.events.on('fetched', () => {
        if (++fetched === handOver) first.crawler.stop({ finishInFlight: true });
      });
      await first.run();
    } finally {
      await first.close();
    }
    const next = await openSharedWorker(target, { concurrency: 1 });
    try {
      await next.run();
    } finally {
      await next.close();
    }
  });

async function embeddedOrder(seed: string, topic: string, maxPages: number, inFlight: number, dbFile: string): Promise<string[]> {
  const crawl = await startCrawl({ seeds: [seed], topic, strategy: args.strategy!, maxPages, concurrency: inFlight, perHost: inFlight, delayMs: 0, scope: 'host', maxDepth: 1_000_000, sitemaps: false, db: dbFile });
  try {
    await crawl.run();
    await crawl.db.settle();
    return (crawl.db.db.prepare("SELECT url FROM crawl_log WHERE state IN ('done', 'error') ORDER BY seq").pluck().all() as string[]);
  } finally {
    await crawl.close();
    rmSync(dbFile, { force: true });
  }
}

const tmp = mkdtempSync(join(tmpdir(), 'fc-realweb-shared-'));
const rows: string[] = [];
const sums = new Map<string, number[]>();
try {
  for (const t of topics) {
    const site = readBuiltSite(outRoot, t.site) ?? fail(`site ${t.site} is not built: npm run bench:realweb -- --build-only`);
    const reach = reachable(site);
    if (args['skip-large'] && reach.size > 5000) continue;
    const def = siteOf(t);
    const served = await serveBuiltSite({ port: 0, encoding: def.encoding, page: folderPages(pagesDir(outRoot, t.site)) });
    try {
      const origin = served.origin;
      const targets = new Set([...labelTargets(site, t.label)].filter((i) => reach.has(i)).map((i) => origin + site.urls[i]!));
      const budgetPages = Object.fromEntries(BUDGETS.map((b) => [String(b), Math.max(1, Math.round((reach.size * b) / 100))]));
      const maxPages = Math.max(...Object.values(budgetPages));
      const file = join(benchDir, topicFile(t));
      const seed = origin + '/';
      const modes: [string, () => Promise<string[]>][] = args.rejoin ? [
        ['embedded, 1 at a time', () => embeddedOrder(seed, file, maxPages, 1, join(tmp, `${t.id}-1.db`))],
        ['shared, 1 worker replaced at 10%', () => rejoinedOrder(seed, file, maxPages, budgetPages['10']!)],
      ] : [
        ['embedded, 1 at a time', () => embeddedOrder(seed, file, maxPages, 1, join(tmp, `${t.id}-1.db`))],
        [`embedded, ${workers} at a time`, () => embeddedOrder(seed, file, maxPages, workers, join(tmp, `${t.id}-n.db`))],
        [`shared, ${workers} workers x 1`, () => sharedOrder(seed, file, maxPages)],
      ];
      const cells: string[] = [];
      for (const [mode, run] of modes) {
        const g = grade(await run(), targets, budgetPages);
        const r = BUDGETS.map((b) => 100 * g.recall[String(b)]!);
        cells.push(r.map((x) => x.toFixed(1)).join(' / '));
        const s = sums.get(mode) ?? [0, 0, 0, 0];
        r.forEach((x, i) => (s[i]! += x));
        s[3]!++;
        sums.set(mode, s);
        process.stderr.write(`${t.id} (${t.split}) ${mode}: ${cells[cells.length - 1]}\n`);
      }
      rows.push(`| ${t.id} | ${t.split} | ${targets.size} | ${cells.join(' | ')} |`);
    } finally {
      await served.close();
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const modes = [...sums.keys()];
const mean = (m: string) => {
  const s = sums.get(m)!;
  return s.slice(0, 3).map((x) => (x / s[3]!).toFixed(1)).join(' / ');
};
process.stdout.write(
  [
    `Recall (%) at ${BUDGETS.join('/')}% of each site, strategy ${args.strategy}; ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`,
    '',
    `| topic | split | targets | ${modes.join(' | ')} |`,
    `|---|---|---|${modes.map(() => '---|').join('')}`,
    ...rows,
    `| mean | | | ${modes.map(mean).join(' | ')} |`,
  ].join('\n') + '\n',
);
