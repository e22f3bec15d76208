import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startCrawl } from '../../src/crawl.js';
import { robotsAgentOf } from '../../src/fetch/robots-agent.js';

// Path -> its X-Robots-Tag header lines; each page links its own child (path + '1').
const TAGS: Record<string, string[]> = {
  '/plain': [],
  '/noindex': ['noindex'],
  '/nofollow': ['nofollow'],
  '/otherbot': ['otherbot: none'],
  '/two-headers': ['otherbot: nofollow', 'noindex'],
  '/by-name': ['focuscrawl: none'],
};

test('X-Robots-Tag is obeyed like <meta name="robots">: noindex keeps the text out of the store, nofollow the links out of the frontier', async () => {
  const hits: string[] = [];
  const page = (res: ServerResponse, body: string, tags: string[] = []) => {
    if (tags.length) res.setHeader('X-Robots-Tag', tags);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>t</title><body><p>words on the page</p>${body}</body>`);
  };
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(404).end();
    hits.push(path);
    if (path === '/') return page(res, Object.keys(TAGS).map((p) => `<a href="${p}">${p}</a>`).join(' '));
    if (path in TAGS) return page(res, `<a href="${path}1">child</a>`, TAGS[path]);
    return page(res, '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const crawl = await startCrawl({ seeds: [origin + '/'], db: join(mkdtempSync(join(tmpdir(), 'fc-xrobots-')), 'crawl.db'), delayMs: 0, sitemaps: false });
    await crawl.run();
    await crawl.db.settle();
    const stored = new Map(
      (crawl.db.db.prepare('SELECT url, text, noindex FROM pages').all() as { url: string; text: string | null; noindex: number }[]).map((r) => [r.url.slice(origin.length), r]),
    );
    const found = (await crawl.store.search('words', 20)).map((h) => h.url.slice(origin.length)).sort();
    await crawl.close();
    const children = hits.filter((h) => h.endsWith('1')).sort();
    assert.deepEqual(children, ['/noindex1', '/otherbot1', '/plain1', '/two-headers1'], 'children fetched: not those of nofollow pages');
    const noindexed = [...stored].filter(([, r]) => r.noindex === 1).map(([p]) => p).sort();
    assert.deepEqual(noindexed, ['/by-name', '/noindex', '/two-headers']);
    for (const p of noindexed) assert.equal(stored.get(p)!.text, null, `${p}: no text stored`);
    assert.equal(stored.get('/otherbot')!.text?.includes('words on the page'), true);
    assert.equal(found.includes('/noindex'), false, 'not searchable');
    assert.equal(found.includes('/plain'), true);
  } finally {
    server.close();
  }
});

test('robots.txt, X-Robots-Tag and <meta> address the crawler by the token of the User-Agent it sends', async () => {
  assert.equal(robotsAgentOf('MyBot/1.0 (+https://example.org/bot)'), 'mybot');
  assert.equal(robotsAgentOf('Mozilla/5.0 (compatible; Seeker-2/2.1; +https://example.org)'), 'seeker-2');
  assert.equal(robotsAgentOf('focuscrawl/0.1 (+https://github.com/focuscrawl/focuscrawl)'), 'focuscrawl');
  assert.equal(robotsAgentOf('(no token)'), 'focuscrawl');
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: mybot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n');
    hits.push(path);
    const body = path === '/' ? '<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a> <a href="/d">d</a>' : '<p>words on the page</p>';
    if (path === '/c') res.setHeader('X-Robots-Tag', 'mybot: noindex');
    const meta = path === '/d' ? '<meta name="mybot" content="noindex">' : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>t</title>${meta}<body>${body}</body>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'fc-robots-agent-'));
  try {
    const crawlAs = async (userAgent: string | undefined, db: string) => {
      hits.length = 0;
      const crawl = await startCrawl({ seeds: [origin + '/'], db: join(dir, db), delayMs: 0, sitemaps: false, ...(userAgent ? { userAgent } : {}) });
      await crawl.run();
      await crawl.db.settle();
      const noindex = (crawl.db.db.prepare('SELECT url FROM pages WHERE noindex = 1').pluck().all() as string[]).map((u) => u.slice(origin.length)).sort();
      await crawl.close();
      return { fetched: [...hits].sort(), noindex };
    };
    const mine = await crawlAs('MyBot/1.0 (+https://example.org/bot)', 'mine.db');
    assert.deepEqual(mine.fetched, ['/', '/b', '/c', '/d'], "MyBot's group disallows /a and only /a");
    assert.deepEqual(mine.noindex, ['/c', '/d'], 'the header line and the <meta> named for MyBot apply');
    const plain = await crawlAs(undefined, 'plain.db');
    assert.deepEqual(plain.fetched, ['/', '/a', '/c', '/d'], 'focuscrawl falls under *, which disallows /b');
    assert.deepEqual(plain.noindex, [], 'lines for another crawler do not apply');
  } finally {
    server.close();
  }
});
