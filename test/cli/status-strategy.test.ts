import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_TOPIC } from '../../src/cli/demo-command.js';
import type { Snapshot } from '../../src/dashboard/snapshot.js';
import { runCli } from '../helpers/run-cli.js';
import { serveTinySites } from '../helpers/tiny-sites.js';

/**
 * status, status --json and the dashboard name the strategy a crawl runs: the one it was started
 * with, the default it resolved when none was named, or a group database's.
 */
let web: Awaited<ReturnType<typeof serveTinySites>>;
const dir = mkdtempSync(join(tmpdir(), 'fc-strategy-'));
const text = 'solar panels photovoltaic energy from the sun, inverters and solar cells on the roof';

before(async () => {
  web = await serveTinySites({
    a: { '/': ['Solar A', text, [['/scores.html', 'Admission scores']]], '/scores.html': ['Admission scores', 'minimum score 601 by province', []] },
    b: { '/': ['Solar B', text, [['/lines.html', 'Score lines']]], '/lines.html': ['Score lines', 'minimum score 598 by province', []] },
  });
});
after(() => web.close());

async function status(db: string): Promise<{ text: string; json: { strategy: string | null; strategySource: string | null } }> {
  const t = await runCli(['status', '--db', db]);
  assert.equal(t.code, 0, t.stderr);
  const j = await runCli(['status', '--db', db, '--json']);
  assert.equal(j.code, 0, j.stderr);
  return { text: t.stdout, json: JSON.parse(j.stdout) as { strategy: string | null; strategySource: string | null } };
}

test('a crawl started without --strategy shows the default it ran (adaptive with a topic, bfs without), in status, --json and the dashboard; a named one its name', async () => {
  const cases = [
    { args: ['--topic', DEMO_TOPIC], strategy: 'adaptive', source: 'default', line: 'strategy: adaptive (the default with a topic)' },
    { args: [], strategy: 'bfs', source: 'default', line: 'strategy: bfs (the default without a topic)' },
    { args: ['--topic', DEMO_TOPIC, '--strategy', 'best-first'], strategy: 'best-first', source: 'named', line: 'strategy: best-first' },
  ];
  for (const [i, c] of cases.entries()) {
    const db = join(dir, `c${i}.db`);
    const crawled = await runCli(['crawl', web.roots.a!, ...c.args, '--db', db, '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(crawled.code, 0, crawled.stderr);
    const s = await status(db);
    assert.deepEqual([s.json.strategy, s.json.strategySource], [c.strategy, c.source]);
    assert.ok(s.text.split('\n').includes(c.line), `${c.line} in:\n${s.text}`);
    const report = await runCli(['report', '--db', db, '--out', join(dir, `r${i}`)]);
    assert.equal(report.code, 0, report.stderr);
    const snap = JSON.parse(readFileSync(join(dir, `r${i}`, 'data.json'), 'utf8')) as Snapshot;
    assert.equal(snap.crawl.strategy, c.strategy, 'the dashboard names it too');
  }
});

test("a group database shows the group crawler's strategy for its --method, and says so when an older one did not record it", async () => {
  const sites = join(dir, 'sites.txt');
  writeFileSync(sites, `${web.roots.a}\tA\n${web.roots.b}\tB\n`);
  const examples = join(dir, 'examples.tsv');
  writeFileSync(examples, `${web.roots.a}\t${web.roots.a}scores.html\n`);
  for (const [method, strategy] of [['bfc', 'bootstrap-group'], ['fc', 'knn-focused']] as const) {
    const db = join(dir, `group-${method}.db`);
    const r = await runCli(['group', '--sites', sites, '--examples', examples, '--method', method, '--budget-per-site', '5', '--iterations', '1', '--delay-ms', '0', '--db', db, '--out', join(dir, `${method}.jsonl`)]);
    assert.equal(r.code, 0, r.stderr);
    const s = await status(db);
    assert.deepEqual([s.json.strategy, s.json.strategySource], [strategy, 'group']);
    assert.ok(s.text.split('\n').includes(`strategy: ${strategy} (the group crawler's, --method ${method})`), s.text);
  }
  // A group database of an earlier focuscrawl: marked as a group crawl, its method not recorded.
  const older = join(dir, 'group-bfc.db');
  const sql = new Database(older);
  sql.prepare("DELETE FROM meta WHERE key = 'groupMethod'").run();
  sql.close();
  const s = await status(older);
  assert.deepEqual([s.json.strategy, s.json.strategySource], ['group', 'group']);
  assert.match(s.text, /^strategy: group \(the group crawler's; this database does not record its --method\)$/m);
});

test('a crawl run with a strategy object shows that object by its name, not the default', async () => {
  const { startCrawl } = await import('../../src/crawl.js');
  const db = join(dir, 'object.db');
  const mine = { name: 'mine', topic: null, seed: () => ({ priority: 1 }), scoreLinks: (_v: unknown, links: readonly unknown[]) => links.map(() => ({ priority: 1 })) };
  const crawl = await startCrawl({ seeds: [web.roots.a!], db, delayMs: 0, sitemaps: false, topic: DEMO_TOPIC }, { strategy: mine });
  try {
    await crawl.run();
  } finally {
    await crawl.close();
  }
  const s = await status(db);
  assert.deepEqual([s.json.strategy, s.json.strategySource], ['mine', 'object']);
  assert.ok(s.text.split('\n').includes('strategy: mine (a strategy object given to startCrawl: resumeCrawl needs it again)'), s.text);
});
