import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { openReader } from '../../src/cli/open-reader.js';
import type { Snapshot } from '../../src/dashboard/snapshot.js';
import { runCli } from '../helpers/run-cli.js';
import { startServe, type ServeProcess } from '../helpers/start-serve.js';

/** Requests a browser never sends: stale cookies, broken escapes, junk labels, other methods, big bodies. */
let site: RunningSite;
const dir = mkdtempSync(join(tmpdir(), 'fc-hostile-'));
const db = join(dir, 'h.db');

before(async () => {
  site = await serveSite({ pages: 30, seed: 5, words: [120, 240], links: [5, 10] });
  const r = await runCli(['crawl', '--seeds', site.origin + '/', '--topic', DEMO_TOPIC, '--db', db, '--max-pages', '15', '--delay-ms', '0', '--per-host', '4', '--no-sitemaps']);
  assert.equal(r.code, 0, r.stderr);
});
after(() => site.close());

/** A raw GET, for paths fetch() would normalize. */
function rawGet(port: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

test('a token from any source is accepted, a stale or malformed cookie is not an error', async () => {
  const s: ServeProcess = await startServe(['--db', db, '--host', '0.0.0.0']);
  try {
    const u = new URL(s.url);
    const base = `http://127.0.0.1:${u.port}`;
    const good = u.searchParams.get('token')!;
    const stale = await fetch(`${base}/?token=${encodeURIComponent(good)}`, { headers: { cookie: 'focuscrawl_token=an-old-token-from-last-week' } });
    assert.equal(stale.status, 200);
    assert.match(stale.headers.get('set-cookie') ?? '', /focuscrawl_token_\d+=/);
    assert.equal((await fetch(`${base}/api/snapshot`, { headers: { authorization: 'Bearer wrong', cookie: `focuscrawl_token=${encodeURIComponent(good)}` } })).status, 200);
    assert.equal(await rawGet(u.port, '/api/snapshot', { cookie: 'focuscrawl_token=%E0%A4%A' }), 401);
  } finally {
    await s.stop();
  }
});

test('broken escapes and searches with no words are 400; other methods 405; junk labels refused; safe headers', async () => {
  const s = await startServe(['--db', db]);
  try {
    const u = new URL(s.url);
    assert.equal(await rawGet(u.port, '/%E0%A4%A'), 400);
    const empty = await fetch(s.url + 'api/search?q=' + encodeURIComponent('"'));
    assert.equal(empty.status, 400);
    assert.match(((await empty.json()) as { error: string }).error, /has no words/);
    // The query string's escapes are checked like the path's, and name the bad escape.
    const refused = async (query: string, reason: RegExp) => {
      const res = await fetch(s.url + 'api/search' + query);
      assert.equal(res.status, 400, query);
      assert.match(((await res.json()) as { error: string }).error, reason, query);
    };
    await refused('?q=%zz', /query parameter 'q' has a malformed percent-escape '%zz'/);
    await refused('?q=%E4', /query parameter 'q' has a malformed percent-escape '%E4'/);
    await refused('?q=solar&limit=%E0%A4', /query parameter 'limit' has a malformed percent-escape '%E0%A4'/);
    for (const bad of ['0', '-5', 'abc', '']) await refused(`?q=solar&limit=${bad}`, new RegExp(`limit must be a number of hits, at least 1, not '${bad}'`));
    // Any path's query string, not only the search's.
    for (const p of ['api/snapshot?x=%zz', 'api/labels?x=%zz']) assert.equal((await fetch(s.url + p)).status, 400, p);
    await refused('?q=', /q is empty/);
    await refused('?q=+%20', /q is empty/);
    await refused('', /q is missing/);
    const path = await fetch(s.url + '%E0%A4%A');
    assert.equal(path.status, 400);
    assert.match(((await path.json()) as { error: string }).error, /the path has a malformed percent-escape '%A'/);
    // A good escape still reaches the index: %C3%A9 is é, + a space.
    assert.equal((await fetch(s.url + 'api/search?q=solar+%C3%A9nergie')).status, 200);

    const head = await fetch(s.url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('x-content-type-options'), 'nosniff');
    assert.match(head.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const del = await fetch(s.url + 'api/labels', { method: 'DELETE' });
    assert.equal(del.status, 405);
    assert.equal(del.headers.get('allow'), 'GET, HEAD, POST');

    const snap = (await (await fetch(s.url + 'api/snapshot')).json()) as Snapshot;
    const page = snap.relevantPages[0]!;
    const post = (body: string, type = 'application/json') => fetch(s.url + 'api/labels', { method: 'POST', headers: { 'content-type': type }, body });
    assert.equal((await post(JSON.stringify({ url: 'javascript:alert(1)', relevant: true }))).status, 404);
    assert.equal((await post(JSON.stringify({ url: site.origin + '/never-fetched', relevant: true }))).status, 404);
    assert.equal((await post(JSON.stringify({ url: page.url, relevant: true }), 'application/jsonx')).status, 415);
    assert.equal((await post(JSON.stringify({ url: page.url, relevant: true, pad: 'x'.repeat(200_000) }))).status, 413);
    assert.equal((await post(JSON.stringify({ url: page.url, relevant: true }), 'Application/JSON; charset=utf-8')).status, 200);
    // Written otherwise than the crawl writes it (an upper-case scheme, a fragment): the same page.
    const again = await post(JSON.stringify({ url: page.url.replace(/^http:/, 'HTTP:') + '#top', relevant: true }));
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { url: string }).url, page.url);
    const open = await openReader({ db });
    try {
      assert.deepEqual((await open.reader.labels()).map((l) => l.url), [page.url], 'only the stored page was labelled');
    } finally {
      await open.close();
    }
  } finally {
    await s.stop();
  }
});

/** A raw request with its status, headers and body (HEAD and a forged Host, which fetch() will not send). */
function raw(port: string, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), method, path, headers, timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer`)));
    req.on('error', reject);
    req.end();
  });
}

test('a fractional search limit is whole hits, HEAD of the event stream ends, and a foreign Host is told why it is refused', async () => {
  const s = await startServe(['--db', db]);
  try {
    const u = new URL(s.url);
    const half = await fetch(s.url + 'api/search?q=solar&limit=1.5');
    assert.equal(half.status, 200, await half.clone().text());
    assert.equal(((await half.json()) as { hits: unknown[] }).hits.length, 1);
    const head = await raw(u.port, 'HEAD', '/api/events');
    assert.equal(head.status, 200);
    assert.match(head.type, /^text\/event-stream/);
    const foreign = await raw(u.port, 'GET', '/api/snapshot', { host: 'evil.example' });
    assert.equal(foreign.status, 403);
    assert.match(foreign.body, /answers to a loopback address only .*not to Host 'evil\.example'/);
    assert.doesNotMatch(foreign.body, /token \(open/);
  } finally {
    await s.stop();
  }
});
