import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restoreStrategyState, strategyStateJson, topicKey, type FedLabels } from '../../src/strategies/strategy-state.js';
import type { Strategy } from '../../src/strategies/strategy.js';

/** A strategy that learns a list, and records what it was restored from. */
function listing(name = 'adaptive'): Strategy & { items: unknown[]; restored: unknown[] } {
  const s = {
    name,
    topic: null,
    items: [1, 2, 3] as unknown[],
    restored: [] as unknown[],
    seed: () => ({ priority: 1 }),
    scoreLinks: () => [],
    snapshot: () => ({ items: s.items }),
    restore(state: unknown) {
      s.restored.push(state);
      const items = (state as { items?: unknown }).items;
      if (!Array.isArray(items)) throw new Error('items: not a list');
      s.items = items;
    },
  };
  return s as unknown as Strategy & { items: unknown[]; restored: unknown[] };
}

function feed(fed: [string, boolean][] = []): FedLabels & { assumed: [string, boolean][] } {
  const f = { assumed: [] as [string, boolean][], fedLabels: () => fed, assumeFed: (l: Iterable<[string, boolean]>) => void f.assumed.push(...l) };
  return f;
}

const TOPIC = topicKey({ name: 'solar', keywords: { solar: 1 } });

test('a stored state restores the strategy and tells the label feed which labels it learned', () => {
  const stored = strategyStateJson(listing(), TOPIC, feed([['http://a/1', true], ['http://a/2', false]]));
  const s = listing();
  s.items = [];
  const labels = feed();
  assert.equal(restoreStrategyState(stored, s, TOPIC, labels), null);
  assert.deepEqual(s.items, [1, 2, 3]);
  assert.deepEqual(labels.assumed, [['http://a/1', true], ['http://a/2', false]]);
});

test('a state stored for another strategy or another topic is not restored, and the note says why', () => {
  const stored = strategyStateJson(listing('two-step'), TOPIC, undefined);
  const s = listing('adaptive');
  assert.match(restoreStrategyState(stored, s, TOPIC, undefined)!, /^the adaptive strategy did not restore what the crawl had learned \(it was stored by strategy 'two-step'\): it starts afresh$/);
  assert.deepEqual(s.restored, []);
  const other = strategyStateJson(listing(), topicKey({ name: 'wind', keywords: { wind: 1 } }), undefined);
  assert.match(restoreStrategyState(other, s, TOPIC, undefined)!, /learned for another topic\): it starts afresh$/);
  assert.deepEqual(s.restored, []);
});

test('a bare snapshot (stored before the labels were) restores as it is; one that does not parse or restore gives a note', () => {
  const s = listing();
  assert.equal(restoreStrategyState(JSON.stringify({ items: [7] }), s, TOPIC, feed()), null);
  assert.deepEqual(s.items, [7]);
  assert.match(restoreStrategyState('{"items": [', s, TOPIC, undefined)!, /did not restore what the crawl had learned \(.+\): it starts afresh$/);
  assert.match(restoreStrategyState(JSON.stringify({ v: 2, strategy: 'adaptive', topic: TOPIC, snapshot: { items: 'x' }, labels: [] }), s, TOPIC, undefined)!, /\(items: not a list\): it goes on with what it could read$/);
});

test("the topic key tells topics apart and is the same for the same topic file's JSON", () => {
  assert.equal(topicKey({ name: 'a', keywords: { x: 1 } }), topicKey(JSON.parse(JSON.stringify({ name: 'a', keywords: { x: 1 } }))));
  assert.notEqual(topicKey({ name: 'a', keywords: { x: 1 } }), topicKey({ name: 'a', keywords: { x: 2 } }));
  assert.notEqual(topicKey(null), topicKey({ name: 'a', keywords: {} }));
});
