import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { explainFailure } from '../../src/distributed/worker-failure.js';
import { FocusCrawlError } from '../../src/errors.js';

/** Which service a worker names when a call fails: by the error's SQLSTATE or the port refused, not by a fixed port. */
const target = { redis: 'redis://127.0.0.1:6390', pg: 'postgres://postgres@127.0.0.1:5440/test', name: 'x' };
const ready = { status: 'ready' } as Pick<Redis, 'status'>;
const said = (err: unknown, t = target) => {
  const out = explainFailure(err, { redis: ready, target: t });
  assert.ok(out instanceof FocusCrawlError, String(out));
  return out.message;
};

test("a worker's failure names the service: PostgreSQL shutting down by its SQLSTATE, a refused connection by the port refused", () => {
  const shutting = Object.assign(new Error('the database system is shutting down'), { code: '57P03' });
  assert.match(said(shutting), /^lost PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:5440\/test: the database system is shutting down; the URLs this worker held/);
  assert.match(said(new Error('connect ECONNREFUSED 127.0.0.1:6390')), /^lost Redis at redis:\/\/127\.0\.0\.1:6390: /);
  assert.match(said(new Error('connect ECONNREFUSED 127.0.0.1:5440')), /^lost PostgreSQL at /);
  // A PostgreSQL on Redis's usual port is still PostgreSQL.
  assert.match(said(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { ...target, pg: 'postgres://127.0.0.1:6379/test' }), /^lost PostgreSQL at /);
});
