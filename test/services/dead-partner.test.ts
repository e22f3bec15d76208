import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlToEnd, html, silentHost } from '../helpers/hostile-web.js';
import { startTestServer } from '../helpers/misbehaving-server.js';

/**
 * Partner services that never answer, in a service crawl (issue 16): the probes of a dead host
 * must not hold the crawl. Real sockets on loopback addresses; the partners sit on addresses
 * other than the portal's, which the crawl is told it may fetch (`hosts`: probes pass only the
 * allow/deny filters, the address rule still applies). No timing is asserted: a crawl that
 * waited for the dead hosts' five-minute pause would not end within the test's time limit.
 */

const SERVICES = ['WMS', 'WFS', 'WCS', 'WMTS', 'CSW'];

test('a partner that accepts connections and never answers: two robots.txt attempts, then its probes end as "host unreachable"', async () => {
  const silent = await silentHost('127.0.0.6');
  const portal = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(
      html('Partner services', ['/html/1', ...SERVICES.slice(0, 3).map((s) => `${silent.origin}/ows?service=${s}&request=GetCapabilities`)])
        .replace('</body>', `<pre>${silent.origin}/ows?service=WMTS&amp;request=GetCapabilities</pre></body>`),
    )],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [portal.origin + '/'], hosts: ['127.0.0.6'], detect: ['all'], headersTimeoutMs: 1500 });
    assert.equal(r.summary.reason, 'exhausted');
    assert.equal(silent.connections(), 2, 'one robots.txt check at a time for all four probes, two in all');
    const probes = r.entries.filter((e) => e.url.startsWith(silent.origin));
    assert.equal(probes.length, 4, 'three linked endpoints and one printed');
    for (const e of probes) {
      assert.equal(e.state, 'error');
      assert.match(e.error!, /^host unreachable: (?:no response headers within \d+ ms \[UND_ERR_HEADERS_TIMEOUT\]|the request took longer than \d+ ms in all \(totalTimeoutMs\)) \(2 failures in a row\)$/);
    }
    const entries = r.services.filter((s) => s.endpoint.startsWith(silent.origin));
    assert.deepEqual(entries.map((s) => s.type).sort(), ['WCS', 'WFS', 'WMS', 'WMTS']);
    for (const s of entries) assert.deepEqual([s.status, /^host unreachable/.test(s.reason!)], ['invalid', true]);
    assert.equal(r.log.get(portal.origin + '/html/1')?.state, 'done');
    assert.equal(r.summary.stats.fetched, 2, 'the dead host\'s probes made no request of their own');
  } finally {
    await portal.close();
    await silent.close();
  }
});

test('a partner whose robots.txt answers and whose service path hangs: marked after two probes hung, the rest end without a request', async () => {
  const partner = await startTestServer([], '127.0.0.7');
  partner.robots = 404;
  const portal = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(
      html('Partner services', ['/html/1', '/html/2', ...SERVICES.map((s) => `${partner.origin}/hang?service=${s}&request=GetCapabilities`)]),
    )],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [portal.origin + '/'], hosts: ['127.0.0.7'], detect: ['all'], headersTimeoutMs: 1500 });
    assert.equal(r.summary.reason, 'exhausted');
    // The host answers robots.txt, so it is not dead at first: one URL that hangs is that URL's
    // problem. Once a second one has hung with no answer between them, retries count too
    // (host-health.ts), and the third silent failure marks the host: the first two probes (two at
    // a time, perHost 2) are asked twice at most, four requests in all, and the later ones never.
    const asked = [...partner.hits].filter(([k]) => k.startsWith('/hang'));
    for (const [k, n] of asked) assert.ok(n <= 2, `${k} asked ${n} times`);
    assert.ok(asked.reduce((a, [, n]) => a + n, 0) <= 4, `at most four hanging requests: ${JSON.stringify(asked)}`);
    assert.ok(asked.length >= 2 && asked.length < SERVICES.length, `two different URLs, not all five: ${JSON.stringify(asked)}`);
    const probes = r.entries.filter((e) => e.url.startsWith(partner.origin + '/hang'));
    assert.equal(probes.length, 5);
    for (const e of probes) {
      assert.equal(e.state, 'error');
      assert.match(e.error!, /^(?:host unreachable: no response headers within \d+ ms \[UND_ERR_HEADERS_TIMEOUT\].*|no response headers within \d+ ms \[UND_ERR_HEADERS_TIMEOUT\] \(after 3 attempts\))$/);
    }
    const notAsked = probes.filter((e) => !partner.hits.has(e.url.slice(partner.origin.length)));
    assert.ok(notAsked.length >= 1);
    for (const e of notAsked) assert.deepEqual([e.fetched_at, /^host unreachable/.test(e.error!)], [null, true], e.url);
    assert.equal(r.services.filter((s) => s.status === 'invalid').length, 5);
    for (const p of ['/', '/html/1', '/html/2']) assert.equal(r.log.get(portal.origin + p)?.state, 'done', p);
  } finally {
    await portal.close();
    await partner.close();
  }
});
