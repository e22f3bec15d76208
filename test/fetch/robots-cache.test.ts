import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpFetcher } from '../../src/fetch/http-fetcher.js';
import { RobotsCache } from '../../src/fetch/robots-cache.js';
import { FetchError } from '../../src/fetch/fetcher.js';
import { startTestServer, type TestServer } from '../helpers/misbehaving-server.js';

let srv: TestServer;
let fetcher: HttpFetcher;
before(async () => {
  srv = await startTestServer();
  fetcher = new HttpFetcher({ totalTimeoutMs: 2000 });
});
after(async () => {
  await fetcher.close();
  await srv.close();
});

test('RFC 9309: the most specific group, longest match, Allow wins ties, wildcards and $', async () => {
  srv.robots = [
    'User-agent: *',
    'Disallow: /',
    '',
    'User-agent: focuscrawl',
    'Disallow: /private/',
    'Allow: /private/public/',
    'Disallow: /*.pdf$',
    'Disallow: /tmp',
    'Allow: /tmp',
    'Crawl-delay: 2',
  ].join('\n');
  const robots = new RobotsCache(fetcher);
  const v = async (p: string) => (await robots.check(srv.origin + p)).kind;
  assert.equal(await v('/html/a'), 'allowed');
  assert.equal(await v('/private/x'), 'disallowed');
  assert.equal(await v('/private/public/x'), 'allowed');
  assert.equal(await v('/doc.pdf'), 'disallowed');
  assert.equal(await v('/doc.pdf?x=1'), 'allowed');
  assert.equal(await v('/tmp/x'), 'allowed');
  assert.deepEqual(await robots.check(srv.origin + '/'), { kind: 'allowed', crawlDelayMs: 2000 });
  assert.equal(srv.hits.get('/robots.txt'), 1, 'robots.txt is fetched once per host');
});

test('4xx means allow all; 5xx means unreachable (disallow for a while)', async () => {
  srv.robots = 404;
  assert.equal((await new RobotsCache(fetcher).check(srv.origin + '/private/x')).kind, 'allowed');
  srv.robots = 503;
  const v = await new RobotsCache(fetcher, { unreachableRetryMs: 5000 }).check(srv.origin + '/html/a');
  assert.equal(v.kind, 'unreachable');
  assert.ok(v.kind === 'unreachable' && v.retryAfterMs !== undefined && v.retryAfterMs > 0 && v.retryAfterMs <= 5000);
});

test('an unreachable host counts as unreachable, not allowed', async () => {
  const v = await new RobotsCache(fetcher).check('http://127.0.0.1:1/x');
  assert.equal(v.kind, 'unreachable');
});

