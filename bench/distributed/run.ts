import { spawn } from 'node:child_process';
import { benchConfigFlags, fetchedThisRun } from './bench-config.js';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { serveMultiHostWeb, type MultiHostWeb } from '../../src/bench/multi-host-web.js';
import { pgSchema, redisPrefix } from '../../src/distributed/shared-crawl.js';
import { dropCrawlKeys } from '../../src/distributed/rebuild-frontier.js';
import { optionValue } from '../option-value.js';
import { pinOrExit, UNPINNED, type CpuPinning } from './cpu-pinning.js';

/**
 * bench/distributed: the shared crawl (Redis frontier, PostgreSQL repository) with 1, 2 and 4
 * worker processes against the embedded crawler, on one local web of 100 hosts and 50,000 pages;
 * Redis round trips, bytes and memory per URL, PostgreSQL write cost per page, seen-cache hits.
 *
 *   npm run bench:distributed -- [--hosts 100] [--pages-per-host 500] [--concurrency 32] [--workers 1,2,4] [--rounds 1] [--pin] [--no-record]
 *
 * `--pin` puts Redis, PostgreSQL and this driver (the web server) on core 0 and the crawlers on the
 * others, as if the services ran on machines of their own (cpu-pinning.ts).
 *
 * `--rounds N` repeats the whole comparison N times and adds each worker count's median share of
 * the embedded crawler's pages/s: on a shared VM one run's share moves by about 5 points.
 *   npm run bench:distributed -- --waiting-only    (only the Redis memory per waiting URL, by key kind; records nothing)
 *
 * Needs Redis on 127.0.0.1:6379 and PostgreSQL on 127.0.0.1:5432 (database test), as the tests.
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const CLI = join(repo, 'bin', 'focuscrawl.js');
const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => optionValue(argv, name, fallback);
const HOSTS = Number(opt('hosts', '100'));
const PER_HOST = Number(opt('pages-per-host', '500'));
const CONCURRENCY = Number(opt('concurrency', '32'));
const WORKERS = opt('workers', '1,2,4').split(',').map(Number);
const ROUNDS = Number(opt('rounds', '1'));
const waitingOnly = argv.includes('--waiting-only');
// Pinned in main, right before the runs, so that a failure before them leaves every process as it was.
let PIN: CpuPinning = UNPINNED;
const record = !argv.includes('--no-record') && !waitingOnly;
const REDIS = process.env.FOCUSCRAWL_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const PG = process.env.FOCUSCRAWL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = PIN.spawnArgs(process.execPath, [CLI, ...args]);
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function check(r: Run, what: string): Run {
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${r.stderr.slice(-500)}`);
  return r;
}

const BENCH_CONFIG = benchConfigFlags();
const crawlFlags = (web: MultiHostWeb, concurrency: number, maxPages = HOSTS * PER_HOST) => [
  '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--per-host', '2', '--delay-ms', '0', '--concurrency', String(concurrency),
  '--max-pages', String(maxPages), '--max-depth', '100000', '--no-sitemaps', '--no-robots', ...BENCH_CONFIG,
];

async function redisStats(redis: Redis): Promise<{ netBytes: number; memory: number; cpuSeconds: number }> {
  const stats = await redis.info('stats');
  const mem = await redis.info('memory');
  const cpu = await redis.info('cpu');
  const field = (text: string, name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0);
  return {
    netBytes: field(stats, 'total_net_input_bytes') + field(stats, 'total_net_output_bytes'),
    memory: field(mem, 'used_memory'),
    cpuSeconds: field(cpu, 'used_cpu_user') + field(cpu, 'used_cpu_sys'),
  };
}

/** MEMORY USAGE summed over the crawl's keys matching `pattern` (SCAN: a benchmark, not a crawl). */
async function memoryOf(redis: Redis, prefix: string, pattern: string): Promise<{ bytes: number; keys: number }> {
  let cursor = '0';
  let bytes = 0;
  let keys = 0;
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:${pattern}`, 'COUNT', 1000);
    cursor = next;
    for (const k of found) {
      bytes += Number((await redis.call('MEMORY', 'USAGE', k, 'SAMPLES', '0')) ?? 0);
      keys++;
    }
  } while (cursor !== '0');
  return { bytes, keys };
}

async function counters(redis: Redis, prefix: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*:n`, 'COUNT', 1000);
    cursor = next;
    for (const k of found) for (const [f, v] of Object.entries(await redis.hgetall(k))) out[f] = (out[f] ?? 0) + Number(v);
  } while (cursor !== '0');
  return out;
}

