import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { deadEnds } from '../../src/group/dead-ends.js';

test('dead ends: fetched pages whose whole subtree is final and holds no target', () => {
  const db = new Database(':memory:');
  // As the frontier writes it: a URL's parent is the parent's fingerprint (here, fp = id * 100).
  db.exec('CREATE TABLE urls (id INTEGER PRIMARY KEY, parent INTEGER, state INTEGER, url TEXT, fp INTEGER UNIQUE)');
  // 1 root > 2 admissions > 4 scores > 6 target; 2 > 5 fees (leaf); 1 > 3 news > 7 waiting; 3 > 8 discarded.
  const rows: [number, number | null, number, string][] = [
    [1, null, 2, '/'], [2, 1, 2, '/adm/'], [3, 1, 2, '/news/'], [4, 2, 2, '/adm/scores/'], [5, 2, 2, '/adm/fees'],
    [6, 4, 2, '/adm/scores/2023'], [7, 3, 0, '/news/1'], [8, 3, 4, '/news/2'], [9, 5, 3, '/adm/fees/broken'],
  ];
  const insert = db.prepare('INSERT INTO urls VALUES (?, ?, ?, ?, ?)');
  for (const [id, parent, state, url] of rows) insert.run(id, parent === null ? null : parent * 100, state, url, id * 100);
  // The root is never one (it has no path); 2 and 4 lead to the target; 3 has a link still waiting;
  // 5 is fetched and everything below it failed: it led nowhere.
  assert.deepEqual(deadEnds(db, (url) => url === '/adm/scores/2023'), [5]);
  // With the waiting link fetched, news is a dead end too (a discarded link does not keep it open).
  db.prepare('UPDATE urls SET state = 2 WHERE id = 7').run();
  assert.deepEqual(deadEnds(db, (url) => url === '/adm/scores/2023'), [3, 5, 7]);
});
