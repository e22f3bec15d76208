/**
 * Takes docs/img/dashboard.png and docs/img/report.png: a crawl of the generated geoportal (so the
 * services map has extents), its dashboard in headless Chromium, then its static report from
 * file://. Run with `npm run screenshots` (needs /usr/bin/chromium).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPortalWeb } from '../src/bench/portal-web.js';
import { openReader } from '../src/cli/open-reader.js';
import { startCrawl } from '../src/crawl.js';
import { startDashboard } from '../src/dashboard/dashboard-server.js';
import { writeReport } from '../src/dashboard/write-report.js';
import { launchChromium } from '../test/helpers/chromium.js';

const IMG = fileURLToPath(new URL('../../docs/img/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fc-shots-'));
// Relative, so the dashboard's title shows the file's name and not a temporary folder.
process.chdir(dir);
const db = 'portal.db';

const web = await startPortalWeb({ seed: 3, newsPages: 600, servicePages: 40, endpoints: 60, hiddenShare: 0.25, zhShare: 0.3 });
const browser = await launchChromium();
try {
  const crawl = await startCrawl({ seeds: [web.homeSeed], preset: 'wms', db, maxPages: 500, concurrency: 5, perHost: 5, delayMs: 50 });
  await crawl.run();
  await crawl.close();

  const open = await openReader({ db });
  const dash = await startDashboard(open, { host: '127.0.0.1', port: 0, token: null });
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(dash.url);
    await page.waitForFunction(() => Number(document.getElementById('harvest')?.dataset.points) > 0);
    // Three labels, so the recall chart has a line to draw beside harvest.
    for (const i of [0, 3, 6]) {
      await page.locator('#pages li').nth(i).locator('.label-yes').click();
      await page.locator('#pages li').nth(i).locator('.label', { hasText: 'labelled relevant' }).waitFor();
    }
    await page.waitForFunction(() => !document.getElementById('recall-panel')?.hidden && document.querySelector('[data-key="labels"] b')?.textContent === '3 / 0');
    await page.screenshot({ path: join(IMG, 'dashboard.png'), fullPage: true });
    await page.close();
    const out = join(dir, 'report');
    await writeReport(open, out);
    const report = await browser.context.newPage();
    await report.goto('file://' + join(out, 'index.html'));
    await report.waitForFunction(() => Number(document.getElementById('harvest')?.dataset.points) > 0);
    await report.screenshot({ path: join(IMG, 'report.png'), fullPage: false });
    await report.close();
  } finally {
    await dash.close();
    await open.close();
  }
  process.stdout.write(`wrote ${join(IMG, 'dashboard.png')} and ${join(IMG, 'report.png')}\n`);
} finally {
  await browser.close();
  await web.close();
}
