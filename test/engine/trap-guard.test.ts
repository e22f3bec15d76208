import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CountSketch } from '../../src/engine/count-sketch.js';
import { changedParams, pageSignature, repeatingSegment, TrapGuard, urlPattern } from '../../src/engine/trap-guard.js';

test('count sketch: exact for a few keys; collisions only ever over-count', () => {
  const s = new CountSketch(1024, 4);
  for (let i = 0; i < 5; i++) s.add('a');
  s.add('b');
  assert.equal(s.estimate('a'), 5);
  assert.equal(s.estimate('b'), 1);
  assert.equal(s.estimate('never added'), 0);
  // One cell: every key collides, so each estimate is the total so far (3), never less.
  const one = new CountSketch(1, 1);
  one.add('x');
  one.add('y');
  assert.equal(one.add('z'), 3);
  assert.equal(one.estimate('x'), 3);
});

test('repeating path segments: a name three times; numbers are ids, not loops', () => {
  assert.equal(repeatingSegment('/a/b/a/b/a/b/'), 'a');
  assert.equal(repeatingSegment('/site/css/img/css/img/css/x.png'), 'css');
  assert.equal(repeatingSegment('/x/y/x/z/x'), 'x', 'not only consecutive repeats');
  assert.equal(repeatingSegment('/a/b/a/b/'), null, 'twice is allowed');
  assert.equal(repeatingSegment('/book/1/chapter/1/verse/1'), null);
  assert.equal(repeatingSegment('//a//a/'), null, 'empty segments do not count');
});

test('URL patterns: runs of digits read as #, host kept as is', () => {
  assert.equal(urlPattern('http://a.com/cal/2026/11/23'), 'a.com/cal/#/#/#');
  assert.equal(urlPattern('http://127.0.0.1:8080/p/12.html?page=3&sort=date'), '127.0.0.1:8080/p/#.html?page=#&sort=date');
  // A query value that reads as a token is one '#'; words and paths keep their letters.
  assert.equal(urlPattern('http://a.com/pagea?ref=a8Xk2mQ9zz&lang=english'), 'a.com/pagea?ref=#&lang=english');
  assert.equal(urlPattern('http://a.com/docs/ch01s02.html?q=photovoltaic'), 'a.com/docs/ch#s#.html?q=photovoltaic');
  assert.equal(urlPattern('http://a.com/'), 'a.com/');
});

test('changed parameters: only links to the page\'s own path, one key per parameter changed', () => {
  const p = 'http://a.com/cal?date=2026-11-23&view=day';
  assert.deepEqual(changedParams('http://a.com/cal?date=2026-11-24&view=day', p), [
    { name: 'date', path: '/cal', key: 'http://a.com/cal?date=*&view=day' },
  ]);
  assert.deepEqual(
    changedParams('http://a.com/cal?date=2026-11-24&view=week', p).map((c) => c.key),
    ['http://a.com/cal?date=*&view=week', 'http://a.com/cal?date=2026-11-24&view=*'],
  );
  assert.deepEqual(changedParams('http://a.com/cal?date=2026-11-23&view=day', p), [], 'the same URL');
  assert.deepEqual(changedParams('http://a.com/product?id=5', 'http://a.com/category?c=2'), [], 'another path: an enumeration, not a loop');
  assert.deepEqual(changedParams('http://b.com/cal?date=1', 'http://a.com/cal?date=2'), []);
  assert.deepEqual(changedParams('http://a.com/cal?date=1', 'http://a.com/cal').map((c) => c.name), ['date'], 'the bare path adds a parameter');
});

test('parameter explosion: past the cap, new values a page adds to its own path are discarded', () => {
  const g = new TrapGuard({ maxParamValues: 3, maxUrlsPerPattern: 0 });
  const parent = 'http://a.com/cal?date=0';
  for (const d of [1, 2, 3]) {
    const url = `http://a.com/cal?date=${d}`;
    assert.equal(g.check(url, parent), null);
    g.admitted(url, parent);
  }
  assert.equal(g.check('http://a.com/cal?date=4', 'http://a.com/cal?date=3'), "trap: parameter 'date' of /cal has more than 3 values");
  assert.equal(g.check('http://a.com/cal?date=4&view=week', parent), null, 'another family (view differs) counts on its own');
  assert.equal(g.check('http://a.com/cal?date=4', 'http://a.com/index'), null, 'a link from another page is not the loop');
  // check() alone counts nothing: a rediscovered URL (not admitted) leaves the count as it is.
  const h = new TrapGuard({ maxParamValues: 1, maxUrlsPerPattern: 0 });
  assert.equal(h.check('http://a.com/cal?date=1', parent), null);
  assert.equal(h.check('http://a.com/cal?date=2', parent), null);
});

test('pattern cap: counted at fetch; new links and waiting URLs of a full pattern are discarded', () => {
  const g = new TrapGuard({ maxUrlsPerPattern: 2, maxParamValues: 0 });
  assert.equal(g.claim('http://a.com/day/2026/11/23'), null);
  assert.equal(g.check('http://a.com/day/2026/11/24', 'http://a.com/day/2026/11/23'), null);
  assert.equal(g.claim('http://a.com/day/2026/11/24'), null);
  const reason = 'trap: more than 2 URLs like a.com/day/#/#/# (--max-urls-per-pattern)';
  assert.equal(g.check('http://a.com/day/2026/11/25', 'http://a.com/day/2026/11/24'), reason);
  assert.equal(g.claim('http://a.com/day/2026/12/01'), reason);
  assert.equal(g.claim('http://a.com/week/2026/48'), null, 'another pattern');
  assert.equal(g.claim('http://b.com/day/2026/11/23'), null, 'another host');
  // A resumed crawl replays its earlier fetches.
  const resumed = new TrapGuard({ maxUrlsPerPattern: 2, maxParamValues: 0 });
  resumed.fetched('http://a.com/day/2026/11/23');
  resumed.fetched('http://a.com/day/2026/11/24');
  assert.equal(resumed.claim('http://a.com/day/2026/11/25'), reason);
});

test('caps of 0 turn the counting rules off; repeating segments always apply', () => {
  const g = new TrapGuard({ maxUrlsPerPattern: 0, maxParamValues: 0 });
  for (let i = 0; i < 5; i++) assert.equal(g.claim(`http://a.com/p/${i}`), null);
  assert.equal(g.check('http://a.com/x/x/x/', 'http://a.com/x/x/'), "trap: repeating path segment 'x'");
});

test('mirror pages: a page with its parent\'s title, text and anchors is a copy; another text or anchor is not', () => {
  const g = new TrapGuard();
  const sig = (text: string, anchors = ['css/', 'about/']) => pageSignature('Sorry', text, anchors);
  assert.equal(g.mirrorsParent('k1', null, sig('nothing here')), false, 'a seed has no parent');
  assert.equal(g.mirrorsParent('k2', 'k1', sig('nothing here')), true);
  assert.equal(g.mirrorsParent('k3', 'k1', sig('something else')), false);
  assert.equal(g.mirrorsParent('k4', 'k1', sig('nothing here', ['css/', 'blog/'])), false);
  assert.equal(g.mirrorsParent('k5', 'unknown', sig('nothing here')), false, 'a parent not seen lately: nothing to compare');
});
