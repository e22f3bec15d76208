import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpFetcher, isBinaryBody } from '../../src/fetch/http-fetcher.js';
import { FetchError } from '../../src/fetch/fetcher.js';
import { startTestServer, type TestServer } from '../helpers/misbehaving-server.js';

let srv: TestServer;
let fetcher: HttpFetcher;
before(async () => {
  srv = await startTestServer();
  fetcher = new HttpFetcher({ headersTimeoutMs: 1500, bodyTimeoutMs: 1500, totalTimeoutMs: 10000, maxBytes: 1024 * 1024, maxDecompressedBytes: 4 * 1024 * 1024 });
});
after(async () => {
  await fetcher.close();
  await srv.close();
});

async function failure(path: string): Promise<FetchError> {
  const err = await fetcher.fetch(srv.origin + path).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof FetchError, `${path} should fail with a FetchError, got ${String(err)}`);
  return err;
}

const text = (b: Uint8Array | null) => new TextDecoder().decode(b!);

test('redirect chains are followed with every hop recorded', async () => {
  const r = await fetcher.fetch(srv.origin + '/redirect/2');
  assert.equal(r.finalUrl, srv.origin + '/html/landed');
  assert.deepEqual(r.redirects, [
    { url: srv.origin + '/redirect/2', status: 302 },
    { url: srv.origin + '/redirect/1', status: 302 },
    { url: srv.origin + '/redirect/0', status: 302 },
  ]);
  assert.equal(r.status, 200);
});

test('redirect loops and over-long chains fail without retry', async () => {
  const loop = await failure('/loop/a');
  assert.match(loop.message, /redirect loop/);
  assert.equal(loop.transient, false);
  const long = await failure('/redirect/9');
  assert.match(long.message, /more than 5 redirects/);
});

