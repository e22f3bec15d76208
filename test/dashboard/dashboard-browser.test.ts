import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import { openReader } from '../../src/cli/open-reader.js';
import { startCrawl } from '../../src/crawl.js';
import { runCli } from '../helpers/run-cli.js';
import { launchChromium } from '../helpers/chromium.js';
import { serveGatedSite, type GatedSite } from '../helpers/gated-site.js';
import { startServe, type ServeProcess } from '../helpers/start-serve.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-dash-e2e-'));
const db = join(dir, 'live.db');
const GATES = [12, 24];
let site: GatedSite;
let browser: { context: BrowserContext; close(): Promise<void> };
let serve: ServeProcess;

before(async () => {
  site = await serveGatedSite({ pages: 80, seed: 11, words: [120, 240], links: [5, 10] }, GATES);
  browser = await launchChromium();
});
after(async () => {
  for (const g of GATES) site.open(g);
  await serve?.stop();
  await browser?.close();
  await site?.close();
});

test('the dashboard loads on a running crawl and its harvest chart grows while the crawl runs; search and labels work', async () => {
  // One request at a time, so the site's gates pause the whole crawl.
  const crawl = await startCrawl({ seeds: [site.origin + '/'], topic: DEMO_TOPIC, db, maxPages: 40, delayMs: 0, perHost: 1, concurrency: 1, sitemaps: false });
  let finished = false;
  let closed = false;
  const closeCrawl = async () => {
    if (!closed) await crawl.close();
    closed = true;
  };
  const run = crawl.run().finally(() => (finished = true));
  try {
    await site.reached(GATES[0]!);
    serve = await startServe(['--db', db]);
    const page = await browser.context.newPage();
    await page.goto(serve.url);
    // Loaded: the first pushed snapshot filled the state and the chart.
    await page.waitForFunction((n) => Number(document.getElementById('harvest')?.dataset.points) >= n, GATES[0]! - 2, { timeout: 20_000 });
    assert.match((await page.textContent('#state')) ?? '', /running|waiting on politeness/);
    const before = Number(await page.getAttribute('#harvest', 'data-points'));
    assert.equal(await page.locator('#harvest canvas').count() > 0, true, 'uPlot drew the chart');

    site.open(GATES[0]!);
    await site.reached(GATES[1]!);
    // The crawl is held at the second gate: new points can only come from live updates of a running crawl.
    await page.waitForFunction((n) => Number(document.getElementById('harvest')?.dataset.points) > n, before, { timeout: 20_000 });
    const grown = Number(await page.getAttribute('#harvest', 'data-points'));
    assert.ok(grown > before, `${grown} > ${before}`);
    assert.equal(finished, false, 'the crawl was still running when the chart grew');
    assert.equal(site.requests(), GATES[1]);

    site.open(GATES[1]!);
    await run;
    // The embedded crawl indexes pages for search in batches and at its end: search after it.
    await closeCrawl();
    // A search through the full-text index returns a stored page.
    const open = await openReader({ db });
    try {
      assert.equal(await page.getAttribute('#q', 'placeholder'), 'full-text search over stored pages');
      await page.fill('#q', 'solar');
      await page.click('#search button');
      await page.waitForFunction(() => /pages match/.test(document.getElementById('pages-note')?.textContent ?? ''));
      const first = await page.locator('#pages li').first().getAttribute('data-url');
      assert.ok(first?.startsWith(site.origin), String(first));
      const hits = await open.reader.search('solar', 50);
      assert.ok(hits.some((h) => h.url === first), 'the listed page is one the index returns');

      // The label button stores the label.
      await page.locator('#pages li').first().locator('.label-yes').click();
      await page.locator('#pages li').first().locator('.label', { hasText: 'labelled relevant' }).waitFor();
      assert.deepEqual((await open.reader.labels()).map((l) => [l.url, l.relevant]), [[first, true]]);

      // With a page labelled relevant, the recall chart appears beside harvest: one point per harvest point.
      await page.waitForFunction(() => !document.getElementById('recall-panel')?.hidden && Number(document.getElementById('recall')?.dataset.points) > 0);
      assert.equal(await page.getAttribute('#recall', 'data-series'), 'labelled relevant');
      assert.equal(await page.getAttribute('#recall', 'data-points'), await page.getAttribute('#harvest', 'data-points'));
      assert.ok((await page.locator('#recall canvas').count()) > 0, 'uPlot drew the recall chart');
      assert.match((await page.textContent('#recall-note')) ?? '', /labelled relevant, 1 of 1/);

      // The hosts panel shows the politeness the crawl recorded and the budget used.
      const head = await page.locator('#hosts thead th').allTextContents();
      assert.deepEqual(head.slice(6), ['delay', 'waited', 'next allowed', 'budget used']);
      const row = await page.locator('#hosts tbody tr').first().locator('td').allTextContents();
      assert.equal(row[0], new URL(site.origin).host);
      assert.equal(row[6], '0 ms', 'the configured delay (0) is in force');
      assert.equal(row[7], '0 ms', 'no delay, nothing waited');
      assert.equal(row[9], '100.0 % of max-pages', 'the one host used the whole page budget');
    } finally {
      await open.close();
    }
    await page.close();
  } finally {
    site.open(GATES[1]!);
    await run;
    await closeCrawl();
  }
  assert.equal(finished, true);
});

