import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSharedTarget, redact, sharedTarget } from '../../src/distributed/shared-target.js';
import { FocusCrawlError } from '../../src/errors.js';

const env = { FOCUSCRAWL_REDIS: 'redis://127.0.0.1:6379', FOCUSCRAWL_PG: 'postgres://u:secret@127.0.0.1/test' };

test('shared target: flags, the environment, and what is missing is named', () => {
  assert.equal(sharedTarget({}, env), null, 'no flag: the embedded crawl, whatever the environment says');
  assert.deepEqual(sharedTarget({ name: 'docs' }, env), { redis: env.FOCUSCRAWL_REDIS, pg: env.FOCUSCRAWL_PG, name: 'docs' });
  assert.equal(sharedTarget({ name: 'docs', redis: 'redis://10.0.0.5:6379' }, env)?.redis, 'redis://10.0.0.5:6379', 'a flag wins');
  assert.throws(() => sharedTarget({ name: 'docs' }, {}), /needs Redis.*--redis URL or set FOCUSCRAWL_REDIS/);
  assert.throws(() => sharedTarget({ name: 'docs', redis: 'redis://x' }, {}), /needs PostgreSQL.*FOCUSCRAWL_PG/);
  assert.throws(() => sharedTarget({ redis: 'redis://x', pg: 'postgres://y/z' }, {}), /needs a name/);
  assert.throws(() => sharedTarget({ name: 'Docs-1' }, env), /--name: 'Docs-1'/);
  assert.throws(() => sharedTarget({ name: 'docs', pg: 'mysql://u:pw@h/db' }, env), (e: Error) => /--pg: 'mysql:\/\/u:\*\*\*@h\/db' is not a PostgreSQL URL/.test(e.message) && !e.message.includes('pw'));
  // A bad value from the environment is named as the variable: no --redis was given to look at.
  assert.throws(() => sharedTarget({ name: 'docs' }, { ...env, FOCUSCRAWL_REDIS: '127.0.0.1' }), /FOCUSCRAWL_REDIS: '127\.0\.0\.1' is not a Redis URL/);
  assert.throws(() => sharedTarget({ name: 'docs' }, { ...env, FOCUSCRAWL_PG: 'db.example' }), /FOCUSCRAWL_PG: 'db\.example' is not a PostgreSQL URL/);
  assert.throws(() => sharedTarget({ name: 'docs' }, { ...env, FOCUSCRAWL_REDIS: 'redis://h/x' }), /FOCUSCRAWL_REDIS: database 'x'/);
  // ioredis would throw URIError from its URL parser: named here, the password not shown.
  assert.throws(() => sharedTarget({ name: 'docs', redis: 'redis://:p%zz@h:6379' }, env), (e: Error) => /^--redis: the password in 'redis:\/\/:\*\*\*@h:6379' has a '%' that is no valid escape of UTF-8 \(a '%' and two hex digits\): write a '%' in it as %25$/.test(e.message) && !e.message.includes('zz'));
  assert.throws(() => sharedTarget({ name: 'docs' }, { ...env, FOCUSCRAWL_REDIS: 'redis://u%g:pw@h' }), /FOCUSCRAWL_REDIS: the user name in /);
  assert.equal(sharedTarget({ name: 'docs', redis: 'redis://:p%25x@h' }, env)?.redis, 'redis://:p%25x@h', 'a good escape passes');
});

test('a library target is checked as the CLI checks its flags, before anything connects', async () => {
  const good = { redis: 'redis://127.0.0.1:6379', pg: 'postgres://127.0.0.1/test', name: 'docs' };
  assert.deepEqual(checkSharedTarget(good, 'f'), good);
  const refused = (t: unknown, re: RegExp) => assert.throws(() => checkSharedTarget(t, 'openSharedWorker'), (e: unknown) => e instanceof FocusCrawlError && e.code === 'CONFIG' && re.test(e.message));
  refused({ redis: good.redis, name: 'docs' }, /^openSharedWorker target 'pg': missing$/);
  refused({ ...good, name: 'x'.repeat(41) }, /^openSharedWorker target 'name': 'x+' must be 1-40 lower-case letters/);
  refused({ ...good, name: 'Bad-Name' }, /target 'name': 'Bad-Name'/);
  refused({ ...good, pg: 'mysql://u:pw@h/db' }, /^openSharedWorker target 'pg': 'mysql:\/\/u:\*\*\*@h\/db' is not a PostgreSQL URL/);
  refused({ ...good, redis: 'redis://h/x' }, /^openSharedWorker target 'redis': database 'x'/);
  refused(null, /must be an object/);
  const { openSharedWorker, startSharedCrawl } = await import('../../src/distributed/shared-crawl.js');
  // A dead port: had the target been used, the error would name the connection instead.
  await assert.rejects(openSharedWorker({ redis: 'redis://127.0.0.1:1', name: 'docs' } as never), /^FocusCrawlError: openSharedWorker target 'pg': missing$|target 'pg': missing/);
  await assert.rejects(startSharedCrawl({ seeds: ['http://127.0.0.1:1/'] }, { ...good, redis: 'redis://127.0.0.1:1', name: 'a'.repeat(50) }), (e: unknown) => e instanceof FocusCrawlError && e.code === 'CONFIG' && /target 'name'/.test(e.message));
});

