import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../helpers/free-port.js';
import { OwnPostgres } from '../helpers/own-postgres.js';
import { runCli } from '../helpers/run-cli.js';
import { PG_URL } from '../helpers/test-pg.js';
import { REDIS_URL } from '../helpers/test-redis.js';

/**
 * `sslmode` in a --pg URL means what it means to PostgreSQL's own clients (libpq), without
 * node-postgres's ten-line warning about the modes it reads otherwise.
 */
const status = (pg: string) => runCli(['status', '--redis', REDIS_URL, '--pg', pg, '--name', 'no_such_crawl']);
const oneLine = (stderr: string) => assert.equal(stderr.trim().split('\n').length, 1, stderr);

test('sslmode=require encrypts without checking the certificate, as libpq does, and verify-full checks it; no driver warning either way', { timeout: 120_000 }, async () => {
  const db = new OwnPostgres(await freePort(), { tls: true });
  await db.start();
  try {
    // Reaching the query that finds no crawl is getting through: the connection was made.
    const require = await status(`${db.url}?sslmode=require`);
    assert.equal(require.code, 2, require.stderr);
    oneLine(require.stderr);
    assert.match(require.stderr, /^focuscrawl: there is no crawl named 'no_such_crawl' in PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres\?sslmode=require\n$/);

    const verified = await status(`${db.url}?sslmode=verify-full`);
    assert.equal(verified.code, 2, verified.stderr);
    oneLine(verified.stderr);
    assert.match(verified.stderr, /^focuscrawl: cannot reach PostgreSQL at .*\?sslmode=verify-full: self[- ]signed certificate/);

    const noCa = await status(`${db.url}?sslmode=verify-ca`);
    assert.equal(noCa.code, 2, noCa.stderr);
    oneLine(noCa.stderr);
    assert.match(noCa.stderr, /sslmode=verify-ca needs sslrootcert=FILE/);

    const withCa = await status(`${db.url}?sslmode=verify-ca&sslrootcert=${db.dir}/server.crt`);
    assert.match(withCa.stderr, /^focuscrawl: there is no crawl named 'no_such_crawl'/, 'the CA given checks the certificate');
    for (const r of [require, verified, noCa, withCa]) assert.doesNotMatch(r.stderr, /SECURITY WARNING|uselibpqcompat/);
  } finally {
    db.stop();
  }
});

test('sslmode=require on a PostgreSQL without TLS: one line naming PostgreSQL and why, no driver warning', async () => {
  const r = await status(`${PG_URL}?sslmode=require`);
  assert.equal(r.code, 2, r.stderr);
  oneLine(r.stderr);
  assert.match(r.stderr, /^focuscrawl: cannot reach PostgreSQL at postgres:\/\/.*\?sslmode=require: The server does not support SSL connections\n$/);
});

test('sslmode=prefer on a PostgreSQL without TLS connects in plain text, as libpq does', async () => {
  const r = await status(`${PG_URL}?sslmode=prefer`);
  assert.equal(r.code, 2, r.stderr);
  oneLine(r.stderr);
  // It reached the database: the answer is about the crawl's name, not the connection.
  assert.match(r.stderr, /^focuscrawl: there is no crawl named 'no_such_crawl' in PostgreSQL at postgres:\/\/.*\?sslmode=prefer\n$/);
});
