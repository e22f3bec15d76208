import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { twoChainSites } from '../helpers/chain-site.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * crawl run again on a database that holds a crawl: the seeds given join the stored ones, so the
 * earlier seeds' hosts keep their private-address allowance (and scope), and one note says which
 * options changed, old → new.
 */
const sites = twoChainSites();

test('a second crawl on a database with another seed keeps the first seed (its private address still allowed) and says what changed', async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'fc-again-')), 'again.db');
  const first = await runCli(['crawl', sites.a.pages[0]!, '--db', db, '--strategy', 'bfs', '--max-pages', '2', '--delay-ms', '0', '--no-sitemaps']);
  assert.equal(first.code, 0, first.stderr);
  assert.doesNotMatch(first.stderr, /starts again/);

  const second = await runCli(['crawl', sites.b.pages[0]!, '--db', db, '--max-pages', '50', '--delay-ms', '0', '--no-sitemaps']);
  assert.equal(second.code, 0, second.stderr);
  const notes = second.stderr.split('\n').filter((l) => l.startsWith('focuscrawl: '));
  assert.deepEqual(notes, [`focuscrawl: ${db} starts again with options changed since its last start (old → new): maxPages 2 → 50, seeds 1 → 2 (1 added to the seed list; the stored ones are kept); focuscrawl resume continues a crawl with its own options`]);

  const log = (await runCli(['export', '--db', db])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; state: string; error: string | null });
  assert.deepEqual(log.filter((e) => e.state !== 'done'), [], 'no URL refused: the first seed\'s address is still allowed');
  assert.deepEqual(new Set(log.map((e) => e.url)), new Set([...sites.a.pages, ...sites.b.pages]), 'both sites crawled whole');
  const sql = new Database(db, { readonly: true });
  const config = JSON.parse(sql.prepare("SELECT value FROM meta WHERE key = 'config'").pluck().get() as string) as { seeds: string[] };
  sql.close();
  assert.deepEqual(config.seeds, [sites.a.pages[0], sites.b.pages[0]]);

  const third = await runCli(['crawl', sites.b.pages[0]!, '--db', db, '--max-pages', '50', '--delay-ms', '0', '--no-sitemaps']);
  assert.equal(third.code, 0, third.stderr);
  assert.doesNotMatch(third.stderr, /starts again/, 'nothing changed: nothing said');
});
