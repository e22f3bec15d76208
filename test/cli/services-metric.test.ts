import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

test("the services metric divides by pages downloaded: a dead host's URLs, ended without a request, are none", async () => {
  // 127.0.0.6:9: nothing listens, so its robots.txt is refused and its endpoint ends without a request.
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Portal</title><a href="/news">news</a> <a href="http://127.0.0.6:9/wms?SERVICE=WMS&amp;REQUEST=GetCapabilities">partner WMS</a>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'fc-services-metric-'));
  writeFileSync(join(dir, 'c.yaml'), 'retryBaseMs: 10\nrobotsRetryMs: 10\nsitemaps: false\ndelayMs: 0\n');
  try {
    const r = await runCli(['crawl', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, '--config', join(dir, 'c.yaml'), '--db', join(dir, 'm.db'), '--detect', 'wms', '--hosts', '127.0.0.6']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 ended without a request/, r.stdout);
    assert.match(r.stdout, /0\.0000 valid services per page downloaded \(2 fetched in the whole crawl\)/, r.stdout);
  } finally {
    server.close();
  }
});
