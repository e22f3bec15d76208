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
  let rows = w.drain(1210);
  assert.deepEqual(rows.map((r) => [r.host, r.delayMs, r.waitedMs, r.nextAt, r.budget]), [['a', 100, 100, 1300, null], ['b', 2000, 0, 0, null]]);
  assert.deepEqual(w.drain(1220), [], 'nothing changed since the last drain');
  w.ended('a', 1250, 5000); // a retry with backoff
  w.claimed('a', 5000);
  w.budget(20);
  assert.equal(w.drainBudget(), 20, 'a budget change is reported once, for the store to give every host');
  assert.equal(w.drainBudget(), undefined);
  rows = w.drain(5010);
  assert.deepEqual(rows.map((r) => [r.host, r.waitedMs, r.nextAt, r.budget]), [['a', 3750, 5100, 20]], 'waits are deltas since the last drain');
});

test('PolitenessWatch forgets a host once reported and its closure ended a minute ago, unless it has a Crawl-delay of its own', () => {
  const w = new PolitenessWatch(100);
  for (let i = 0; i < 1000; i++) {
    w.claimed(`h${i}`, 1000);
    w.ended(`h${i}`, 1010);
  }
  w.delay('slow', 5000);
  assert.equal(w.drain(1050).length, 1001, 'every host is reported');
  assert.equal(w.size, 1001, 'closures not over yet: kept');
  assert.deepEqual(w.drain(1200), [], 'nothing new to report');
  assert.equal(w.size, 1001, 'closures ended less than a minute ago: kept, their next claim counts the wait');
  assert.deepEqual(w.drain(61_200), [], 'nothing new to report');
  assert.equal(w.size, 1, 'only the host with its own Crawl-delay is left');
  w.claimed('h7', 61_300);
  const [row] = w.drain(61_300);
  assert.deepEqual([row!.host, row!.waitedMs, row!.nextAt], ['h7', 0, 61_400], 'a forgotten host starts again with nothing owed');
  w.drain(200_000);
  assert.equal(w.size, 2, 'a host whose request still runs is kept, however long ago its closure ended');
  w.ended('h7', 200_000);
  w.drain(200_000);
  w.drain(300_000);
  assert.equal(w.size, 1, 'and forgotten once it ended');
});
