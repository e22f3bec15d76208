import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SqliteFrontier } from '../../src/frontier/sqlite-frontier.js';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import type { NewRequest } from '../../src/types.js';

/**
 * bench/frontier-memory: what the embedded frontier holds in memory for a crawl whose waiting URLs
 * are spread over many hosts (a crawl with `--scope any` finds new hosts faster than it visits
 * them). Adds `--hosts` x `--per-host` waiting URLs, as links a crawl finds (an anchor, a random
 * priority), to a SqliteFrontier with `--memory` (the crawl's `frontierMemory`), and reports the
 * JS heap it grew by per waiting host and the URLs it holds in memory, then times 20,000 claims
 * and completions (each reads its host's URL back from the file when the host holds none).
 *
 *   npm run build && node --expose-gc dist/bench/frontier-memory/run.js [--hosts 100000] [--per-host 3] [--memory 20000] [--no-record]
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const { values: args } = parseArgs({
  options: {
    hosts: { type: 'string', default: '100000' },
    'per-host': { type: 'string', default: '3' },
    memory: { type: 'string', default: '20000' },
    'no-record': { type: 'boolean', default: false },
  },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (heap figures need it)');
const hosts = Number(args.hosts);
const perHost = Number(args['per-host']);
const memory = Number(args.memory);

const dir = mkdtempSync(join(tmpdir(), 'fc-frontier-memory-'));
// The crawl's writer: a thread that commits what the crawl hands it every 25 ms.
const db = new SqliteDb(join(dir, 'f.db'), { create: true, writer: 'thread' });
const frontier = new SqliteFrontier(db, { perHost: 1, delayMs: 0 }, 0, { memory });
gc();
const before = process.memoryUsage().heapUsed;
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
for (let i = 0; i < hosts; i++) {
  const host = `www.host-${String(i).padStart(7, '0')}.example.com`;
  const batch: NewRequest[] = [];
  for (let j = 0; j < perHost; j++) batch.push({ url: `https://${host}/a/b/page-${j}.html`, host, depth: 2, parent: null, anchor: 'a link found on a page', priority: random(), data: null });
  await frontier.add(batch, 0);
  // The crawl commits its writes every 25 ms; what waits to be written is not the frontier's memory.
  if (i % 1000 === 999) {
    db.flush();
    await db.settle();
  }
}
db.flush();
await db.settle();
gc();
gc();
const grown = process.memoryUsage().heapUsed - before;
const inMemory = frontier.waitingInMemory;
const waiting = (await frontier.counts()).waiting;
// The cost of holding less: claims that read their host's URLs back from the file.
const claims = Math.min(20_000, waiting);
const t0 = performance.now();
for (let done = 0; done < claims; ) {
  const got = await frontier.claim(32, 0);
  for (const r of got) await frontier.complete(r, { state: 'done' }, 0);
  done += got.length;
  if (done % 1024 < 32) {
    db.flush();
    await db.settle();
  }
}
db.flush();
await db.settle();
const claimsPerSecond = Math.round(claims / ((performance.now() - t0) / 1000));
await db.close();
rmSync(dir, { recursive: true, force: true });

const perWaitingHost = Math.round(grown / hosts);
const command = `node --expose-gc dist/bench/frontier-memory/run.js ${process.argv.slice(2).join(' ')}`.trim();
const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`;
console.log(`${hosts.toLocaleString('en')} hosts x ${perHost} waiting URLs (${waiting.toLocaleString('en')}), memory ${memory.toLocaleString('en')}: heap +${(grown / 1e6).toFixed(0)} MB, ${perWaitingHost} bytes a waiting host, ${inMemory.toLocaleString('en')} URLs in memory; ${claimsPerSecond.toLocaleString('en')} claims+completes a second`);
if (!args['no-record']) {
  appendFileSync(
    join(repo, 'bench', 'RESULTS.md'),
    [
      `## ${new Date().toISOString().slice(0, 10)}: bench/frontier-memory, ${hosts.toLocaleString('en')} hosts x ${perHost} waiting URLs`,
      '',
      `\`${command}\` on ${machine}.`,
      '',
      '| waiting URLs | hosts | frontierMemory | URLs held in memory | heap grown | per waiting host | claims+completes a second |',
      '|---|---|---|---|---|---|---|',
      `| ${waiting.toLocaleString('en')} | ${hosts.toLocaleString('en')} | ${memory.toLocaleString('en')} | ${inMemory.toLocaleString('en')} | ${(grown / 1e6).toFixed(0)} MB | ${perWaitingHost} B | ${claimsPerSecond.toLocaleString('en')} |`,
      '',
    ].join('\n'),
  );
}
