import { spawn } from 'node:child_process';
import { benchConfigFlags, fetchedThisRun } from './bench-config.js';
import { mkdtempSync } from 'node:fs';
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
import { procCpuMs } from './proc-cpu.js';
import { pinOrExit, UNPINNED, type CpuPinning } from './cpu-pinning.js';

/**
 * CPU milliseconds per fetched page, by process: one shared worker (and the Redis and PostgreSQL
 * work it causes) against the embedded crawler, on the same local web, in the same run. CPU time
 * is what a busy 2-core machine shared with other work barely changes; pages/s is printed too.
 *
 *   node dist/bench/distributed/cpu-per-page.js [--hosts 100] [--pages-per-host 500] [--concurrency 32] [--rounds 1] [--prof DIR] [--pin]
 *
 * - crawler processes: process.cpuUsage() at exit (cpu-report.ts, loaded with --import), every thread,
 *   and in the notes under the table the main thread alone with its involuntary context switches,
 *   the other threads alive at exit, and the rest (threads that ended: SQLite's writer);
 * - Redis: INFO cpu (used_cpu_user + used_cpu_sys) before and after the worker;
 * - PostgreSQL: the worker's backends (application_name, set through PGAPPNAME) read from
 *   /proc/<pid>/stat every 100 ms while they live, and the server's background processes
 *   (WAL writer, checkpointer, ...) from before to after;
 * - the web server and this driver: this process's CPU over the run.
 * `--prof DIR` runs every crawler process under `node --cpu-prof --cpu-prof-dir DIR`.
 * `--pin` puts Redis, PostgreSQL and this driver on core 0 and each crawler on the others (cpu-pinning.ts).
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const CLI = join(repo, 'bin', 'focuscrawl.js');
const HOOK = join(here, 'cpu-report.js');
const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => optionValue(argv, name, fallback);
const HOSTS = Number(opt('hosts', '100'));
const PER_HOST = Number(opt('pages-per-host', '500'));
const CONCURRENCY = Number(opt('concurrency', '32'));
const ROUNDS = Number(opt('rounds', '1'));
const PROF = opt('prof', '');
// Pinned in main, right before the runs, so that a failure before them leaves every process as it was.
let PIN: CpuPinning = UNPINNED;
const REDIS = process.env.FOCUSCRAWL_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const PG = process.env.FOCUSCRAWL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  cpuMs: number;
  secs: number;
  /** CPU of the main thread alone (Linux), and the times the kernel took the CPU from the process. */
  mainMs: number;
  involuntary: number;
  /** CPU of the threads alive at exit besides the main one (garbage-collector helpers, libuv's pool). */
  otherMs: number;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const flags = ['--import', HOOK, ...(PROF ? ['--cpu-prof', '--cpu-prof-dir', PROF] : [])];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const [command, commandArgs] = PIN.spawnArgs(process.execPath, [...flags, CLI, ...args]);
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /CPU-USAGE-US (\d+) (\d+)/.exec(stderr);
      const t = /MAIN-THREAD-MS (\d+) INVOLUNTARY (\d+)/.exec(stderr);
      const o = /OTHER-THREADS-MS (\d+)/.exec(stderr);
      const run = {
        code, stdout, stderr, cpuMs: m ? (Number(m[1]) + Number(m[2])) / 1000 : NaN, secs: (performance.now() - t0) / 1000,
        mainMs: t ? Number(t[1]) : NaN, involuntary: t ? Number(t[2]) : NaN, otherMs: o ? Number(o[1]) : NaN,
      };
      if (code !== 0) reject(new Error(`focuscrawl ${args[0]} failed (exit ${code}): ${stderr.slice(-800)}`));
      else resolve(run);
    });
  });
}

const BENCH_CONFIG = benchConfigFlags();
const crawlFlags = (web: MultiHostWeb) => [
  '--seeds', ...web.roots, '--hosts', web.hosts.join(','), '--per-host', '2', '--delay-ms', '0', '--concurrency', String(CONCURRENCY),
  '--max-pages', String(HOSTS * PER_HOST), '--max-depth', '100000', '--no-sitemaps', '--no-robots', ...BENCH_CONFIG,
];


