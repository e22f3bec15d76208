import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { serveHoldingSite } from '../helpers/holding-site.js';
import { runCli } from '../helpers/run-cli.js';
import { REDIS_URL } from '../helpers/test-redis.js';
import { PG_URL } from '../helpers/test-pg.js';
import { dropTestCrawl } from '../helpers/drop-test-crawl.js';

test('SIGTERM stops a worker saying what is true: its URLs in flight wait again at once, for any worker, not after their leases and not for resume', { timeout: 120_000 }, async () => {
  const site = await serveHoldingSite();
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    // The default lease, two minutes: URLs left to their leases would still show as being fetched.
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...site.urls(3), '--per-host', '2', '--concurrency', '2', '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(seeded.code, 0, seeded.stderr);
    const worker = runCli(['worker', ...shared], { onStart: (c) => void site.holding(2).then(() => c.kill('SIGTERM')) });
    const stopped = await worker;
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stderr, /^stopping \(SIGTERM\): requests in flight are abandoned and their URLs wait again at once, for any worker \(pages already fetched are stored first\) \(a second signal to quit now\)$/m);
    assert.doesNotMatch(stopped.stderr, /wait for resume|Ctrl-C/);
    assert.match(stopped.stdout, /crawl ended \(stopped\)/);

    const status = await runCli(['status', ...shared]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^crawl '${name}': 3 URLs waiting; no worker running\\n`), 'the two held URLs wait again beside the third, no lease left');
    assert.doesNotMatch(status.stdout, /being fetched|expired/);
  } finally {
    site.release();
    await site.close();
    await dropTestCrawl(name);
  }
});

test("status after one worker stopped while another runs: the stop is that worker's run, and the crawl goes on", { timeout: 120_000 }, async () => {
  const site = await serveHoldingSite();
  const name = `t${randomBytes(5).toString('hex')}`;
  const shared = ['--redis', REDIS_URL, '--pg', PG_URL, '--name', name];
  try {
    const seeded = await runCli(['crawl', ...shared, '--seed-only', '--seeds', ...site.urls(4), '--per-host', '4', '--concurrency', '2', '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(seeded.code, 0, seeded.stderr);
    const staying = runCli(['worker', ...shared]);
    await site.holding(2);
    const leaving = await runCli(['worker', ...shared], { onStart: (c) => void site.holding(4).then(() => c.kill('SIGTERM')) });
    assert.match(leaving.stdout, /crawl ended \(stopped\)/);
    const status = await runCli(['status', ...shared]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /; 1 worker running \(/);
    assert.match(status.stdout, /^a worker's last run ended [^\n]*: stopped[^\n]*; the crawl goes on with the workers running$/m);
    assert.doesNotMatch(status.stdout, /^last run ended/m);
    site.release();
    assert.equal((await staying).code, 0);
  } finally {
    site.release();
    await site.close();
    await dropTestCrawl(name);
  }
});
