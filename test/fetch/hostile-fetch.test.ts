import { after, before, test } from 'node:test';
import { createServer as createRawServer, type AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import { HttpFetcher } from '../../src/fetch/http-fetcher.js';
import { FetchError } from '../../src/fetch/fetcher.js';
import { startTestServer, type TestServer } from '../helpers/misbehaving-server.js';

let srv: TestServer;
let fetcher: HttpFetcher;
before(async () => {
  srv = await startTestServer([
    // A server that names every session in the URL, and serves the page only under that name.
    [/^\/app\/home(;jsessionid=\w+)?$/, (q, res) => {
      if (!q.url!.includes(';jsessionid=')) return void res.writeHead(302, { location: `/app/home;jsessionid=S${Math.random().toString(36).slice(2)}` }).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>home</title>');
    }],
  ]);
  // Timeouts far beyond the low-speed window, so only the low-speed rule can end the drip.
  // The headers timeout leaves room for a stalled test process (its server runs in it too).
  fetcher = new HttpFetcher({ headersTimeoutMs: 2000, bodyTimeoutMs: 30_000, totalTimeoutMs: 30_000, lowSpeedLimit: 500, lowSpeedTimeMs: 300 });
});
after(async () => {
  await fetcher.close();
  await srv.close();
});

test('a body dripping a byte at a time is abandoned by the low-speed rule, as a transient failure after an answer', async () => {
  const err = await fetcher.fetch(srv.origin + '/drip/1').catch((e: unknown) => e);
  assert.ok(err instanceof FetchError, String(err));
  assert.match(err.message, /^transfer slower than 500 bytes\/s/);
  assert.equal(err.transient, true);
  assert.equal(err.status, 200, 'the server had answered');
  assert.equal(err.network, 'body');
});

test('a body still arriving at the total timeout fails for good: it would arrive as slowly on a retry', async () => {
  const slow = new HttpFetcher({ totalTimeoutMs: 2500, lowSpeedLimit: 0 });
  try {
    const err = await slow.fetch(srv.origin + '/drip/3').catch((e: unknown) => e);
    assert.ok(err instanceof FetchError, String(err));
    assert.match(err.message, /the request took longer than 2500 ms in all \(totalTimeoutMs\), its body still arriving: not retried/);
    assert.equal(err.status, 200);
    assert.equal(err.transient, false);
    const silent = await slow.fetch(srv.origin + '/hang').catch((e: unknown) => e);
    assert.ok(silent instanceof FetchError);
    assert.equal(silent.transient, true, 'no answer at all within the time is still worth another try');
  } finally {
    await slow.close();
  }
});

test('no answer at all: refused and hanging requests are network failures without a status', async () => {
  const hang = await fetcher.fetch(srv.origin + '/hang').catch((e: FetchError) => e);
  assert.ok(hang instanceof FetchError);
  assert.equal(hang.network, 'no-answer');
  assert.equal(hang.status, undefined);
  const refused = await fetcher.fetch('http://127.0.0.1:1/').catch((e: FetchError) => e);
  assert.ok(refused instanceof FetchError);
  assert.equal(refused.network, 'no-answer');
  const ok = await fetcher.fetch(srv.origin + '/status/404');
  assert.equal(ok.status, 404);
});

test('an aborted fetch ends at once, whatever the server is doing', async () => {
  const ctl = new AbortController();
  const pending = fetcher.fetch(srv.origin + '/drip/2', { signal: ctl.signal }).catch((e: unknown) => e);
  while (!srv.hits.get('/drip/2')) await new Promise((r) => setTimeout(r, 5));
  ctl.abort();
  const err = await pending;
  assert.ok(err instanceof FetchError);
  assert.equal(err.transient, true);
});

test('one stop signal ends every fetch in flight under it, and a fetch begun after the stop at once', async () => {
  const ctl = new AbortController();
  // Finished under the signal before the stop: its link is gone, and the stop must not reach it.
  assert.equal((await fetcher.fetch(srv.origin + '/status/404', { signal: ctl.signal })).status, 404);
  const paths = ['/drip/stop1', '/drip/stop2', '/drip/stop3'];
  const pending = paths.map((p) => fetcher.fetch(srv.origin + p, { signal: ctl.signal }).catch((e: unknown) => e));
  while (!paths.every((p) => srv.hits.get(p))) await new Promise((r) => setTimeout(r, 5));
  ctl.abort();
  // Aborted, not ended by the low-speed rule, which would end a drip too.
  for (const err of await Promise.all(pending)) assert.ok(err instanceof FetchError && err.transient && /aborted/.test(err.message), String(err));
  const asked = srv.hits.get('/status/404');
  const late = await fetcher.fetch(srv.origin + '/status/404', { signal: ctl.signal }).catch((e: unknown) => e);
  assert.ok(late instanceof FetchError && /aborted/.test(late.message), String(late));
  assert.equal(srv.hits.get('/status/404'), asked, 'a fetch under a stopped signal asks nothing of the server');
});

test('a redirect that adds a session id is followed under that name; the page keeps its name without it', async () => {
  const res = await fetcher.fetch(srv.origin + '/app/home');
  assert.equal(res.status, 200);
  assert.equal(res.finalUrl, srv.origin + '/app/home');
  assert.match(res.redirects[0]!.url, /\/app\/home$/);
  assert.equal([...srv.hits.keys()].filter((k) => k.startsWith('/app/home;jsessionid=')).length, 1);
});

test('status lines the HTTP client refuses end as final errors of one line that say so', async () => {
  const body = '<title>ok</title>';
  const raw = createRawServer((c) => {
    c.once('data', (d) => {
      const path = d.toString().split(' ')[1];
      const head = path === '/continue' ? 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK' : 'HTTP/1.1 099 X';
      c.end(`${head}\r\ncontent-type: text/html\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  try {
    const low = await fetcher.fetch(origin + '/099').catch((e: unknown) => e);
    assert.ok(low instanceof FetchError);
    assert.equal(low.message, 'malformed HTTP response: a status line the HTTP client refuses (ERR_ASSERTION)');
    assert.equal(low.transient, false);
    const cont = await fetcher.fetch(origin + '/continue').catch((e: unknown) => e);
    assert.ok(cont instanceof FetchError);
    assert.match(cont.message, /^an interim '100 Continue' before the answer/);
    assert.equal(cont.transient, false, 'the same answer again: not retried');
  } finally {
    raw.close();
  }
});