test("a robots.txt that never answers is unreachable after robots.txt's own deadline, which its reason names", async () => {
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const v = await new RobotsCache(fetcher, { timeoutMs: 300 }).check(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/x`);
    assert.equal(v.kind, 'unreachable');
    // Not totalTimeoutMs (2000 here), which a user would raise in vain.
    assert.match(v.kind === 'unreachable' ? v.reason : '', /longer than 300 ms in all \(robots\.txt's own deadline\)$/);
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
});

test('a network failure is not remembered: the next check asks again; a 5xx answer is', async () => {
  let calls = 0;
  const refusing = {
    fetch: async () => {
      calls++;
      throw new FetchError('http://dead.test/robots.txt', 'ECONNREFUSED', { transient: true, network: 'no-answer' as const });
    },
    close: async () => {},
  };
  const robots = new RobotsCache(refusing);
  for (let i = 0; i < 2; i++) {
    const v = await robots.check('http://dead.test/x');
    assert.deepEqual(v, { kind: 'unreachable', retryAfterMs: undefined, reason: 'robots.txt unreachable: ECONNREFUSED' });
  }
  assert.equal(calls, 2);
  srv.robots = 503;
  const before = srv.hits.get('/robots.txt') ?? 0;
  const cached = new RobotsCache(fetcher, { unreachableRetryMs: 60_000 });
  await cached.check(srv.origin + '/a');
  await cached.check(srv.origin + '/b');
  assert.equal((srv.hits.get('/robots.txt') ?? 0) - before, 1);
});

test('an aborted robots.txt fetch rejects and leaves nothing behind', async () => {
  srv.robots = 'User-agent: *\nDisallow: /private/\n';
  const robots = new RobotsCache(fetcher);
  await assert.rejects(robots.check(srv.origin + '/x', AbortSignal.abort()));
  assert.equal((await robots.check(srv.origin + '/private/x')).kind, 'disallowed');
});

test('RFC 9309: a robots.txt past the size limit is read to 500 KiB; one lost in redirects allows all', async () => {
  const { createServer } = await import('node:http');
  const big = 'User-agent: *\nDisallow: /private/\n' + '#'.repeat(6 * 1024 * 1024) + '\n';
  let mode: 'big' | 'loop' = 'big';
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt' && mode === 'big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(big);
    if (req.url === '/robots.txt') return void res.writeHead(302, { location: '/robots.txt' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const sized = new RobotsCache(fetcher);
    assert.equal((await sized.check(origin + '/private/x')).kind, 'disallowed');
    assert.equal((await sized.check(origin + '/public/x')).kind, 'allowed');
    mode = 'loop';
    assert.equal((await new RobotsCache(fetcher).check(origin + '/private/x')).kind, 'allowed');
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('a robots.txt answered 200 in a coding no client reads is no rule at all (allow), not an unreachable host; stacked gzip is read', async () => {
  const { gzipSync } = await import('node:zlib');
  const own = await startTestServer([
    [/^\/robots\.txt$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'utf-8' }).end('User-agent: *\nDisallow: /\n')],
  ]);
  const twice = await startTestServer([
    [/^\/robots\.txt$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip, gzip' }).end(gzipSync(gzipSync('User-agent: *\nDisallow: /private/\n')))],
  ]);
  try {
    assert.equal((await new RobotsCache(fetcher).check(own.origin + '/any')).kind, 'allowed');
    const robots = new RobotsCache(fetcher);
    assert.equal((await robots.check(twice.origin + '/private/x')).kind, 'disallowed', 'the twice-gzipped file was read');
    assert.equal((await robots.check(twice.origin + '/open')).kind, 'allowed');
  } finally {
    await own.close();
    await twice.close();
  }
});

test('RFC 9309 2.2.2: rules and URLs match with unreserved characters percent-decoded on both sides', async () => {
  srv.robots = ['User-agent: *', 'Disallow: /%62%61%7A', 'Disallow: /%7Ejoe/', 'Disallow: /caf%C3%A9', 'Disallow: /a%2Fb'].join('\n');
  const robots = new RobotsCache(fetcher);
  const v = async (p: string) => (await robots.check(srv.origin + p)).kind;
  assert.equal(await v('/baz'), 'disallowed');
  assert.equal(await v('/~joe/page'), 'disallowed');
  assert.equal(await v('/caf%C3%A9'), 'disallowed');
  assert.equal(await v('/a%2Fb'), 'disallowed', 'a reserved character stays encoded, and matches encoded');
  assert.equal(await v('/a/b'), 'allowed', '%2F is not /');
});

test('past maxOrigins the least recently checked origin is dropped, and read again when the crawl comes back to it', async () => {
  const hits = [0, 0, 0];
  const servers = hits.map((_, i) =>
    createServer((req, res) => {
      if (req.url === '/robots.txt') hits[i]!++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    }),
  );
  const origins: string[] = [];
  for (const s of servers) {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    origins.push(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
  }
  try {
    const robots = new RobotsCache(fetcher, { maxOrigins: 2 });
    const [a, b, c] = origins as [string, string, string];
    for (const url of [`${a}/1`, `${b}/1`, `${a}/2`, `${c}/1`, `${a}/3`]) assert.equal((await robots.check(url)).kind, 'allowed');
    assert.deepEqual(hits, [1, 1, 1], 'a was checked after b: b is the one dropped when c came');
    assert.equal((await robots.check(`${b}/private/x`)).kind, 'disallowed');
    assert.deepEqual(hits, [1, 2, 1], 'b is read again');
  } finally {
    for (const s of servers) s.close();
  }
});
