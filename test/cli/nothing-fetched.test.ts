import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-nothing-'));

test('a crawl whose seed cannot be reached says so, and counts the URL that ended without a request', async () => {
  // Port 9 (discard) is closed here: every connection is refused.
  const r = await runCli(['crawl', 'http://127.0.0.1:9/', '--db', join(dir, 'dead.db'), '--max-pages', '5'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /: 0 fetched this run \(0 done, 0 errors, [^)]*\), 1 ended without a request,/);
  assert.match(r.stdout, /^frontier: 0 waiting, 0 done, 1 error, 0 discarded$/m);
  assert.match(r.stdout, /^no page was stored this run; the failure:\n {2}http:\/\/127\.0\.0\.1:9\/: host unreachable: .*ECONNREFUSED/m);
});

test('a crawl whose seed answers 404 names the seed and the status', async () => {
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const seed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/nothere.html`;
  try {
    // The guessed /sitemap.xml is fetched too (its 404 ends as "no sitemap", done): no page, still.
    const r = await runCli(['crawl', seed, '--db', join(dir, 'gone.db'), '--max-pages', '5'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /: 2 fetched this run \(1 done, 1 error, /);
    assert.ok(r.stdout.includes(`no page was stored this run; the failure:\n  ${seed}: HTTP 404`), r.stdout);
  } finally {
    server.close();
  }
});

test('a crawl that fetched pages adds no failure lines', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/missing">m</a>');
    else res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const r = await runCli(['crawl', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, '--db', join(dir, 'ok.db'), '--max-pages', '5', '--no-sitemaps'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(1 done, 1 error, /);
    assert.doesNotMatch(r.stdout, /no page was stored/);
  } finally {
    server.close();
  }
});
