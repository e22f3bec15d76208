import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drip, startTestServer } from '../helpers/misbehaving-server.js';
import { runCli } from '../helpers/run-cli.js';

// The hanging request alone would hold the crawl for 3 x 15 s (the default headers timeout), the
// dripping one for minutes without the low-speed rule: the test's timeout is far below either.
test('Ctrl-C during slow fetches: the CLI aborts them and exits; the URLs wait, attempts unchanged, and resume fetches them', { timeout: 20_000 }, async () => {
  let slow = true;
  const srv = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>home</title><a href="/wait">w</a> <a href="/trickle">t</a>')],
    [/^\/wait$/, (_q, res) => { if (!slow) res.writeHead(200, { 'content-type': 'text/html' }).end('<title>answered</title>'); }],
    [/^\/trickle$/, (q, res, m, t) => (slow ? drip(1000)(q, res, m, t) : res.writeHead(200, { 'content-type': 'text/html' }).end('<title>fast now</title>'))],
  ]);
  const db = join(mkdtempSync(join(tmpdir(), 'fc-ctrl-c-')), 'crawl.db');
  try {
    const stopped = await runCli(['crawl', '--seeds', srv.origin + '/', '--db', db, '--delay-ms', '0', '--no-sitemaps'], {
      onStart: (child) => {
        const poll = setInterval(() => {
          if (srv.hits.get('/wait') && srv.hits.get('/trickle')) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 10);
        child.on('exit', () => clearInterval(poll));
      },
    });
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /crawl ended \(stopped\)/);
    assert.equal(srv.hits.get('/wait'), 1);
    assert.equal(srv.hits.get('/trickle'), 1);

    const sql = new Database(db, { readonly: true });
    const row = sql.prepare('SELECT state, attempts FROM urls WHERE url = ?');
    assert.deepEqual(row.get(srv.origin + '/wait'), { state: 0, attempts: 0 }, 'waiting again, no attempt counted');
    assert.deepEqual(row.get(srv.origin + '/trickle'), { state: 0, attempts: 0 });
    assert.deepEqual(row.get(srv.origin + '/'), { state: 2, attempts: 0 }, 'the page fetched before the stop is kept');
    assert.equal(sql.prepare('SELECT count(*) FROM pages').pluck().get(), 1);
    sql.close();

    slow = false;
    const resumed = await runCli(['resume', '--db', db]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /crawl ended \(frontier exhausted: nothing left to fetch/);
    const after = new Database(db, { readonly: true });
    const done = after.prepare("SELECT url FROM crawl_log WHERE state = 'done' ORDER BY url").pluck().all();
    assert.deepEqual(done, [srv.origin + '/', srv.origin + '/trickle', srv.origin + '/wait']);
    assert.equal(after.prepare('SELECT count(*) FROM crawl_log').pluck().get(), 3, 'each URL logged once');
    after.close();
    assert.equal(srv.hits.get('/wait'), 2);
  } finally {
    await srv.close();
  }
});
