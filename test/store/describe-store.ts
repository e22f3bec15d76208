import { test } from 'node:test';
import assert from 'node:assert/strict';
import { urlKey } from '../../src/seen/fingerprint.js';
import type { CrawlReader } from '../../src/store/crawl-reader.js';
import type { LogEntry, NewLogEntry, PageRecord, Store } from '../../src/store/store.js';

export const pageRecord = (path: string, title: string, text: string | null, extra: Partial<PageRecord> = {}): PageRecord => {
  const url = `http://a.test/${path}`;
  return {
    key: urlKey(url), url, finalUrl: url, status: 200, contentType: 'text/html', headers: {}, redirects: [],
    fetchedAt: '2026-01-01T00:00:00Z', fetchMs: 1, bytes: 10, encoding: 'UTF-8', title, text, canonical: null, relevance: 0.5, noindex: false, outlinks: [], ...extra,
  };
};

export const logLine = (url: string, state: NewLogEntry['state'], extra: Partial<NewLogEntry> = {}): NewLogEntry => ({
  url, final_url: state === 'discarded' ? null : url, state, status: state === 'done' ? 200 : null, depth: 1, parent: null, anchor: '', title: null,
  relevance: null, priority: 0.5, fetched_at: state === 'discarded' ? null : '2026-01-01T00:00:00Z', error: state === 'done' ? null : 'x', ...extra,
});

/** A page, committed as a fetch commits it: the page with its log line. */
export async function commitPage(store: Store, p: PageRecord): Promise<void> {
  await store.commit({ key: p.key, page: p, entry: logLine(p.url, 'done', { title: p.title, relevance: p.relevance }) });
}

