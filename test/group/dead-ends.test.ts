import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deadEnds } from '../../src/group/dead-ends.js';
import type { DiscoveredState, DiscoveredUrl } from '../../src/store/crawl-graph-reader.js';

test('dead ends: fetched pages whose whole subtree is final and holds no target', () => {
  // / root > /adm/ > /adm/scores/ > the target; /adm/ > /adm/fees (its only link failed); / > /news/ > one waiting, one discarded.
  const tree = (waiting: DiscoveredState): DiscoveredUrl[] =>
    ([
      ['/', null, 'done'], ['/adm/', '/', 'done'], ['/news/', '/', 'done'], ['/adm/scores/', '/adm/', 'done'], ['/adm/fees', '/adm/', 'done'],
      ['/adm/scores/2023', '/adm/scores/', 'done'], ['/news/1', '/news/', waiting], ['/news/2', '/news/', 'discarded'], ['/adm/fees/broken', '/adm/fees', 'error'],
    ] as [string, string | null, DiscoveredState][]).map(([url, parent, state]) => ({ url, parent, anchor: url, state }));
  const target = (url: string) => url === '/adm/scores/2023';
  // The root is never one (it has no path); /adm/ and its scores lead to the target; /news/ has a
  // link still waiting; /adm/fees is fetched and everything below it failed: it led nowhere.
  assert.deepEqual(deadEnds(tree('waiting'), target), ['/adm/fees']);
  // With the waiting link fetched, news is a dead end too (a discarded link does not keep it open).
  assert.deepEqual(deadEnds(tree('done'), target), ['/news/', '/adm/fees', '/news/1']);
  assert.deepEqual(deadEnds(tree('fetching'), target), ['/adm/fees'], 'a link being fetched keeps its page open');
});
