import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestSlots, SETTLING_PER_SLOT } from '../../src/engine/request-slots.js';

test('request slots: a settled URL frees its slot, at most SETTLING_PER_SLOT x concurrency settle before claims stop, and the run is busy until every URL ended', () => {
  const slots = new RequestSlots(2);
  slots.take('a');
  slots.take('b');
  assert.equal(slots.room(), 0, 'both slots held');
  assert.equal(slots.settle('a'), true);
  assert.equal(slots.settle('a'), false, 'a URL settles once');
  assert.equal(slots.settle('never-claimed'), false);
  assert.equal(slots.room(), 1, 'a settled URL gives its slot back');
  assert.equal(slots.inflight, 1);
  assert.equal(slots.busy, 2);
  // Fill the settling allowance: 2 x 2 = 4 URLs may wait for their commit.
  for (const k of ['c', 'd', 'e']) {
    slots.take(k);
    assert.equal(slots.settle(k), true);
  }
  assert.equal(SETTLING_PER_SLOT * 2, 4);
  assert.equal(slots.room(), 0, 'four settling: no claim though a slot is free');
  assert.equal(slots.inflight, 1);
  slots.end('a');
  assert.equal(slots.room(), 1, 'a settled URL that ended makes room again');
  slots.end('b');
  for (const k of ['c', 'd', 'e']) slots.end(k);
  assert.equal(slots.busy, 0);
  assert.equal(slots.room(), 2);
});

test('request slots: a URL handed to the process twice (its lease expired while it worked) is counted twice', () => {
  const slots = new RequestSlots(4);
  slots.take('a');
  slots.take('a');
  assert.equal(slots.inflight, 2);
  assert.equal(slots.settle('a'), true);
  slots.end('a');
  slots.end('a');
  assert.equal(slots.busy, 0);
  assert.equal(slots.room(), 4);
});
