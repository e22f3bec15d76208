import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeenPriorityCache } from '../../src/seen/seen-priority-cache.js';

test('SeenPriorityCache keeps the best priority offered, Infinity once final, and evicts by CLOCK', () => {
  const c = new SeenPriorityCache(2);
  c.put(1, 0.3);
  c.put(1, 0.1);
  assert.equal(c.get(1), 0.3, 'the higher offer stays');
  c.put(2, Infinity);
  assert.equal(c.peek(2), Infinity);
  // 1 was used (marked), 2 was not: a third key evicts 2.
  c.put(3, 0.5);
  assert.equal(c.peek(2), undefined);
  assert.equal(c.peek(1), 0.3);
  assert.equal(c.size, 2);
  c.put(3, Infinity);
  c.forgetPriorities();
  assert.equal(c.peek(1), -Infinity, 'seen, but no priority proves an offer useless after a rescore');
  assert.equal(c.peek(3), Infinity, 'final stays final');
});
