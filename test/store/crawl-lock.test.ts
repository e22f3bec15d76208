import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrawlLock, lockPath, probeLock } from '../../src/store/crawl-lock.js';
import { startCrawl } from '../../src/crawl.js';
import { runCli } from '../helpers/run-cli.js';

test('the crawl lock: one holder, readable details, a second taker refused by name, free again after release', async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'fc-lock-')), 'c.db');
  assert.equal(probeLock(db), null);
  assert.equal(existsSync(lockPath(db)), false, 'probing never creates the lock file');

  const lock = CrawlLock.acquire(db, 'crawl');
  assert.deepEqual(probeLock(db)?.holder, lock.holder);
  assert.equal(lock.holder.pid, process.pid);
  assert.throws(() => CrawlLock.acquire(db, 'resume'), (err: Error & { code?: string }) => {
    assert.equal(err.code, 'STORE');
    assert.match(err.message, new RegExp(`c\\.db is in use by a running crawl \\(pid ${process.pid} on `));
    return true;
  });
  await assert.rejects(startCrawl({ seeds: ['http://127.0.0.1:9/'], db }), /in use by a running crawl/);
  assert.equal(existsSync(db), false, 'a refused crawl creates no database');
  assert.deepEqual(probeLock(db)?.holder, lock.holder, 'and the holder keeps its lock');

  lock.release();
  assert.equal(probeLock(db), null);
  const again = CrawlLock.acquire(db, 'resume');
  assert.equal(probeLock(db)?.holder?.command, 'resume');
  again.release();
});

test('group writes a crawl database too: it takes the same lock', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-lock-group-'));
  const db = join(dir, 'g.db');
  writeFileSync(join(dir, 'sites.tsv'), 'http://127.0.0.1:9/\n');
  writeFileSync(join(dir, 'examples.tsv'), 'http://127.0.0.1:9/\thttp://127.0.0.1:9/people\n');
  const lock = CrawlLock.acquire(db, 'crawl');
  try {
    const r = await runCli(['group', '--sites', join(dir, 'sites.tsv'), '--examples', join(dir, 'examples.tsv'), '--db', db]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr.trim(), new RegExp(`^focuscrawl: .*g\\.db is in use by a running crawl \\(pid ${process.pid} on `));
  } finally {
    lock.release();
  }
  assert.equal(existsSync(db), false);
});

const asNobody = process.getuid?.() === 0 && existsSync('/usr/sbin/runuser');

test('a reader that may not write the lock (another user) goes by the holder it names: a live crawl is running, a released one is not', { skip: asNobody ? false : 'needs root and runuser, to read as another user' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fc-lock-user-'));
  chmodSync(dir, 0o755);
  const db = join(dir, 'c.db');
  const module = fileURLToPath(new URL('../../src/store/crawl-lock.js', import.meta.url));
  const probe = () => {
    const r = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '--input-type=module', '-e', `import { probeLock } from ${JSON.stringify(module)}; console.log(JSON.stringify(probeLock(${JSON.stringify(db)})));`], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { holder: { pid: number } | null } | null;
  };
  const lock = CrawlLock.acquire(db, 'crawl');
  try {
    chmodSync(lockPath(db), 0o644);
    assert.equal(probe()?.holder?.pid, process.pid, 'a running crawl, not an interrupted one');
  } finally {
    lock.release();
  }
  assert.equal(probe(), null, 'released while its process lives on (a library caller): not running');
  // A crawl killed leaves its row: a process of that pid that is gone is no crawl.
  new Database(lockPath(db)).prepare('INSERT INTO holder(id, pid, host, command, started, token) VALUES (1, ?, ?, ?, ?, ?)').run(spawnSync(process.execPath, ['-e', '']).pid!, hostname(), 'crawl', new Date().toISOString(), 'gone');
  assert.equal(probe(), null);
});
