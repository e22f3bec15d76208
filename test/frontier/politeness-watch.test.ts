import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PolitenessWatch } from '../../src/frontier/politeness-watch.js';

test('PolitenessWatch follows the frontier\'s rule: a wait is the closure a request met, Crawl-delay raises the delay, backoff keeps the host closed', () => {
  const w = new PolitenessWatch(100);
  w.claimed('a', 1000); // first request: nothing to wait for
  w.ended('a', 1030); // closed until 1130
  w.claimed('a', 1200); // 70 ms late for other reasons: only the 100 ms closure counts
  w.delay('a', 50); // below the configured delay: ignored
  w.delay('b', 2000); // robots.txt Crawl-delay
  let rows = w.drain();
  assert.deepEqual(rows.map((r) => [r.host, r.delayMs, r.waitedMs, r.nextAt, r.budget]), [['a', 100, 100, 1300, null], ['b', 2000, 0, 0, null]]);
  assert.deepEqual(w.drain(), [], 'nothing changed since the last drain');
  w.ended('a', 1250, 5000); // a retry with backoff
  w.claimed('a', 5000);
  w.budget(20);
  rows = w.drain();
  assert.deepEqual(rows.map((r) => [r.host, r.waitedMs, r.nextAt, r.budget]), [['a', 3750, 5100, 20], ['b', 0, 0, 20]], 'waits are deltas since the last drain; a budget change reports every host');
});