test('passwords never appear in what is printed', () => {
  assert.equal(redact('postgres://crawler:s3cret@db.example:5432/crawl'), 'postgres://crawler:***@db.example:5432/crawl');
  assert.equal(redact('redis://:s3cret@127.0.0.1:6379/0'), 'redis://:***@127.0.0.1:6379/0');
});

test('a worker that cannot reach Redis or PostgreSQL exits 2 with one line naming which', async () => {
  const { runCli } = await import('../helpers/run-cli.js');
  const { PG_URL } = await import('../helpers/test-pg.js');
  const noRedis = await runCli(['worker', '--redis', 'redis://127.0.0.1:1', '--pg', PG_URL, '--name', 'nowhere']);
  assert.equal(noRedis.code, 2);
  assert.match(noRedis.stderr, /^focuscrawl: cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
  assert.equal(noRedis.stderr.trim().split('\n').length, 1);
  const noPg = await runCli(['worker', '--redis', 'redis://127.0.0.1:6379', '--pg', 'postgres://crawler:pw@127.0.0.1:1/test', '--name', 'nowhere']);
  assert.equal(noPg.code, 2);
  assert.match(noPg.stderr, /^focuscrawl: cannot reach PostgreSQL at postgres:\/\/crawler:\*\*\*@127\.0\.0\.1:1\/test: /);
  assert.equal(noPg.stderr.trim().split('\n').length, 1);
  const unknown = await runCli(['status', '--redis', 'redis://127.0.0.1:6379', '--pg', PG_URL, '--name', 'no_such_crawl']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /there is no crawl named 'no_such_crawl' in PostgreSQL/);
});

test('joining a crawl that does not exist creates nothing in PostgreSQL', async () => {
  const { runCli } = await import('../helpers/run-cli.js');
  const { PG_URL } = await import('../helpers/test-pg.js');
  const pg = (await import('pg')).default;
  const name = `fctest_nojoin_${process.pid}`;
  for (const command of ['worker', 'resume', 'rebuild']) {
    const r = await runCli([command, '--redis', 'redis://127.0.0.1:6379', '--pg', PG_URL, '--name', name]);
    assert.equal(r.code, 2, `${command}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^focuscrawl: there is no crawl named '${name}' in PostgreSQL`), command);
  }
  const client = new pg.Client(PG_URL);
  await client.connect();
  const left = await client.query('SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = $1', [`fc_${name}`]);
  await client.end();
  assert.equal((left.rows[0] as { n: number }).n, 0);
});

test('a Redis URL names a database by number, and one the server lacks is refused', async () => {
  const { runCli } = await import('../helpers/run-cli.js');
  const { PG_URL } = await import('../helpers/test-pg.js');
  const { connectRedis } = await import('../../src/distributed/shared-crawl.js');
  const word = await runCli(['worker', '--redis', 'redis://127.0.0.1:6379/abc', '--pg', PG_URL, '--name', 'nowhere']);
  assert.equal(word.code, 2);
  assert.match(word.stderr, /^focuscrawl: --redis: database 'abc' in 'redis:\/\/127\.0\.0\.1:6379\/abc' is not a number/);
  await assert.rejects(connectRedis('redis://127.0.0.1:6379/100000'), /Redis at redis:\/\/127\.0\.0\.1:6379\/100000 has no database 100000/);
  const three = await connectRedis('redis://127.0.0.1:6379/3');
  assert.match(String(await three.client('INFO')), /\bdb=3\b/);
  three.disconnect();
});
