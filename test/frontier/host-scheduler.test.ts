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