export interface StoreUnderTest {
  store: Store;
  /** The read model over the same backend. */
  reader: CrawlReader;
  /** Records URLs as the crawl's frontier does on this backend: waiting, or discarded with a reason. */
  admit(urls: string[], state: 'waiting' | 'discarded'): Promise<void>;
  /** Ends a URL as a crawl does on this backend (admitted, claimed, its log line committed, its state final); `sitemap`: a sitemap file's URL. */
  end(url: string, state: 'done' | 'error', reason: string | null, opts?: { sitemap?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** The Store contract, run once per backend. `make` returns an empty repository. */
export function describeStore(name: string, make: () => Promise<StoreUnderTest>): void {
  test(`${name}: search over Chinese and English; noindex pages are stored, not searchable`, async () => {
    const { store, reader, close } = await make();
    try {
      await commitPage(store, pageRecord('1', '太阳能光伏', '光伏发电系统的安装'));
      await commitPage(store, pageRecord('2', 'Solar inverter guide', 'How a solar inverter works'));
      await commitPage(store, pageRecord('3', 'Hidden', null, { noindex: true }));
      await store.flush();
      assert.deepEqual((await store.search('光伏发电', 10)).map((h) => h.url), ['http://a.test/1']);
      assert.deepEqual((await store.search('阳能', 10)).map((h) => h.url), ['http://a.test/1'], 'a CJK bigram inside a word');
      assert.deepEqual((await store.search('光', 10)).map((h) => h.url), ['http://a.test/1'], 'one CJK character');
      assert.deepEqual((await store.search('solar inverter', 10)).map((h) => [h.url, h.title]), [['http://a.test/2', 'Solar inverter guide']]);
      assert.deepEqual((await store.search('in\u00adverter', 10)).map((h) => h.url), ['http://a.test/2'], 'a soft hyphen in the query is dropped, as from pages');
      assert.deepEqual(await store.search('hidden', 10), []);
      assert.equal(await reader.pageCount(), 3);
    } finally {
      await close();
    }
  });

  test(`${name}: search reads simplified and traditional Chinese as one, and shows the snippet as the page wrote it`, async () => {
    const { store, close } = await make();
    try {
      await commitPage(store, pageRecord('tw', '網路伺服器設定', '本章介紹網路伺服器的軟體和資料庫的預設設定。'));
      await commitPage(store, pageRecord('cn', '网络服务器设置', '本章介绍网络服务器的软件和数据库的默认设置。'));
      await commitPage(store, pageRecord('en', 'Network servers', 'nothing in Chinese'));
      await store.flush();
      const both = ['http://a.test/cn', 'http://a.test/tw'];
      for (const q of ['网络', '網路', '软件 数据库', '軟體 資料庫', '服务器', '网络服务器设置', '網路伺服器設定']) {
        assert.deepEqual((await store.search(q, 10)).map((h) => h.url).sort(), both, q);
      }
      assert.deepEqual((await store.search('伺服器', 10)).map((h) => h.url), ['http://a.test/tw'], 'a word that does not show its script is looked for as written');
      const [hit] = await store.search('软件', 10).then((hits) => hits.filter((h) => h.url.endsWith('/tw')));
      assert.equal(hit?.title, '網路伺服器設定', 'the title as the page wrote it');
      assert.ok(hit?.snippet.includes('軟體'), `the snippet as the page wrote it: ${hit?.snippet}`);
    } finally {
      await close();
    }
  });

  test(`${name}: the read model's host list keeps hosts in play ahead of hosts known only from discarded links when it is cut`, async () => {
    const { store, reader, admit, close } = await make();
    try {
      // Out-of-scope hosts sort before the waiting ones by name: a limit applied by fetches and name alone cut those off.
      await admit(['http://b1.test/x', 'http://b2.test/x', 'http://b3.test/x'], 'discarded');
      await admit(['http://y.test/waiting', 'http://z.test/waiting'], 'waiting');
      await store.flush();
      const listed = (await reader.hosts(2, null)).map((h) => [h.host, h.fetched, h.waiting]);
      assert.deepEqual(listed, [['y.test', 0, 1], ['z.test', 0, 1]]);
      assert.deepEqual((await reader.hosts(10, null)).map((h) => h.host), ['y.test', 'z.test', 'b1.test', 'b2.test', 'b3.test'], 'the rest after them, by name');
    } finally {
      await close();
    }
  });

  test(`${name}: a host's fetches against its budget leave out the URLs that ended without a request`, async () => {
    const { store, reader, end, close } = await make();
    try {
      await end('http://h.test/page', 'done', null);
      await end('http://h.test/404', 'error', 'HTTP 404');
      await end('http://h.test/dead', 'error', 'host unreachable: ECONNREFUSED (2 failures in a row)');
      await store.flush();
      const [h] = await reader.hosts(10, null);
      assert.deepEqual([h?.host, h?.fetched, h?.errors], ['h.test', 2, 2]);
    } finally {
      await close();
    }
  });

  test(`${name}: the sitemap files counted as fetched leave out those that ended without a request`, async () => {
    const { store, reader, end, close } = await make();
    try {
      await end('http://s.test/sitemap.xml', 'done', null, { sitemap: true });
      await end('http://s.test/missing.xml', 'error', 'HTTP 404', { sitemap: true });
      await end('http://d.test/sitemap.xml', 'error', 'robots.txt unreachable: connection refused [ECONNREFUSED 127.0.0.1:9]', { sitemap: true });
      await end('http://s.test/page', 'done', null);
      await store.flush();
      assert.equal((await reader.sitemapCounts()).files, 2, 'found or not, but asked');
    } finally {
      await close();
    }
  });

  test(`${name}: commits not yet awaited and handed over are readable once flush resolves`, async () => {
    const { store, reader, close } = await make();
    try {
      const commits = ['1', '2', '3'].map((p) => commitPage(store, pageRecord(p, `Page ${p}`, 'solar panels')));
      store.handOver();
      await store.flush();
      assert.equal(await reader.pageCount(), 3);
      assert.equal((await store.search('solar', 10)).length, 3);
      await Promise.all(commits);
    } finally {
      await close();
    }
  });

  test(`${name}: Latin diacritics are folded both ways (café is found by cafe, and the reverse); other scripts keep their marks`, async () => {
    const { store, close } = await make();
    try {
      await commitPage(store, pageRecord('1', 'Café crème', 'Ångström units in São Paulo'));
      await commitPage(store, pageRecord('2', 'Resume', 'a plain cafe'));
      await commitPage(store, pageRecord('3', 'हिन्दी', 'किताब पढ़ना'));
      await store.flush();
      const urls = async (q: string) => (await store.search(q, 10)).map((h) => h.url).sort();
      assert.deepEqual(await urls('creme angstrom'), ['http://a.test/1']);
      assert.deepEqual(await urls('sao paulo'), ['http://a.test/1']);
      assert.deepEqual(await urls('cafe'), ['http://a.test/1', 'http://a.test/2']);
      assert.deepEqual(await urls('café'), ['http://a.test/1', 'http://a.test/2']);
      assert.deepEqual(await urls('résumé'), ['http://a.test/2']);
      assert.deepEqual(await urls('किताब'), ['http://a.test/3']);
    } finally {
      await close();
    }
  });

  test(`${name}: a page committed again under its key replaces the first (a redelivered URL is stored once)`, async () => {
    const { store, reader, close } = await make();
    try {
      await commitPage(store, pageRecord('2', 'Solar inverter guide', 'silicon cells'));
      await commitPage(store, pageRecord('2', 'Solar inverter guide, second edition', 'perovskite cells'));
      await store.flush();
      assert.equal(await reader.pageCount(), 1);
      assert.deepEqual(await store.search('silicon', 10), [], 'the old text is gone from the index');
      assert.deepEqual((await store.search('perovskite', 10)).map((h) => h.title), ['Solar inverter guide, second edition']);
    } finally {
      await close();
    }
  });

  test(`${name}: the log keeps commits and discards in order with their fields; relevance is counted`, async () => {
    const { store, reader, close } = await make();
    try {
      await commitPage(store, pageRecord('a', 'A', 'alpha', { relevance: 0.9 }));
      await store.logDiscards([logLine('http://b.test/out', 'discarded', { error: 'out of scope', anchor: 'elsewhere', parent: 'http://a.test/a' })]);
      await store.commit({ key: urlKey('http://a.test/gone'), page: null, entry: logLine('http://a.test/gone', 'error', { status: 404, error: 'HTTP 404' }) });
      await commitPage(store, pageRecord('b', 'B', 'beta', { relevance: 0.1 }));
      await store.flush();
      const log: LogEntry[] = [];
      for await (const e of store.logEntries()) log.push(e);
      assert.deepEqual(log.map((e) => [e.url, e.state]), [['http://a.test/a', 'done'], ['http://b.test/out', 'discarded'], ['http://a.test/gone', 'error'], ['http://a.test/b', 'done']]);
      assert.ok(log.every((e, i) => i === 0 || e.seq > log[i - 1]!.seq), 'seq grows');
      assert.deepEqual([log[1]!.error, log[1]!.anchor, log[1]!.parent], ['out of scope', 'elsewhere', 'http://a.test/a']);
      assert.deepEqual([log[2]!.status, log[2]!.error], [404, 'HTTP 404']);
      assert.equal(await store.countRelevant(0.5), 1);
      assert.equal(await reader.countRelevant(0.05), 2);
      const after = [];
      for await (const e of reader.logEntries(log[1]!.seq)) after.push(e.url);
      assert.deepEqual(after, ['http://a.test/gone', 'http://a.test/b'], 'the reader resumes after a seq');
      assert.deepEqual(await reader.topErrors(5), [{ error: 'HTTP 404', n: 1 }]);
      // One reason with many targets is one line: the URLs in an error's text do not split it.
      for (const [i, host] of ['c.test', 'd.test', 'e.test'].entries()) {
        await store.commit({ key: urlKey(`http://a.test/r${i}`), page: null, entry: logLine(`http://a.test/r${i}`, 'error', { status: 302, error: `redirect to http://${host}/x?a=1 not followed: out of scope` }) });
      }
      await store.flush();
      assert.deepEqual(await reader.topErrors(5), [{ error: 'redirect to … not followed: out of scope', n: 3 }, { error: 'HTTP 404', n: 1 }]);
    } finally {
      await close();
    }
  });

  test(`${name}: stored pages stream with their text in the order fetched, past a reader's page of rows, cut by relevance`, async () => {
    const { store, reader, close } = await make();
    try {
      // More pages than one PostgreSQL round trip reads (1,000), many fetched in the same millisecond:
      // the order then falls back on the URL, and no page is skipped or repeated between round trips.
      const n = 1005;
      const at = (i: number) => `2026-01-01T00:00:${String(Math.floor(i / 100)).padStart(2, '0')}.000Z`;
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          commitPage(store, pageRecord(`p${String(n - i).padStart(4, '0')}`, `页面 ${i}`, i === 7 ? '光伏 "quoted"\nline two' : `text ${i}`, { fetchedAt: at(i), relevance: i % 10 === 0 ? 0.8 : 0.1, noindex: i === 9 })),
        ),
      );
      await store.flush();
      const all = [];
      for await (const p of reader.storedPages()) all.push(p);
      assert.equal(all.length, n);
      assert.equal(new Set(all.map((p) => p.url)).size, n, 'no page twice');
      const order = all.map((p) => `${p.fetched_at} ${p.url}`);
      assert.deepEqual(order, [...order].sort(), 'in the order fetched, then by URL');
      const seven = all.find((p) => p.title === '页面 7')!;
      assert.deepEqual([seven.text, seven.status, seven.noindex], ['光伏 "quoted"\nline two', 200, false]);
      assert.equal(all.find((p) => p.title === '页面 9')!.noindex, true);
      const relevant = [];
      for await (const p of reader.storedPages(0.5)) relevant.push(p.title);
      assert.equal(relevant.length, Math.ceil(n / 10));
      assert.ok(relevant.includes('页面 1000') && !relevant.includes('页面 7'));
    } finally {
      await close();
    }
  });

  test(`${name}: a character that ends a CJK run, and compatibility forms, are found as a browser shows them`, async () => {
    const { store, close } = await make();
    try {
      await commitPage(store, pageRecord('e', '我的书很好', '组件 태양광 ｓｏｌａｒ ﬁnance ＡＢＣ１２３ ｿｰﾗｰ'));
      await store.flush();
      const found = async (q: string) => (await store.search(q, 10)).map((h) => h.url);
      for (const q of ['好', '书很好', '件', '광', 'solar', 'ｓｏｌａｒ', 'finance', 'abc123', 'ソーラー']) assert.deepEqual(await found(q), ['http://a.test/e'], q);
    } finally {
      await close();
    }
  });

  test(`${name}: a word where Chinese runs into Latin letters or digits is found, the same on every backend`, async () => {
    const { store, close } = await make();
    try {
      await commitPage(store, pageRecord('m', '北京2024年', '维生素C片 卡拉OK厅 使用GIS软件 今天A股市 T恤衫'));
      await store.flush();
      const found = async (q: string) => (await store.search(q, 10)).map((h) => h.url);
      for (const q of ['北京2024年', '北京2024', '维生素C', '维生素C片', '卡拉OK', '使用GIS', 'GIS软件', '今天A股', 'A股', '天A', 'T恤', '2024年']) {
        assert.deepEqual(await found(q), ['http://a.test/m'], q);
      }
      for (const q of ['北京2025年', 'B股', '维生素D']) assert.deepEqual(await found(q), [], `${q} is not on the page`);
      // Snippets show the match, far into a long page, for queries written the Chinese way.
      await commitPage(store, pageRecord('long', '长页', '无关的文字。'.repeat(60) + '我们的太阳能光伏组件使用ＧＩＳ系统，café 在这里。' + '其他内容。'.repeat(40)));
      await store.flush();
      for (const [q, shows] of [['太阳能，光伏', '太阳能光伏组件'], ['GIS', 'ＧＩＳ系统'], ['cafe', 'café']]) {
        const hit = (await store.search(q, 10)).find((h) => h.url === 'http://a.test/long');
        assert.ok(hit?.snippet.includes(shows!), `${q}: ${hit?.snippet}`);
      }
    } finally {
      await close();
    }
  });

  test(`${name}: search input that would be query syntax is taken as words; a query with no words is refused`, async () => {
    const { store, close } = await make();
    try {
      await commitPage(store, pageRecord('q', 'Quoting', 'solar AND NOT x'));
      await store.flush();
      assert.deepEqual((await store.search('solar AND (NOT "x"', 10)).map((h) => h.url), ['http://a.test/q']);
      await assert.rejects(store.search('  ()  ', 10), /has no words/);
      // A word written with * after it is a prefix, as FTS5 and tsquery read it; alone, a * is no word.
      await commitPage(store, pageRecord('p', 'Photovoltaics', 'photovoltaic inverters on the roof'));
      await store.flush();
      assert.deepEqual((await store.search('photo*', 10)).map((h) => h.url), ['http://a.test/p']);
      assert.deepEqual((await store.search('photo*', 10))[0]!.snippet.includes('photovoltaic'), true);
      assert.deepEqual(await store.search('photo', 10), [], 'without the *, the whole word');
      assert.deepEqual((await store.search('PHOTO* invert*', 10)).map((h) => h.url), ['http://a.test/p']);
      assert.deepEqual((await store.search('sol* AND x*', 10)).map((h) => h.url), ['http://a.test/q']);
      await assert.rejects(store.search(' * ', 10), /has no words/);
      assert.equal(store.congested(), false, 'an idle store is not congested');
    } finally {
      await close();
    }
  });

  test(`${name}: fetchedRelevance reads every scored page's relevance back from the log, in batches, in crawl order`, async () => {
    const { store, reader, close } = await make();
    try {
      for (let i = 0; i < 5; i++) await commitPage(store, pageRecord(`r${i}`, `t${i}`, 'x', { relevance: i / 10 }));
      await commitPage(store, pageRecord('unscored', 'u', 'x', { relevance: null }));
      await store.flush();
      const batches = [];
      for await (const b of reader.fetchedRelevance(2)) batches.push(b);
      assert.deepEqual(batches.map((b) => b.length), [2, 2, 1]);
      assert.deepEqual(batches.flat().map((r) => [new URL(r.url).pathname, r.finalUrl === r.url, r.relevance]), [0, 1, 2, 3, 4].map((i) => [`/r${i}`, true, i / 10]));
    } finally {
      await close();
    }
  });

  test(`${name}: the read model's search and storedPages name a bad argument from a library caller`, async () => {
    const { store, reader, close } = await make();
    try {
      await commitPage(store, pageRecord('a', 'Solar', 'solar panels'));
      await store.flush();
      assert.equal((await reader.search('solar', 1)).length, 1);
      await assert.rejects(reader.search('solar', -1), /search\(query, limit\): limit must be a whole number of at least 1, not -1/);
      await assert.rejects(reader.search('solar', '2' as never), /limit must be a whole number of at least 1, not "2"/);
      await assert.rejects(reader.search(null as never, 5), /search\(query, limit\): query must be a string, not null/);
      const pages = async (min: unknown) => {
        const out = [];
        for await (const p of reader.storedPages(min as number)) out.push(p);
        return out;
      };
      await assert.rejects(pages('x'), /storedPages\(minRelevance\): minRelevance must be a number, or null for every page, not "x"/);
      assert.equal((await pages(null)).length, 1);
    } finally {
      await close();
    }
  });
}
