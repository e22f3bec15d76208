import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resumeCrawl, startCrawl } from '../../src/crawl.js';
import { FocusCrawlError } from '../../src/errors.js';
import type { CrawlEvents } from '../../src/engine/crawl-events.js';
import { topicFromFile } from '../../src/relevance/topic.js';
import { serveSite, type RunningSite } from '../../src/bench/site-server.js';

/** A library caller's ways of using a crawl object: what each gets, and that none hangs. */
const site: RunningSite = await serveSite({ pages: 60, seed: 4, words: [50, 100], links: [4, 8] });
after(() => site.close());
const dir = mkdtempSync(join(tmpdir(), 'fc-lifecycle-'));

test('close() during run() stops it: run() resolves with a summary, and the crawl resumes', async () => {
  const db = join(dir, 'stop.db');
  const c = await startCrawl({ seeds: [site.origin + '/'], db, delayMs: 200, perHost: 1, maxPages: 50, sitemaps: false });
  const run = c.run();
  await new Promise<void>((r) => {
    const off = c.crawler.events.on('fetched', () => {
      off();
      r();
    });
  });
  await c.close();
  const summary = await run;
  assert.equal(summary.reason, 'stopped');
  assert.ok(summary.stats.fetched >= 1 && summary.stats.fetched < 50);
  const again = await resumeCrawl(db, { delayMs: 0 });
  const rest = await again.run();
  await again.close();
  assert.ok(rest.stats.fetched > 0, 'the resumed run goes on where the stopped one ended');
  assert.ok(summary.stats.fetched + rest.stats.fetched <= 50, 'within the one budget');
});

test('close() twice is one close; run() after close() is a FocusCrawlError; two run() calls are one run', async () => {
  const c = await startCrawl({ seeds: [site.origin + '/'], db: join(dir, 'twice.db'), delayMs: 0, maxPages: 5, sitemaps: false });
  const [a, b] = [c.run(), c.run()];
  assert.equal(a, b);
  assert.equal((await a).stats.fetched, 5);
  await c.close();
  await c.close();
  await assert.rejects(c.run(), (err: unknown) => err instanceof FocusCrawlError && /is closed: start or resume it again/.test(err.message));
});

test('resumeCrawl names a bad option as the caller\'s, not as the database\'s', async () => {
  for (const [overrides, field] of [[{ maxPages: NaN }, 'maxPages'], [{ concurrency: -1 }, 'concurrency'], [{ foo: 1 }, 'foo']] as const) {
    await assert.rejects(resumeCrawl(join(dir, 'twice.db'), overrides as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message.startsWith(`resume option '${field}'`));
  }
});

test('an async event listener that rejects is reported as a warning, not an unhandled rejection that ends the process', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const c = await startCrawl({ seeds: [site.origin + '/'], db: join(dir, 'async-listener.db'), delayMs: 0, maxPages: 4, sitemaps: false });
    let calls = 0;
    c.crawler.events.on('fetched', async (e) => {
      calls++;
      await Promise.resolve();
      throw new Error(`could not save ${e.url}`);
    });
    const summary = await c.run();
    await c.close();
    // The rejections are handled in microtasks and the warnings emitted on the next tick: one turn of the event loop has them all.
    await new Promise((r) => setImmediate(r));
    assert.equal(summary.reason, 'max-pages');
    assert.equal(calls, 4);
    const reported = warnings.filter((w) => /a 'fetched' listener failed: could not save http/.test(w));
    assert.equal(reported.length, 4, warnings.join('\n'));
  } finally {
    process.off('warning', onWarning);
  }
});

test('events.on refuses an event name that does not exist, which would never fire', async () => {
  const c = await startCrawl({ seeds: [site.origin + '/'], db: join(dir, 'event-name.db'), delayMs: 0, maxPages: 1, sitemaps: false });
  try {
    assert.throws(() => c.crawler.events.on('fetch' as never, () => {}), (err: unknown) => err instanceof TypeError && err.message === "no crawl event 'fetch': the events are fetched, discarded, retried, probe, backlog");
  } finally {
    await c.close();
  }
});

