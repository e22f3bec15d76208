import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostScheduler } from '../../src/frontier/host-scheduler.js';
import { BinaryHeap } from '../../src/frontier/binary-heap.js';
import { urlKey } from '../../src/seen/fingerprint.js';
import type { CrawlRequest } from '../../src/types.js';

const request = (url: string, id: number, priority: number): CrawlRequest => ({ key: urlKey(url), id, url, host: new URL(url).host, depth: 1, parent: null, anchor: '', priority, data: null, attempts: 0 });

test('a long best-first crawl keeps the scheduler heaps bounded by its hosts, and still hands out the best URL first', () => {
  const s = new HostScheduler({ perHost: 2, delayMs: 0 });
  const hosts = 300;
  let id = 0;
  let most = 0;
  let handed = 0;
  const T = 1_000_000;
  // Every fetch finds links on every host with random priorities: each placement of a host leaves its old entry stale.
  for (let round = 0; round < 2000; round++) {
    for (let k = 0; k < 20; k++) {
      const h = (round * 7 + k * 13) % hosts;
      s.push(request(`http://h${h}.test/${id}`, id, Math.random()), T);
      id++;
    }
    const got = s.take(10, T);
    handed += got.length;
    for (const r of got) s.release(r.host, T);
    most = Math.max(most, s.heapEntries);
  }
  assert.equal(handed, 20_000);
  assert.ok(most <= 2 * (2 * hosts + 1024 + 1), `at most ${most} heap entries for ${hosts} hosts`);
  // The order is still best first among the hosts that may start.
  const next = s.take(1, T)[0]!;
  const best = Math.max(...[...s.queuedRequests()].map((r) => r.priority), next.priority);
  assert.equal(next.priority, best);
});

test('BinaryHeap.retain keeps the accepted items in heap order', () => {
  const h = new BinaryHeap<number>((a, b) => a < b);
  for (const v of [9, 3, 7, 1, 8, 2, 6, 4, 5, 0]) h.push(v);
  h.retain((v) => v % 2 === 1);
  const out: number[] = [];
  while (h.size) out.push(h.pop()!);
  assert.deepEqual(out, [1, 3, 5, 7, 9]);
});

test('a crawl of many hosts forgets the idle ones: the records stay about twice the busy hosts, and politeness and budgets still hold', () => {
  const s = new HostScheduler({ perHost: 1, delayMs: 100 });
  s.setHostBudget(1, 0);
  let t = 1000;
  // 20,000 hosts, each fetched once and then idle.
  for (let i = 0; i < 20_000; i++) {
    s.push(request(`http://h${i}.test/`, i, 1), t);
    const [r] = s.take(1, t);
    assert.equal(r?.host, `h${i}.test`);
    s.release(r!.host, t);
    t += 1;
  }
  assert.ok(s.hostRecords < 8200, `${s.hostRecords} host records for 20,000 hosts, at most about 100 of them not idle`);
  // A forgotten host keeps its count against the budget of 1.
  s.push(request('http://h3.test/again', 30_000, 5), t + 1000);
  assert.deepEqual(s.take(1, t + 1000), [], 'h3 spent its budget before it was forgotten');
  // A host whose delay is still running is not forgotten.
  const last = `h19999.test`;
  s.push(request(`http://${last}/next`, 30_001, 5), t);
  assert.deepEqual(s.take(1, t), [], `${last} may not start before its delay is over`);
});

test('without a budget a forgotten host\'s count is dropped, and a later budget asks for the counts (forgotTaken, restoreTaken)', () => {
  const s = new HostScheduler({ perHost: 1, delayMs: 0 }, { store: { load: () => [], written: () => true } });
  for (let i = 0; i < 5000; i++) {
    s.push(request(`http://h${i}.test/`, i, 1), 1000);
    for (const r of s.take(1, 1000)) s.release(r.host, 1000);
  }
  assert.ok(s.hostRecords < 5000, 'idle hosts were forgotten');
  assert.equal(s.forgotTaken, true, 'their fetch counts were not kept with no budget to count them against');
  s.restoreTaken([{ host: 'h1.test', n: 1 }]);
  assert.equal(s.forgotTaken, false);
  s.setHostBudget(1, 1000);
  s.push(request('http://h1.test/again', 9000, 5), 1000);
  s.push(request('http://h2.test/again', 9001, 4), 1000);
  assert.deepEqual(s.take(5, 1000).map((r) => r.url), ['http://h2.test/again'], 'the restored count holds h1 at its budget; h2 was given no count');
});

test('a page of thousands of links to one host, none written yet, is cut back once per doubling, not once per link, and to its share once they are written', () => {
  let written = false;
  let asked = 0;
  const store = {
    load: () => [],
    written: () => {
      asked++;
      return written;
    },
  };
  const s = new HostScheduler({ perHost: 1, delayMs: 0 }, { store, memory: 100 });
  const n = 5000;
  // A page's links are admitted before its rows are written: the queue must keep them all.
  for (let i = 0; i < n; i++) s.push(request(`http://one.test/p/${i}`, i, 0.5), 0);
  assert.equal(s.inMemory, n, 'rows not written stay in memory');
  // Once per link, each cut asking about every request past the share, was some 12 million questions.
  assert.ok(asked < 10 * n, `${asked} questions of the spill store for ${n} links`);
  // Once they are written, the host's next link cuts it back to its share (and a half) at once.
  written = true;
  s.push(request(`http://one.test/p/${n}`, n, 0.5), 0);
  assert.ok(s.inMemory <= 150, `${s.inMemory} in memory once the rows are written`);
  for (let i = n + 1; i < 3 * n; i++) s.push(request(`http://one.test/p/${i}`, i, 0.5), 0);
  assert.ok(s.inMemory <= 150, `${s.inMemory} in memory after ${2 * n} more links`);
});
