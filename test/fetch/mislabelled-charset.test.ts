import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import { startCrawl } from '../../src/crawl.js';

const TEXT = '太阳能光伏发电是一种可再生能源';
const html = (title: string) => `<!DOCTYPE html><html><head><meta charset="gbk"><title>${title}</title></head><body><p>${TEXT}</p></body></html>`;

test('a page whose <meta> says GBK but whose bytes are UTF-8 is stored as UTF-8, with the override recorded; real GBK and an HTTP charset are kept', async () => {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    const send = (type: string, body: Buffer) => res.writeHead(200, { 'content-type': type }).end(body);
    switch (req.url) {
      case '/':
        return send('text/html', Buffer.from('<title>hub</title><a href="/utf8-as-gbk">a</a> <a href="/gbk">b</a> <a href="/http-gbk">c</a>'));
      case '/utf8-as-gbk':
        return send('text/html', Buffer.from(html('光伏 mislabelled')));
      case '/gbk':
        return send('text/html', iconv.encode(html('光伏 real gbk'), 'gbk'));
      case '/http-gbk':
        // The server says GBK in HTTP: that is not second-guessed, whatever the bytes.
        return send('text/html; charset=GBK', Buffer.from(html('http says gbk')));
      default:
        return void res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const crawl = await startCrawl({ seeds: [origin + '/'], db: join(mkdtempSync(join(tmpdir(), 'fc-charset-')), 'c.db'), delayMs: 0, robots: false });
  try {
    await crawl.run();
    await crawl.db.settle();
    const page = (path: string) => crawl.db.db.prepare('SELECT title, text, encoding FROM pages WHERE url = ?').get(origin + path) as { title: string; text: string; encoding: string };
    assert.deepEqual(page('/utf8-as-gbk'), { title: '光伏 mislabelled', text: TEXT, encoding: 'UTF-8 (declared GBK)' });
    assert.deepEqual(page('/gbk'), { title: '光伏 real gbk', text: TEXT, encoding: 'GBK' });
    assert.equal(page('/http-gbk').encoding, 'GBK');
    assert.notEqual(page('/http-gbk').text, TEXT);
    const found = (await crawl.store.search('光伏发电', 10)).map((h) => h.url).sort();
    assert.deepEqual(found, [origin + '/gbk', origin + '/utf8-as-gbk']);
    for (const path of ['/', '/utf8-as-gbk', '/gbk', '/http-gbk']) assert.equal(hits.get(path), 1, `${path} fetched once`);
  } finally {
    await crawl.close();
    server.close();
  }
});