test('bound off loopback, a browser without the token gets 401; with the printed address it loads', async () => {
  await serve.stop();
  serve = await startServe(['--db', db, '--host', '0.0.0.0']);
  const u = new URL(serve.url);
  const page = await browser.context.newPage();
  const refused = await page.goto(`http://127.0.0.1:${u.port}/`);
  assert.equal(refused?.status(), 401);
  assert.match((await page.textContent('body')) ?? '', /needs its token/);
  const ok = await page.goto(serve.url);
  assert.equal(ok?.status(), 200);
  // The event stream carries the cookie the first visit set: the page fills in.
  await page.waitForFunction(() => (document.getElementById('state')?.textContent ?? '') !== '');
  assert.equal(await page.textContent('#state'), 'stopped');
  await page.close();
});

test('report: one folder that a browser reads from file:// with no server; --truth adds a recall curve', async () => {
  const out = join(dir, 'report');
  const bad = await runCli(['report', '--db', db, '--out', out, '--truth', join(dir, 'missing.txt')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr.trim(), /^[^\n]*--truth: cannot read [^\n]*missing\.txt: no such file \(ENOENT\)$/);
  // A file where the report's folder should be: said so, and the file is left as it was.
  const inTheWay = join(dir, 'report.csv');
  writeFileSync(inTheWay, 'a,b\n');
  const file = await runCli(['report', '--db', db, '--out', inTheWay]);
  assert.equal([file.code, file.stderr.trim()].join(' '), `2 focuscrawl: cannot write the report to ${inTheWay}: it is a file, and the report is a folder (index.html and data.json); name a folder`);
  assert.equal(readFileSync(inTheWay, 'utf8'), 'a,b\n');
  const under = await runCli(['report', '--db', db, '--out', join(inTheWay, 'sub')]);
  assert.equal([under.code, under.stderr.trim()].join(' '), `2 focuscrawl: cannot write the report to ${join(inTheWay, 'sub')}: ${inTheWay} is a file, so no folder can be made under it`);
  const empty = await runCli(['report', '--db', db, '--out', '']);
  assert.equal([empty.code, empty.stderr.trim()].join(' '), '2 focuscrawl: --out is empty: name the folder to write the report to');
  const truth = join(dir, 'truth.txt');
  // The seed (fetched first), a page the 40 fetches may or may not reach, and one that does not exist.
  writeFileSync(truth, `# relevant pages\n${site.origin}/\n\n${site.origin}/p/79\n${site.origin}/nowhere\n`);
  const r = await runCli(['report', '--db', db, '--out', out, '--truth', truth]);
  assert.equal(r.code, 0, r.stderr);
  const page = await browser.context.newPage();
  const failed: string[] = [];
  page.on('requestfailed', (req) => failed.push(req.url()));
  await page.goto('file://' + join(out, 'index.html'));
  await page.waitForFunction(() => Number(document.getElementById('harvest')?.dataset.points) > 0);
  assert.equal(Number(await page.getAttribute('#harvest', 'data-points')), 40, 'every fetch of the finished crawl is a point');
  assert.equal(await page.textContent('#state'), 'stopped');
  assert.ok(!((await page.textContent('#crawl-label')) ?? '').includes(dir), 'the file name, not its path on the machine');
  assert.ok((await page.locator('#pages li').count()) > 0);
  assert.equal(await page.locator('.label-yes').count(), 0, 'a report has no label buttons');
  // The report's box filters the listed pages (it holds no index), and says so.
  assert.equal(await page.getAttribute('#q', 'placeholder'), 'filter the listed pages by title and URL');
  // The list leaves room for the marker of a report's 200th page ("200. "): 20px clipped 10. to 0.
  const room = await page.evaluate(() => {
    const ol = document.getElementById('pages')!;
    const probe = Object.assign(document.createElement('span'), { textContent: '200. ' });
    probe.style.whiteSpace = 'pre';
    ol.querySelector('li')!.append(probe);
    const need = probe.getBoundingClientRect().width;
    probe.remove();
    return { need, have: parseFloat(getComputedStyle(ol).paddingLeft) };
  });
  assert.ok(room.have >= room.need, `padding ${room.have}px holds a marker of ${room.need}px`);
  assert.equal(await page.getAttribute('#recall', 'data-series'), 'labelled relevant|truth.txt');
  assert.equal(Number(await page.getAttribute('#recall', 'data-points')), 40);
  assert.match((await page.textContent('#recall-note')) ?? '', /truth\.txt, [12] of 3/);
  assert.deepEqual(failed, []);
  await page.close();
});

test('a report of a crawl without a topic shows no empty harvest chart, and says why', async () => {
  const tdb = join(dir, 'topicless.db');
  const crawl = await startCrawl({ seeds: [`${site.origin}/`], db: tdb, maxPages: 10, delayMs: 0, sitemaps: false });
  await crawl.run();
  await crawl.close();
  const out = join(dir, 'topicless-report');
  const r = await runCli(['report', '--db', tdb, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const page = await browser.context.newPage();
  await page.goto('file://' + join(out, 'index.html'));
  await page.waitForFunction(() => (document.getElementById('state')?.textContent ?? '') !== '');
  assert.equal(await page.isHidden('#harvest'), true);
  assert.equal(await page.locator('#harvest canvas').count(), 0, 'no axes drawn over nothing');
  assert.match((await page.textContent('#harvest-note')) ?? '', /has no topic/);
  await page.close();
});

test("a service title that carries HTML is shown as text on the map's tooltip and in the table, in the dashboard and in the report", async () => {
  const hostile = '<img src=x onerror="window.__xss=1">';
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const caps = `<?xml version="1.0"?><WMS_Capabilities version="1.3.0"><Service><Name>WMS</Name><Title>${esc(hostile)}</Title></Service><Capability><Layer><Name>l</Name><Title>l</Title><EX_GeographicBoundingBox><westBoundLongitude>-10</westBoundLongitude><eastBoundLongitude>30</eastBoundLongitude><southBoundLatitude>35</southBoundLatitude><northBoundLatitude>60</northBoundLatitude></EX_GeographicBoundingBox></Layer></Capability></WMS_Capabilities>`;
  const geo = http.createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>maps</title><a href="/wms?SERVICE=WMS&amp;REQUEST=GetCapabilities">WMS</a>');
    if (req.url?.startsWith('/wms')) return void res.writeHead(200, { 'content-type': 'text/xml' }).end(caps);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => geo.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(geo.address() as AddressInfo).port}`;
  const gdb = join(dir, 'geo.db');
  let served: ServeProcess | null = null;
  try {
    const crawl = await startCrawl({ seeds: [`${origin}/`], db: gdb, maxPages: 10, delayMs: 0, sitemaps: false, detect: ['wms'] });
    await crawl.run();
    await crawl.close();
    const out = join(dir, 'geo-report');
    assert.equal((await runCli(['report', '--db', gdb, '--out', out])).code, 0);
    served = await startServe(['--db', gdb]);
    for (const address of [served.url, 'file://' + join(out, 'index.html')]) {
      const page = await browser.context.newPage();
      await page.goto(address);
      await page.locator('#services tbody tr').first().waitFor();
      assert.equal(await page.locator('#services tbody td').nth(2).textContent(), hostile, 'the table shows the title as text');
      await page.locator('#map path.leaflet-interactive').first().hover();
      await page.locator('.leaflet-tooltip').waitFor();
      assert.equal(await page.locator('.leaflet-tooltip').textContent(), `WMS ${hostile}`, 'the tooltip too');
      assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, `${address}: nothing of the title ran`);
      await page.close();
    }
  } finally {
    await served?.stop();
    geo.close();
  }
});
