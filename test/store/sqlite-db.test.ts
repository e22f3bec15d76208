import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { SqliteCrawlReader } from '../../src/store/sqlite-crawl-reader.js';
import { FocusCrawlError } from '../../src/errors.js';

test('the writer thread backlog is bounded in bytes too: large batches congest until committed', async () => {
  const db = new SqliteDb(join(mkdtempSync(join(tmpdir(), 'fc-db-')), 'b.db'), { create: true, writer: 'thread' });
  try {
    const put = db.prepareWrite('INSERT INTO meta(key, value) VALUES (?, ?)');
    const big = 'x'.repeat(4 * 1024 * 1024); // 8 MB as UTF-16
    db.write(put, ['a', big]);
    db.flush();
    assert.equal(db.congested, false, 'one batch of 8 MB is under the limit');
    for (const k of ['b', 'c']) db.write(put, [k, big]);
    db.flush();
    assert.equal(db.backlog <= 2, true, 'two batches: far below the batch-count limit');
    assert.equal(db.congested, true, '24 MB not yet committed');
    await db.settle();
    assert.equal(db.congested, false);
    assert.equal((db.db.prepare("SELECT length(value) FROM meta WHERE key = 'c'").pluck().get() as number), big.length);
  } finally {
    await db.close();
  }
});

test('a crawl reader used after close() says it is closed, in one line', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'fc-reader-closed-')), 'r.db');
  await new SqliteDb(path, { create: true }).close();
  const reader = SqliteCrawlReader.open(path);
  assert.equal(await reader.pageCount(), 0);
  await reader.close();
  await assert.rejects(reader.pageCount(), (err: unknown) => err instanceof FocusCrawlError && err.message === 'this crawl reader is closed: open another (SqliteCrawlReader.open)');
  await reader.close();
});

test('after a failed batch (a full disk) no later one is written, on the writer thread or inline: the file keeps a state the crawl passed through', async () => {
  for (const writer of ['thread', 'inline'] as const) {
    const path = join(mkdtempSync(join(tmpdir(), 'fc-db-')), `${writer}.db`);
    const db = new SqliteDb(path, { create: true, writer });
    const put = db.prepareWrite('INSERT INTO meta(key, value) VALUES (?, ?)');
    db.write(put, ['a', '1']);
    db.flush();
    await db.settle();
    db.write(put, ['a', 'again']); // UNIQUE fails, as a write to a full disk does
    if (writer === 'inline') assert.throws(() => db.flush(), (err: Error) => err instanceof FocusCrawlError && /UNIQUE/.test(err.message));
    else db.flush();
    // The crawl thread is busy (parsing) while the writer fails, and hands over the next batch before it hears of it.
    const busy = Date.now();
    while (Date.now() - busy < 300);
    db.write(put, ['b', 'after the failure']);
    try {
      db.flush();
      await db.settle();
    } catch {
      // The failure, said by flush() or settle(): what the crawl stops on.
    }
    assert.ok(db.failure, `${writer}: the failure is kept`);
    await db.close().catch(() => {});
    const again = new SqliteDb(path, { create: false, readonly: true });
    assert.deepEqual(again.db.prepare("SELECT key, value FROM meta WHERE key IN ('a', 'b') ORDER BY key").all(), [{ key: 'a', value: '1' }], `${writer}: nothing written after the failed batch`);
    await again.close();
  }
});
