import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { runCli, type CliResult } from '../helpers/run-cli.js';

const PAGES = 30;

/** Page i links to 2i+1 and 2i+2: a tree of PAGES pages, each reachable once. */
function page(i: number): string {
  const links = [2 * i + 1, 2 * i + 2].filter((j) => j < PAGES).map((j) => `<a href="/p/${j}">solar ${j}</a>`).join(' ');
  return `<html><head><title>solar page ${i}</title></head><body><p>solar panels ${i}</p>${links}</body></html>`;
}

/**
 * A local site whose answers can be held: while `holding`, page requests get no answer, so a
 * crawl with every slot taken makes no new request and any request that arrives comes from
 * another process. Requests are counted per User-Agent.
 */
async function holdingSite() {
  const byAgent = new Map<string, number>();
  const held: { res: ServerResponse; i: number }[] = [];
  let holding = false;
  let waiters: { n: number; resolve: () => void }[] = [];
  let pageHits = 0;
  const answer = (res: ServerResponse, i: number) => {
    if (res.destroyed) return;
    if (i >= 0 && i < PAGES) res.writeHead(200, { 'content-type': 'text/html' }).end(page(i));
    else res.writeHead(404).end();
  };
  const server = createServer((req, res) => {
    const agent = req.headers['user-agent'] ?? '';
    byAgent.set(agent, (byAgent.get(agent) ?? 0) + 1);
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    pageHits++;
    waiters = waiters.filter((w) => (pageHits >= w.n ? (w.resolve(), false) : true));
    const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (holding) held.push({ res, i });
    else answer(res, i);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => [...byAgent.values()].reduce((a, b) => a + b, 0),
    from: (agent: string) => byAgent.get(agent) ?? 0,
    hold: () => (holding = true),
    release: () => {
      holding = false;
      for (const h of held.splice(0)) answer(h.res, h.i);
    },
    /** Resolves once the server has seen n page requests. */
    pageRequests: (n: number) => new Promise<void>((resolve) => (pageHits >= n ? resolve() : waiters.push({ n, resolve }))),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

function oneLine(r: CliResult): string {
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line: ${r.stderr}`);
  return lines[0]!;
}

test('one crawl process per database: a second crawl or resume exits 2 at once naming the holder, readers work and say so, SIGKILL leaves no stale lock', { timeout: 120_000 }, async () => {
  const site = await holdingSite();
  const db = join(mkdtempSync(join(tmpdir(), 'fc-one-writer-')), 'crawl.db');
  let first: ChildProcess | null = null;
  try {
    // Answer the first 8 page requests, then hold: the crawl keeps its 2 slots busy and stops asking.
    const started = site.pageRequests(8).then(() => site.hold());
    // Held requests must stay held however slow a loaded machine makes the steps below: a
    // timeout would retry them and count as requests of the readers.
    const patient = join(dirname(db), 'patient.yaml');
    writeFileSync(patient, 'headersTimeoutMs: 600000\nbodyTimeoutMs: 600000\ntotalTimeoutMs: 600000\n');
    const firstRun = runCli(
      ['crawl', '--seeds', site.origin + '/p/0', '--db', db, '--delay-ms', '0', '--per-host', '2', '--concurrency', '2', '--user-agent', 'first-crawler', '--config', patient],
      { onStart: (c) => (first = c) },
    );
    await started;
    await site.pageRequests(10); // both slots taken by held requests
    const pid = first!.pid!;
    const before = site.requests();

    const second = await runCli(['crawl', '--seeds', site.origin + '/p/0', '--db', db, '--delay-ms', '0', '--user-agent', 'second-crawler']);
    assert.equal(second.code, 2, second.stderr);
    const line = oneLine(second);
    assert.ok(line.includes(db), `names the database: ${line}`);
    assert.match(line, new RegExp(`in use by a running crawl \\(pid ${pid} `));
    assert.equal(site.from('second-crawler'), 0, 'the second crawl sent no request');

    const resumed = await runCli(['resume', '--db', db]);
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.match(oneLine(resumed), new RegExp(`${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by a running crawl \\(pid ${pid} `));
    assert.equal(site.requests(), before, 'neither the second crawl nor resume sent a request (the first has every slot held)');

    const status = await runCli(['status', '--db', db]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`a crawl \\(pid ${pid} .*\\) is running on `));
    assert.match(status.stdout, /2 being fetched by the running crawl/);
    assert.doesNotMatch(status.stdout, /interrupted run/);
    const json = JSON.parse((await runCli(['status', '--db', db, '--json'])).stdout) as { running: { pid: number } | null };
    assert.equal(json.running?.pid, pid);

    const search = await runCli(['search', '--db', db, 'solar']);
    assert.equal(search.code, 0, search.stderr);
    assert.match(search.stderr, new RegExp(`a crawl \\(pid ${pid} .*\\) is running on .*not yet searchable`));
    const exported = await runCli(['export', '--db', db]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stderr, new RegExp(`a crawl \\(pid ${pid} .*\\) is running on .*committed so far`));
    for (const l of exported.stdout.trim().split('\n').filter(Boolean)) JSON.parse(l);
    assert.equal(site.requests(), before, 'the readers sent nothing either');

    first!.kill('SIGKILL');
    const killed = await firstRun;
    assert.equal(killed.signal, 'SIGKILL');
    site.release();

    const last = await runCli(['resume', '--db', db]);
    assert.equal(last.code, 0, `resume starts at once after a SIGKILL (no stale lock): ${last.stderr}`);
    assert.match(last.stdout, /crawl ended \(frontier exhausted: nothing left to fetch\)/);
  } finally {
    (first as ChildProcess | null)?.kill('SIGKILL');
    await site.close();
  }
  const sql = new Database(db, { readonly: true });
  // The guessed /sitemap.xml (404 here) ends done with a note; it is not a page.
  const done = sql.prepare("SELECT url FROM crawl_log WHERE state = 'done' AND url NOT LIKE '%/sitemap.xml'").pluck().all() as string[];
  const logged = sql.prepare('SELECT url FROM crawl_log').pluck().all() as string[];
  assert.equal(new Set(logged).size, logged.length, 'no URL appears twice in the crawl log');
  assert.equal(done.length, PAGES, 'every page done, nothing the killed crawl accepted was lost');
  assert.equal(sql.prepare('SELECT count(*) FROM pages').pluck().get(), PAGES);
  sql.close();
});

test('a write failure mid-crawl ends the crawl with one line naming the database and exit 2, not a hang', { timeout: 120_000 }, async () => {
  const site = await holdingSite();
  const db = join(mkdtempSync(join(tmpdir(), 'fc-write-failure-')), 'crawl.db');
  try {
    // Hold the crawl after its first pages, take the URL ids it will use next from outside (as a
    // second writer without the lock once did), then let it go on.
    const held = site.pageRequests(3).then(() => site.hold());
    const run = runCli(['crawl', '--seeds', site.origin + '/p/0', '--db', db, '--delay-ms', '0', '--per-host', '2', '--concurrency', '2']);
    await held;
    await site.pageRequests(5);
    const sql = new Database(db);
    sql.pragma('busy_timeout = 5000');
    const put = sql.prepare("INSERT INTO urls(id, fp, url, host, depth, anchor, priority, state) VALUES (?, ?, 'http://x.test/', 'x.test', 0, '', 0, 4)");
    // Read and insert under the write lock: the crawl's writer thread may commit queued URLs in between.
    sql.transaction(() => {
      const max = sql.prepare('SELECT max(id) FROM urls').pluck().get() as number;
      for (let id = max + 1; id <= max + 200; id++) put.run(id, -id);
    }).immediate();
    sql.close();
    site.release();
    const r = await run;
    assert.equal(r.code, 2, r.stderr);
    const last = r.stderr.trim().split('\n').at(-1)!;
    assert.match(last, /^focuscrawl: writing to .*crawl\.db failed: UNIQUE constraint failed: urls\.id$/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  } finally {
    await site.close();
  }
});