test('resumeCrawl: an override set to undefined is not given (it reset the stored budget and robots to their defaults)', async () => {
  const db = join(dir, 'undefined-overrides.db');
  const first = await startCrawl({ seeds: [site.origin + '/'], db, delayMs: 0, maxPages: 3, robots: false, sitemaps: false });
  await first.run();
  await first.close();
  const again = await resumeCrawl(db, { maxPages: undefined, robots: undefined, concurrency: 2 });
  try {
    assert.equal(again.config.maxPages, 3);
    assert.equal(again.config.robots, false);
    assert.equal(again.config.concurrency, 2);
  } finally {
    await again.close();
  }
});

test('resumeCrawl refuses as overrides the options a crawl is started with, saying where each goes', async () => {
  const db = join(dir, 'fixed-overrides.db');
  const first = await startCrawl({ seeds: [site.origin + '/'], db, delayMs: 0, maxPages: 2, sitemaps: false, topic: { name: 'solar', keywords: { solar: 1 } } });
  await first.run();
  await first.close();
  const cases: [object, RegExp][] = [
    [{ topic: null }, /^resume option 'topic': a new topic is resumeCrawl's third argument, resumeCrawl\(db, overrides, \{ topic \}\), where one different from the crawl's needs force: true$/],
    [{ topic: { name: 'cooking', keywords: { pasta: 1 } } }, /^resume option 'topic': /],
    [{ topic: 'solar.yaml' }, /^resume option 'topic': /],
    [{ seeds: ['http://127.0.0.9/'] }, /^resume option 'seeds': a crawl keeps the seeds it was started with: startCrawl on the same db adds seeds to it$/],
    [{ db: join(dir, 'other.db') }, /^resume option 'db': the database is resumeCrawl's first argument$/],
    [{ preset: 'wms' }, /^resume option 'preset': a preset applies when a crawl starts \(startCrawl\)$/],
  ];
  for (const [overrides, message] of cases) {
    await assert.rejects(resumeCrawl(db, overrides as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && message.test(err.message), JSON.stringify(overrides));
  }
  // The topic the crawl has is still there, and the third argument changes it (an inline topic too).
  const same = await resumeCrawl(db, {}, { topic: { name: 'solar', keywords: { solar: 1 } } });
  assert.equal((same.config.topic as { name: string }).name, 'solar');
  await same.close();
  await assert.rejects(resumeCrawl(db, {}, { topic: { name: 'cooking', keywords: { pasta: 1 } } }), (err: unknown) => err instanceof FocusCrawlError && /--force to switch \(resumeCrawl\(db, overrides, \{ topic, force: true \}\) from code;/.test(err.message));
  await assert.rejects(resumeCrawl(db, {}, { topic: { name: 'cooking', keyword: { pasta: 1 } } as never }), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && /^resume topic field 'keyword': unknown \(did you mean 'keywords'\?\)$/.test(err.message));
});

test('startCrawl names the field at fault, inside an inline topic too, with code CONFIG for every bad option', async () => {
  const seeds = [site.origin + '/'];
  const db = join(dir, 'never-made.db');
  const cases: [object, string][] = [
    [{ seeds, db, maxPage: 5 }, "crawl option 'maxPage': unknown (did you mean 'maxPages'?)"],
    // The unknown key explains the missing one, and is named first.
    [{ seeds, db, topic: { name: 'solar', keyword: { solar: 1 } } }, "crawl option 'topic.keyword': unknown (did you mean 'keywords'?)"],
    [{ seeds, db, topic: { name: 'solar', keywords: { solar: 1 }, treshold: 0.3 } }, "crawl option 'topic.treshold': unknown (did you mean 'threshold'?)"],
    [{ seeds, db, topic: { name: 'solar', keywords: { solar: 1 }, positions: { titel: 3 } } }, "crawl option 'topic.positions.titel': unknown (did you mean 'title'?)"],
    [{ seeds, db, topic: { name: 'solar' } }, "crawl option 'topic.keywords': is missing"],
    [{ seeds, db, topic: { name: 'solar', keywords: { solar: 1 }, threshold: 2 } }, "crawl option 'topic.threshold': must be at most 1"],
    [{ seeds, db, topic: '' }, "crawl option 'topic': is empty: give a file name"],
    [{ seeds, db, topic: topicFromFile({ name: 'solar', keywords: { solar: 1 } }) }, "crawl option 'topic' is a compiled Topic (loadTopic, topicFromFile): give the topic file's form, loadTopicFile(FILE) or { name, keywords }"],
    [{ seeds, db, strategy: 'bestfirst' }, "unknown strategy 'bestfirst' (did you mean 'best-first'?)"],
    [{ seeds, db, strategy: 'shark' }, "strategy 'shark' needs a topic: pass --topic FILE"],
    [{ db }, 'no seed URLs: give them as arguments, or with --seeds URL... or --seeds-file FILE (the seeds option)'],
    [{ seeds, db, stopWhenStalled: 3 }, '--stop-when-stalled needs a topic: pass --topic FILE (the stopWhenStalled and topic options)'],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(startCrawl(options as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message === message, JSON.stringify(options));
  }
  // What belongs in the second argument, given among the options, and a misspelt part, which was ignored in silence.
  await assert.rejects(startCrawl(null as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && /^startCrawl\(options\): options must be an object of crawl options .*not null$/.test(err.message));
  await assert.rejects(startCrawl({ seeds, db, force: true } as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message === "crawl option 'force': not an option but a part, startCrawl(options, { force: true })");
  await assert.rejects(startCrawl({ seeds, db, strategy: { name: 'mine' } } as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message === "crawl option 'strategy': a strategy object is a part, startCrawl(options, { strategy }); the option names a built-in one");
  await assert.rejects(startCrawl({ seeds, db }, { forse: true } as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message === "startCrawl part 'forse': unknown (did you mean 'force'?); the parts are fetcher, strategy, force");
  await assert.rejects(resumeCrawl(join(dir, 'twice.db'), {}, { strategey: {} } as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message === "resumeCrawl part 'strategey': unknown (did you mean 'strategy'?); the parts are fetcher, strategy, topic, force");
  await assert.rejects(resumeCrawl(join(dir, 'twice.db'), { force: true } as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && /^resume option 'force': not an option but a part/.test(err.message));
  // A strategy object missing what the crawl calls is named, not met mid-crawl as a TypeError.
  const parts: [unknown, string][] = [
    [{ name: 'x' }, "startCrawl part 'strategy' has no seed(url) method"],
    [{ name: '', seed: () => ({ priority: 1 }), scoreLinks: () => [] }, "startCrawl part 'strategy' has no name (a non-empty string)"],
    [{ name: 'x', topic: null, seed: () => ({ priority: 1 }) }, "startCrawl part 'strategy' has no scoreLinks(view, links) method"],
    [{ name: 'x', seed: () => ({ priority: 1 }), scoreLinks: () => [] }, "startCrawl part 'strategy' has no topic (null, or the Topic it scores with: the crawl gives it its own)"],
    [[], "startCrawl part 'strategy' must be an object with name, topic, seed(url) and scoreLinks(view, links), not a list"],
  ];
  for (const [strategy, message] of parts) {
    await assert.rejects(startCrawl({ seeds, db }, { strategy } as never), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG' && err.message === message, message);
  }
  assert.equal(existsSync(db), false);
});

test("a strategy object's decisions are checked: too few, or a priority that is no finite number, end the page with the strategy named", async () => {
  const cases: [string, (links: readonly unknown[]) => unknown[], RegExp][] = [
    ['short', () => [], /strategy short: scoreLinks for .* returned 0 decisions for \d+ links: one a link, null to discard it/],
    ['nan', (links) => links.map(() => ({ priority: NaN })), /strategy nan: scoreLinks for .* gave .* the priority NaN: a priority is a finite number/],
    ['text', (links) => links.map(() => ({ priority: '5' })), /strategy text: scoreLinks for .* gave .* the priority "5": a priority is a finite number/],
    ['infinite', (links) => links.map(() => ({ priority: Infinity })), /strategy infinite: scoreLinks for .* gave .* the priority Infinity/],
  ];
  for (const [name, decide, reason] of cases) {
    const strategy = { name, topic: null, seed: () => ({ priority: 1 }), scoreLinks: (_view: unknown, links: readonly unknown[]) => decide(links) };
    const c = await startCrawl({ seeds: [site.origin + '/'], db: join(dir, `decisions-${name}.db`), delayMs: 0, maxPages: 5, sitemaps: false }, { strategy } as never);
    try {
      const summary = await c.run();
      assert.equal(summary.stats.fetched, 1, 'the seed page, whose links could not be admitted');
      await c.db.settle();
      const row = c.db.db.prepare("SELECT state, error FROM crawl_log WHERE url = ?").get(site.origin + '/') as { state: string; error: string };
      assert.equal(row.state, 'error');
      assert.match(row.error, reason);
      assert.equal(c.db.db.prepare('SELECT count(*) FROM urls WHERE priority IS NULL').pluck().get(), 0, 'no priority stored as null');
    } finally {
      await c.close();
    }
  }
});

test('crawler.stop() before run() is kept: run() ends at once as stopped (a stop asked while the seeds were added was lost), and the next run() goes on', async () => {
  const c = await startCrawl({ seeds: [site.origin + '/'], db: join(dir, 'stop-first.db'), delayMs: 0, maxPages: 5, sitemaps: false });
  try {
    c.crawler.stop();
    const stopped = await c.run();
    assert.equal(stopped.reason, 'stopped');
    assert.equal(stopped.stats.fetched, 0);
    const next = await c.run();
    assert.equal(next.reason, 'max-pages');
    assert.equal(next.stats.fetched, 5);
  } finally {
    await c.close();
  }
});

test("a 'fetched' event carries the stored page and the body as served, for a library caller's own per-page work", async () => {
  // GBK bytes with the charset only in <meta>: the body is the server's bytes, the page the decoded text.
  const gbk = Buffer.from('3c68746d6c3e3c686561643e3c6d65746120636861727365743d2267626b223e3c7469746c653ed6d0cec43c2f7469746c653e3c2f686561643e3c626f64793e3c703ed6d0cec43c2f703e3c6120687265663d222f6d697373696e67223e6d697373696e673c2f613e3c2f626f64793e3c2f68746d6c3e', 'hex');
  const server = http.createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(gbk);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const c = await startCrawl({ seeds: [origin + '/'], db: join(dir, 'per-page.db'), delayMs: 0, maxPages: 5, sitemaps: false, retries: 0 });
    const seen: CrawlEvents['fetched'][] = [];
    c.crawler.events.on('fetched', (e) => seen.push(e));
    await c.run();
    await c.close();
    const home = seen.find((e) => e.url === origin + '/')!;
    assert.equal(home.page?.title, '中文');
    assert.match(home.page?.text ?? '', /中文/);
    assert.deepEqual(home.page?.outlinks.map((l) => l.url), [origin + '/missing']);
    assert.deepEqual(Buffer.from(home.body!), gbk, 'the bytes as served');
    const missing = seen.find((e) => e.url === origin + '/missing')!;
    assert.equal(missing.state, 'error');
    assert.equal(missing.page, null);
  } finally {
    server.close();
  }
});