test('a redirect with no Location, an empty one or two of them is an error that says so', async () => {
  const { createServer } = await import('node:net');
  // Raw responses: node:http would not send two Location headers as given.
  const answers: Record<string, string> = {
    '/none': 'HTTP/1.1 302 Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    '/empty': 'HTTP/1.1 302 Found\r\nLocation: \r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    '/two': 'HTTP/1.1 302 Found\r\nLocation: /a\r\nLocation: /b\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
  };
  const server = createServer((sock) => {
    sock.once('data', (d) => {
      const path = /^GET (\S+)/.exec(d.toString())?.[1] ?? '';
      sock.end(answers[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    for (const [path, why] of [['/none', /HTTP 302 redirect with no Location header/], ['/empty', /HTTP 302 redirect with no Location header/], ['/two', /HTTP 302 redirect with 2 Location headers/]] as const) {
      const err = await fetcher.fetch(origin + path).then(() => null, (e: unknown) => e);
      assert.ok(err instanceof FetchError, path);
      assert.match(err.message, why, path);
      assert.equal(err.status, 302);
    }
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('headers as servers send them: raw UTF-8 in Location, the same Location twice, two Content-Types, a 20 KB header', async () => {
  const { createServer } = await import('node:net');
  const page = (headers: string, body = '<p>ok</p>') => Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`), Buffer.from(body)]);
  const answers: Record<string, Buffer> = {
    '/utf8': Buffer.concat([Buffer.from('HTTP/1.1 302 Found\r\nLocation: '), Buffer.from('/中文页面', 'utf8'), Buffer.from('\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')]),
    '/%E4%B8%AD%E6%96%87%E9%A1%B5%E9%9D%A2': page('Content-Type: text/html\r\n', '<p>中文</p>'),
    '/same': Buffer.from('HTTP/1.1 301 Moved\r\nLocation: /target\r\nLocation: /target\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
    '/target': page('Content-Type: text/html\r\n'),
    '/types': page('Content-Type: text/html\r\nContent-Type: application/pdf\r\n'),
    '/csp': page(`Content-Type: text/html\r\nContent-Security-Policy: default-src 'self' ${'https://cdn.example.org/x '.repeat(800)}\r\n`),
  };
  const server = createServer((sock) => {
    sock.once('data', (d) => {
      const path = /^GET (\S+)/.exec(d.toString())?.[1] ?? '';
      sock.end(answers[path] ?? Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const utf8 = await fetcher.fetch(origin + '/utf8');
    assert.equal(utf8.finalUrl, `${origin}/%E4%B8%AD%E6%96%87%E9%A1%B5%E9%9D%A2`);
    assert.equal(text(utf8.body), '<p>中文</p>');
    assert.equal((await fetcher.fetch(origin + '/same')).finalUrl, `${origin}/target`);
    const types = await fetcher.fetch(origin + '/types');
    assert.equal(types.contentType, 'application/pdf', 'the last Content-Type counts');
    assert.equal(types.body, null, 'a PDF is recorded, not read');
    assert.equal(text((await fetcher.fetch(origin + '/csp')).body), '<p>ok</p>');
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('a body with no Content-Type is binary when it starts like a PDF or holds control bytes, unless a UTF-16 BOM explains them', () => {
  assert.equal(isBinaryBody(Buffer.from('%PDF-1.4\n%\xe2\xe3 1 0 obj')), true);
  assert.equal(isBinaryBody(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), true);
  assert.equal(isBinaryBody(Buffer.from('<!DOCTYPE html><p>plain</p>')), false);
  assert.equal(isBinaryBody(Buffer.from('\ufeff<p>utf16</p>', 'utf16le')), false);
});

test('a redirect guard can refuse a hop', async () => {
  const err = await fetcher.fetch(srv.origin + '/redirect/0', { redirectGuard: () => 'out of scope (host)' }).catch((e: FetchError) => e);
  assert.ok(err instanceof FetchError);
  assert.match(err.message, /not followed: out of scope/);
});

test('4xx comes back as a response; 5xx and 429 are transient errors carrying Retry-After', async () => {
  const r = await fetcher.fetch(srv.origin + '/status/404');
  assert.equal(r.status, 404);
  assert.equal(r.body, null);
  const e = await failure('/flaky/x');
  assert.equal(e.transient, true);
  assert.equal(e.status, 503);
  assert.equal(e.retryAfterMs, 0);
});

test('resets, hanging headers and refused connections are transient', async () => {
  assert.equal((await failure('/drop')).transient, true);
  const hang = await failure('/hang');
  assert.equal(hang.transient, true);
  assert.match(hang.message, /HEADERS_TIMEOUT|timed out/);
  const refused = await fetcher.fetch('http://127.0.0.1:1/').catch((e: FetchError) => e);
  assert.ok(refused instanceof FetchError && refused.transient);
});

test('gzip, deflate and br bodies are decoded', async () => {
  assert.match(text((await fetcher.fetch(srv.origin + '/gzip')).body), /compressed gzip body/);
  assert.match(text((await fetcher.fetch(srv.origin + '/deflate')).body), /compressed deflate body/);
  assert.match(text((await fetcher.fetch(srv.origin + '/br')).body), /compressed brotli body/);
});

test('a decompression bomb stops at the decompressed-size limit', async () => {
  const e = await failure('/bomb');
  assert.match(e.message, /decompressed body exceeds the limit of 4194304 bytes/);
  assert.equal(e.transient, false);
});

test('announced and endless oversized bodies fail at maxBytes', async () => {
  assert.match((await failure('/big')).message, /50000000 bytes exceeds the limit/);
  assert.match((await failure('/endless')).message, /exceeds the limit of 1048576 bytes/);
});

test('non-HTML content is recorded but not downloaded', async () => {
  const r = await fetcher.fetch(srv.origin + '/pdf');
  assert.equal(r.status, 200);
  assert.equal(r.contentType, 'application/pdf');
  assert.equal(r.body, null);
  assert.equal(r.bytes, 5000);
});

test('the configured user agent is sent', async () => {
  const seen: string[] = [];
  const s = await startTestServer([[/^\/ua$/, (q, res) => { seen.push(q.headers['user-agent']!); res.end('<p>x</p>'); }]]);
  const f = new HttpFetcher({ userAgent: 'testbot/1.0' });
  await f.fetch(s.origin + '/ua');
  await f.close();
  await s.close();
  assert.deepEqual(seen, ['testbot/1.0']);
});