async function dropCrawl(redis: Redis, db: pg.Client, name: string): Promise<void> {
  await dropCrawlKeys(redis, redisPrefix(name));
  await db.query(`DROP SCHEMA IF EXISTS ${pgSchema(name)} CASCADE`);
}

/** The keys a waiting URL costs (all but the seen set, leases and counters), by what they hold. */
const WAITING_KEYS: [string, string[]][] = [
  ['host queues', ['*:q:*']],
  ['carried state', ['*:u:*', '*:ul']],
  ['host records', ['*:h:*']],
  ['heaps and host set', ['*:wait', '*:ready', '*:hosts']],
];

const sum = (re: RegExp, texts: string[]) => texts.reduce((s, t) => s + Number(re.exec(t)?.[1] ?? 0), 0);

async function main(): Promise<void> {
  const web = await serveMultiHostWeb({ hosts: HOSTS, pagesPerHost: PER_HOST });
  const pages = HOSTS * PER_HOST;
  const redis = new Redis(REDIS);
  const db = new pg.Client(PG);
  await db.connect();
  const rows: string[] = [];
  const notes: string[] = [];
  if (argv.includes('--pin') && !waitingOnly) PIN = pinOrExit();
  try {
    process.stderr.write(`web: ${HOSTS} hosts, ${pages} pages\n`);
    const shares = new Map<number, number[]>();
    for (let round = 1; round <= ROUNDS && !waitingOnly; round++) {
      const label = ROUNDS > 1 ? `, round ${round}` : '';
      // The embedded crawl runs before and after the shared ones: this shared machine drifts, and
      // the ratio is taken against the mean of the two.
      const embedded = async (): Promise<number> => {
        process.stderr.write(`embedded${label}...\n`);
        const file = join(mkdtempSync(join(tmpdir(), 'fc-bench-dist-')), 'embedded.db');
        const t = performance.now();
        const r = check(await cli(['crawl', '--db', file, ...crawlFlags(web, CONCURRENCY)]), 'embedded crawl');
        const fetched = fetchedThisRun(r.stdout);
        if (fetched !== pages) throw new Error(`the embedded crawl fetched ${fetched} of the web's ${pages} pages`);
        return (performance.now() - t) / 1000;
      };
      const embeddedFirst = await embedded();
      let t0 = 0;
      const shared: { n: number; rate: number; row: string }[] = [];
      for (const n of WORKERS) {
        const name = `bench${randomBytes(4).toString('hex')}`;
        const target = ['--redis', REDIS, '--pg', PG, '--name', name];
        process.stderr.write(`${n} worker(s)${label}...\n`);
        check(await cli(['crawl', ...target, '--seed-only', ...crawlFlags(web, CONCURRENCY)]), 'seeding');
        const before = await redisStats(redis);
        t0 = performance.now();
        const runs = await Promise.all(Array.from({ length: n }, () => cli(['worker', ...target])));
        const secs = (performance.now() - t0) / 1000;
        runs.forEach((r, i) => check(r, `worker ${i + 1}`));
        const after = await redisStats(redis);
        const stored = Number((await db.query(`SELECT count(*) AS n FROM ${pgSchema(name)}.pages`)).rows[0].n);
        const outs = runs.map((r) => r.stdout);
        const trips = sum(/Redis: (\d+) round trips/, outs);
        const hits = sum(/URL-seen cache: (\d+) hits/, outs);
        const misses = sum(/URL-seen cache: \d+ hits, (\d+) misses/, outs);
        const commits = sum(/PostgreSQL: (\d+) commits/, outs);
        const commitMs = runs.reduce((s, r) => {
          const m = /PostgreSQL: (\d+) commits, ([\d.]+) ms each/.exec(r.stdout);
          return s + (m ? Number(m[1]) * Number(m[2]) : 0);
        }, 0);
        const pgBytes = Number((await db.query(`SELECT sum(pg_total_relation_size(c.oid))::bigint AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind = 'r'`, [pgSchema(name)])).rows[0].n);
        const rate = stored / secs;
        const redisCpuMs = (1000 * (after.cpuSeconds - before.cpuSeconds)) / stored;
        shared.push({ n, rate, row: `| shared (Redis + PostgreSQL)${label} | ${n} | ${CONCURRENCY} each | ${stored} | ${secs.toFixed(1)} | ${rate.toFixed(0)} | RATIO | ${(trips / stored).toFixed(2)} | ${((after.netBytes - before.netBytes) / stored).toFixed(0)} | ${redisCpuMs.toFixed(3)} ms | ${commits ? (commitMs / commits).toFixed(2) : '-'} ms, ${(pgBytes / stored / 1024).toFixed(1)} KiB | ${hits + misses ? ((100 * hits) / (hits + misses)).toFixed(1) : '-'}% |` });
        if (n === WORKERS[0] && round === 1) {
          const c = await counters(redis, redisPrefix(name));
          const seen = await memoryOf(redis, redisPrefix(name), '*:seen:*');
          notes.push(`Redis memory per seen URL: ${(seen.bytes / c.seen!).toFixed(1)} bytes (${c.seen} fingerprints in ${seen.keys} intset buckets, MEMORY USAGE)`);
        }
        await dropCrawl(redis, db, name);
      }

      const embeddedLast = await embedded();
      const embeddedRate = (pages / embeddedFirst + pages / embeddedLast) / 2;
      rows.push(`| embedded (SQLite), before and after${label} | 1 | ${CONCURRENCY} | ${pages} | ${embeddedFirst.toFixed(1)}, ${embeddedLast.toFixed(1)} | ${embeddedRate.toFixed(0)} (mean) | 100% | - | - | - | - | - |`);
      for (const r of shared) {
        const share = (100 * r.rate) / embeddedRate;
        (shares.get(r.n) ?? shares.set(r.n, []).get(r.n)!).push(share);
        rows.push(r.row.replace('RATIO', `${share.toFixed(0)}%`));
      }
    }
    if (ROUNDS > 1) {
      for (const [n, xs] of shares) {
        const s = [...xs].sort((a, b) => a - b);
        const median = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
        notes.push(`${n} worker${n > 1 ? 's' : ''} over ${ROUNDS} rounds: median ${median.toFixed(0)}% of the embedded crawler (${s.map((x) => x.toFixed(0)).join(', ')}%)`);
      }
    }

    // Waiting URLs: a crawl stopped early, with most of what it found still waiting.
    const name = `bench${randomBytes(4).toString('hex')}`;
    const target = ['--redis', REDIS, '--pg', PG, '--name', name];
    check(await cli(['crawl', ...target, '--seed-only', ...crawlFlags(web, CONCURRENCY, 3000)]), 'seeding');
    check(await cli(['worker', ...target]), 'worker');
    const c = await counters(redis, redisPrefix(name));
    let waitingBytes = 0;
    const parts: string[] = [];
    for (const [part, patterns] of WAITING_KEYS) {
      let bytes = 0;
      for (const pattern of patterns) bytes += (await memoryOf(redis, redisPrefix(name), pattern)).bytes;
      waitingBytes += bytes;
      parts.push(`${part} ${(bytes / c.waiting!).toFixed(1)}`);
    }
    notes.push(`Redis memory per waiting URL: ${(waitingBytes / c.waiting!).toFixed(0)} bytes (${c.waiting} waiting after 3,000 fetches: ${parts.join(', ')}; MEMORY USAGE)`);
    await dropCrawl(redis, db, name);
  } finally {
    PIN.restore();
    redis.disconnect();
    await db.end();
    await web.close();
  }
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const table = [
    `## bench/distributed (${new Date().toISOString().slice(0, 10)}): shared workers against the embedded crawler`,
    '',
    `\`npm run bench:distributed -- --hosts ${HOSTS} --pages-per-host ${PER_HOST} --concurrency ${CONCURRENCY} --workers ${WORKERS.join(',')}${ROUNDS > 1 ? ` --rounds ${ROUNDS}` : ''}${PIN === UNPINNED ? '' : ' --pin'}\``,
    '',
    `Machine: ${cpus().length} cores (${cpu}), Node ${process.version}; Redis, PostgreSQL, the web server and every crawler process on the same machine (${PIN.label}).`,
    `Web: ${HOSTS} hosts on 127.0.0.1, ${pages} pages (about 2 KB, 9 links each), per host 2 requests at once, no delay, no robots.txt or sitemaps.`,
    '',
    '| crawler | workers | concurrency | pages stored | seconds | pages/s | of embedded | Redis round trips / page | Redis bytes / page | Redis CPU / page | PostgreSQL commit, size / page | seen-cache hits |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  process.stdout.write((waitingOnly ? notes.map((n) => `- ${n}`).join('\n') : table) + '\n');
  if (record) appendFileSync(join(repo, 'bench', 'RESULTS.md'), '\n' + table);
}

await main();
