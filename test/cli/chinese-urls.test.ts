import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

test('search shows a Chinese URL as a browser does; --json keeps it as fetched', async () => {
  const path = '/%E6%96%B0%E9%97%BB/%E5%A4%AA%E9%98%B3%E8%83%BD';
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url === '/') return void res.end(`<html><head><title>首页</title></head><body><a href="/新闻/太阳能">太阳能</a></body></html>`);
    if (req.url === path) return void res.end('<html><head><title>太阳能发电</title></head><body><p>光伏发电和太阳能电池板</p></body></html>');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const db = join(mkdtempSync(join(tmpdir(), 'fc-cjk-urls-')), 'c.db');
    const crawl = await runCli(['crawl', '--seeds', origin + '/', '--db', db, '--delay-ms', '0', '--no-sitemaps']);
    assert.equal(crawl.code, 0, crawl.stderr);
    const text = await runCli(['search', '--db', db, '光伏']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^1\. 太阳能发电\n {3}http:\/\/127\.0\.0\.1:\d+\/新闻\/太阳能\n/);
    const json = await runCli(['search', '--db', db, '--json', '光伏']);
    assert.equal((JSON.parse(json.stdout.trim()) as { url: string }).url, origin + path);
  } finally {
    server.close();
  }
});
