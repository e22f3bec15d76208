import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { connectPg } from '../../src/store/pg-connect.js';
import { FocusCrawlError } from '../../src/errors.js';

test('a port that accepts and never answers as PostgreSQL (Redis at 6379, say) is given up after one connection, and the line says what the silence means', { timeout: 60_000 }, async () => {
  let connections = 0;
  const sockets: net.Socket[] = [];
  const silent = net.createServer((s) => {
    connections++;
    sockets.push(s);
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const port = (silent.address() as net.AddressInfo).port;
  try {
    await assert.rejects(connectPg(`postgres://postgres@127.0.0.1:${port}/test`, 1), (err: Error) => {
      assert.ok(err instanceof FocusCrawlError && err.code === 'STORE', String(err));
      assert.match(err.message, new RegExp(`^cannot reach PostgreSQL at postgres://postgres@127\\.0\\.0\\.1:${port}/test: .*timeout \\(no PostgreSQL answered within 5 s: is it another server's port, or are packets dropped\\?\\)$`));
      return true;
    });
    assert.equal(connections, 1, 'no second attempt at a server that stayed silent');
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
  }
});
