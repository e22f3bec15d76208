import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GroupWriter } from '../../src/store/group-writer.js';

/** A send that holds each batch until the test lets it go, so the test decides when a write ends. */
function held() {
  const sent: string[][] = [];
  const gates: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const send = (items: string[]) => {
    sent.push(items);
    return new Promise<void>((resolve, reject) => gates.push({ resolve, reject }));
  };
  const tick = () => new Promise((r) => setImmediate(r));
  return { sent, gates, send, tick };
}

test('GroupWriter: one batch at a time, in order; what arrives meanwhile leaves as the next batch', async () => {
  const h = held();
  const w = new GroupWriter<string>(h.send, { maxWeight: 100, delayMs: 0 });
  const first = w.write(['a']);
  await new Promise((r) => setTimeout(r, 5)); // the first batch's delay
  assert.deepEqual(h.sent, [['a']]);
  const later = [w.write(['b']), w.write(['c', 'd'])];
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(h.sent, [['a']], 'nothing is sent while a batch is being written');
  h.gates[0]!.resolve();
  await first;
  await h.tick();
  assert.deepEqual(h.sent, [['a'], ['b', 'c', 'd']], 'the batch that filled meanwhile leaves at once, whole');
  h.gates[1]!.resolve();
  await Promise.all(later);
  await w.flush();
});

test('GroupWriter: a key already in the batch closes it, so one row is never written twice in a statement', async () => {
  const h = held();
  const w = new GroupWriter<string>(h.send, { maxWeight: 100, delayMs: 1000, keyOf: (x) => x.slice(0, 1) });
  const all = [w.write(['a1']), w.write(['b1']), w.write(['a2'])];
  const flushed = w.flush();
  await h.tick();
  h.gates[0]!.resolve();
  await h.tick();
  h.gates[1]!.resolve();
  await Promise.all(all);
  await flushed;
  assert.deepEqual(h.sent, [['a1', 'b1'], ['a2']]);
});

test('GroupWriter: the first failure fails the batch, every batch after it and flush, and nothing later is sent', async () => {
  const h = held();
  const w = new GroupWriter<string>(h.send, { maxWeight: 1, delayMs: 1000 });
  const a = w.write(['a']); // full at once: sent
  const b = w.write(['b']); // queued behind it
  h.gates[0]!.reject(new Error('lost PostgreSQL'));
  await assert.rejects(a, /lost PostgreSQL/);
  await assert.rejects(b, /lost PostgreSQL/);
  await assert.rejects(w.write(['c']), /lost PostgreSQL/);
  await assert.rejects(w.flush(), /lost PostgreSQL/);
  assert.deepEqual(h.sent, [['a']]);
});
