import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resumeCrawl, startCrawl } from '../../src/crawl.js';
import { FocusCrawlError } from '../../src/errors.js';
import type { LinkDecision, PageView, Strategy } from '../../src/strategies/strategy.js';
import type { Link } from '../../src/types.js';
import { serveTinySites, type TinyPage } from '../helpers/tiny-sites.js';

/** A library caller's own strategy object: how a crawl scores its pages, and how it resumes with it. */
const pages: Record<string, TinyPage> = { '/': ['home', 'a list of pages', [['/s1', 'one'], ['/c1', 'two']]] };
for (let i = 1; i <= 6; i++) {
  pages[`/s${i}`] = [`solar inverter ${i}`, 'solar photovoltaic inverter panels', [[`/s${i + 1}`, 'next'], [`/c${i + 1}`, 'other']]];
  pages[`/c${i}`] = [`pasta ${i}`, 'pasta sauce tomato kitchen', [[`/c${i + 1}`, 'next']]];
}
const sites = await serveTinySites({ a: pages });
after(() => sites.close());
const root = sites.roots.a!;
const dir = mkdtempSync(join(tmpdir(), 'fc-strategy-object-'));
const TOPIC = { name: 'solar', keywords: { solar: 3, inverter: 2 } };

/** A strategy as a user writes one: a class with private state, no topic of its own, solar URLs first. */
class SolarFirst implements Strategy {
  readonly name = 'solar-first';
  readonly topic = null;
  readonly #seen: (number | null)[] = [];
  get relevances(): (number | null)[] {
    return this.#seen;
  }
  seed(): LinkDecision {
    return { priority: 1 };
  }
  scoreLinks(view: PageView, links: readonly Link[]): LinkDecision[] {
    this.#seen.push(view.relevance);
    return links.map((l) => ({ priority: /\/s\d$/.test(l.url) ? 1 : 0.1 }));
  }
}

test("a strategy object without a topic in a crawl given one: pages are scored with the crawl's topic, and the object sees the scores", async () => {
  const strategy = new SolarFirst();
  const crawl = await startCrawl({ seeds: [root], topic: TOPIC, db: join(dir, 'scored.db'), delayMs: 0, concurrency: 1, sitemaps: false, maxPages: 6 }, { strategy });
  const relevant: boolean[] = [];
  crawl.crawler.events.on('fetched', (e) => relevant.push(e.relevant));
  const summary = await crawl.run();
  const solar = await crawl.store.countRelevant(0.2);
  await crawl.close();
  // The home page, then the solar chain first: five solar pages of the six fetched.
  assert.equal(summary.stats.fetched, 6);
  assert.equal(summary.stats.relevant, 5);
  assert.equal(solar, 5);
  assert.deepEqual(relevant, [false, true, true, true, true, true]);
  assert.equal(strategy.relevances.length, 6);
  assert.ok(strategy.relevances.every((r) => typeof r === 'number'), `relevances seen: ${strategy.relevances.join(', ')}`);
});

test('a crawl started with a strategy object resumes only with it again, or with a strategy named instead', async () => {
  const db = join(dir, 'resume.db');
  const first = await startCrawl({ seeds: [root], topic: TOPIC, db, delayMs: 0, concurrency: 1, sitemaps: false, maxPages: 3 }, { strategy: new SolarFirst() });
  await first.run();
  await first.close();
  await assert.rejects(resumeCrawl(db, { maxPages: 6 }), (err: unknown) => err instanceof FocusCrawlError && err.code === 'CONFIG'
    && err.message === `${db} was crawled with the strategy object 'solar-first' (startCrawl's strategy), which a database cannot hold: give it again, resumeCrawl(db, overrides, { strategy }), or name a strategy to go on with (overrides.strategy; from the command line, focuscrawl crawl SEED... --db ${db} --strategy NAME)`);
  const strategy = new SolarFirst();
  const again = await resumeCrawl(db, { maxPages: 6 }, { strategy });
  assert.equal(again.strategy.name, 'solar-first');
  const rest = await again.run();
  await again.close();
  assert.equal(rest.stats.fetched, 3);
  assert.equal(strategy.relevances.length, 3, 'the object given again orders the resumed run');
  assert.equal(rest.stats.relevant, 3);
  // A strategy named instead is the caller's choice, and from then on the crawl needs no object.
  const named = await resumeCrawl(db, { maxPages: 8, strategy: 'bfs' });
  assert.equal(named.strategy.name, 'bfs');
  await named.close();
  const plain = await resumeCrawl(db, { maxPages: 8 });
  assert.equal(plain.strategy.name, 'bfs');
  await plain.close();
});