/** PostgreSQL CPU while a worker runs: its backends by application name, and the server's background processes. */
class PgCpuSampler {
  readonly #db: pg.Client;
  readonly #app: string;
  readonly #backends = new Map<number, number>();
  readonly #background = new Map<number, { first: number; last: number }>();
  #timer: NodeJS.Timeout | null = null;
  #busy = false;

  constructor(db: pg.Client, app: string) {
    this.#db = db;
    this.#app = app;
  }

  async #sample(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      const r = await this.#db.query(`SELECT pid, application_name AS app, backend_type AS type FROM pg_stat_activity`);
      for (const row of r.rows as { pid: number; app: string; type: string }[]) {
        const ms = procCpuMs(`/proc/${row.pid}/stat`);
        if (ms === null) continue;
        if (row.app === this.#app) this.#backends.set(row.pid, ms);
        else if (row.type !== 'client backend') {
          const b = this.#background.get(row.pid);
          if (b) b.last = ms;
          else this.#background.set(row.pid, { first: ms, last: ms });
        }
      }
    } finally {
      this.#busy = false;
    }
  }

  async start(): Promise<void> {
    await this.#sample();
    this.#timer = setInterval(() => void this.#sample(), 100);
  }

  async stop(): Promise<{ backendsMs: number; backgroundMs: number }> {
    if (this.#timer) clearInterval(this.#timer);
    while (this.#busy) await new Promise((r) => setTimeout(r, 10));
    await this.#sample();
    let backgroundMs = 0;
    for (const b of this.#background.values()) backgroundMs += b.last - b.first;
    return { backendsMs: [...this.#backends.values()].reduce((a, b) => a + b, 0), backgroundMs };
  }
}

/** Redis CPU (ms) and commands processed so far (each EVALSHA counts once, as does each command in a pipeline). */
async function redisCounters(redis: Redis): Promise<{ cpuMs: number; commands: number }> {
  const text = (await redis.info('cpu')) + (await redis.info('stats'));
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0);
  return { cpuMs: 1000 * (field('used_cpu_user') + field('used_cpu_sys')), commands: field('total_commands_processed') };
}

/** Transactions committed in the database so far (every statement outside BEGIN is one). */
async function pgCommits(db: pg.Client): Promise<number> {
  return Number((await db.query(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`)).rows[0].xact_commit);
}

async function dropCrawl(redis: Redis, db: pg.Client, name: string): Promise<void> {
  await dropCrawlKeys(redis, redisPrefix(name));
  await db.query(`DROP SCHEMA IF EXISTS ${pgSchema(name)} CASCADE`);
}

/**
 * The main thread's CPU per page and share of the wall time, involuntary context switches per
 * page, and the rest of the process's CPU per page: threads alive at exit (the garbage
 * collector's helpers, libuv's pool) and threads that ended before (SQLite's writer).
 */
const mainThread = (r: Run, pages: number) =>
  `main thread ${(r.mainMs / pages).toFixed(3)} ms CPU per page, busy ${((100 * r.mainMs) / 1000 / r.secs).toFixed(0)}% of the wall time, ${(r.involuntary / pages).toFixed(2)} involuntary context switches per page; ` +
  `other threads ${(r.otherMs / pages).toFixed(3)} ms per page, threads ended before exit ${(Math.max(0, r.cpuMs - r.mainMs - r.otherMs) / pages).toFixed(3)}`;

const driverCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const web = await serveMultiHostWeb({ hosts: HOSTS, pagesPerHost: PER_HOST });
  const pages = HOSTS * PER_HOST;
  const redis = new Redis(REDIS);
  const db = new pg.Client(PG);
  await db.connect();
  const rows: string[] = [];
  const notes: string[] = [];
  const shares: number[] = [];
  const per = (ms: number, n: number) => (ms / n).toFixed(3);
  if (argv.includes('--pin')) PIN = pinOrExit();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`round ${round}: embedded...\n`);
      const file = join(mkdtempSync(join(tmpdir(), 'fc-bench-cpu-')), 'embedded.db');
      let d0 = driverCpuMs();
      const e = await cli(['crawl', '--db', file, ...crawlFlags(web)]);
      const eWeb = driverCpuMs() - d0;
      const fetched = fetchedThisRun(e.stdout);
      notes.push(`round ${round}, embedded: ${mainThread(e, fetched)}`);
      rows.push(`| embedded (SQLite) | ${round} | ${fetched} | ${(fetched / e.secs).toFixed(0)} | ${per(e.cpuMs, fetched)} | - | - | - | ${per(eWeb, fetched)} | ${per(e.cpuMs, fetched)} |`);

      process.stderr.write(`round ${round}: 1 worker...\n`);
      const name = `cpu${randomBytes(4).toString('hex')}`;
      const target = ['--redis', REDIS, '--pg', PG, '--name', name];
      await cli(['crawl', ...target, '--seed-only', ...crawlFlags(web)]);
      const app = `fcbench-${name}`;
      const sampler = new PgCpuSampler(db, app);
      await sampler.start();
      const r0 = await redisCounters(redis);
      const x0 = await pgCommits(db);
      d0 = driverCpuMs();
      const w = await cli(['worker', ...target], { PGAPPNAME: app });
      const wWeb = driverCpuMs() - d0;
      const r1 = await redisCounters(redis);
      const rMs = r1.cpuMs - r0.cpuMs;
      const p = await sampler.stop();
      // Less the driver's own statements (the sampler's, about ten a second, and the two here).
      const xacts = (await pgCommits(db)) - x0 - Math.round(w.secs * 10) - 2;
      const stored = Number((await db.query(`SELECT count(*) AS n FROM ${pgSchema(name)}.pages`)).rows[0].n);
      const trips = Number(/Redis: (\d+) round trips/.exec(w.stdout)?.[1] ?? NaN);
      shares.push(Math.round((100 * stored) / w.secs / (fetched / e.secs)));
      rows.push(`| shared, 1 worker | ${round} | ${stored} | ${(stored / w.secs).toFixed(0)} | ${per(w.cpuMs, stored)} | ${per(rMs, stored)} | ${per(p.backendsMs, stored)} | ${per(p.backgroundMs, stored)} | ${per(wWeb, stored)} | ${per(w.cpuMs + rMs + p.backendsMs + p.backgroundMs, stored)} |`);
      const statements = Number(/in (\d+) statements/.exec(w.stdout)?.[1] ?? NaN);
      notes.push(`round ${round}, 1 worker: ${mainThread(w, stored)}; ${(trips / stored).toFixed(2)} Redis round trips, ${((r1.commands - r0.commands - 4) / stored).toFixed(2)} Redis commands (those in scripts included), about ${(xacts / stored).toFixed(2)} PostgreSQL transactions per page${Number.isNaN(statements) ? '' : ` (${(stored / statements).toFixed(1)} pages a group-commit statement)`}`);
      await dropCrawl(redis, db, name);
    }
  } finally {
    PIN.restore();
    redis.disconnect();
    await db.end();
    await web.close();
  }
  const out = [
    `CPU ms per fetched page (${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; ${HOSTS} hosts, ${pages} pages, concurrency ${CONCURRENCY}; ${PIN.label})`,
    '',
    '| crawler | round | pages | pages/s | crawler process | Redis | PostgreSQL backends | PostgreSQL background | web server | crawl total (crawler + Redis + PostgreSQL) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...notes.map((n) => `- ${n}`),
    `- one worker's pages/s as a share of the embedded crawler's, per round: ${shares.map((x) => `${x}%`).join(', ')}`,
  ].join('\n');
  process.stdout.write(out + '\n');
}

await main();
