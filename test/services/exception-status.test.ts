import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlToEnd, html } from '../helpers/hostile-web.js';
import { startTestServer } from '../helpers/misbehaving-server.js';

/** An OGC exception report is the service's answer whatever the HTTP status (docs/services.md). */

const REPORT = '<?xml version="1.0"?><ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" version="2.0.0"><ows:Exception exceptionCode="NoApplicableCode"><ows:ExceptionText>database down</ows:ExceptionText></ows:Exception></ows:ExceptionReport>';

test('an exception report sent with HTTP 500 is recorded as an exception at once; a 503 without one is retried, then invalid', async () => {
  const portal = await startTestServer([
    [/^\/$/, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html('Services', ['/e500/wfs?service=WFS&request=GetCapabilities', '/busy/wmts?service=WMTS&request=GetCapabilities']))],
    [/^\/e500\/wfs$/, (_q, res) => res.writeHead(500, { 'content-type': 'text/xml' }).end(REPORT)],
    [/^\/busy\/wmts$/, (_q, res) => res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>')],
  ]);
  try {
    const r = await crawlToEnd({ seeds: [portal.origin + '/'], detect: ['all'], retries: 2 });
    const byType = new Map(r.services.map((s) => [s.type, s]));
    assert.equal(byType.get('WFS')?.status, 'exception');
    const asked = (path: string) => [...portal.hits].filter(([u]) => u.startsWith(path)).reduce((n, [, k]) => n + k, 0);
    assert.equal(asked('/e500/wfs'), 1, `a final answer is not asked again: ${[...portal.hits.keys()].join(' ')}`);
    assert.equal(byType.get('WMTS')?.status, 'invalid');
    assert.match(byType.get('WMTS')!.reason!, /HTTP 503/);
    assert.equal(asked('/busy/wmts'), 3, 'retried twice, as any 5xx');
  } finally {
    await portal.close();
  }
});
