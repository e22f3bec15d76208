import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvidenceLog } from '../../src/strategies/evidence-log.js';

test('an evidence log keeps nothing until first drained, then what was pushed since, bounded by dropping the oldest half', () => {
  const log = new EvidenceLog<number>(4);
  log.push(1);
  assert.equal(log.recording, false);
  assert.deepEqual(log.drain(), [], 'the first drain starts the recording');
  assert.equal(log.recording, true);
  for (let i = 1; i <= 6; i++) log.push(i);
  // At 4 records the oldest 2 went; 5 and 6 came after.
  assert.deepEqual(log.drain(), [3, 4, 5, 6]);
  assert.deepEqual(log.drain(), []);
});
