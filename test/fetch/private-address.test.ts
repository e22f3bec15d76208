import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { lookup as dnsLookup } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy, isPrivateAddress } from '../../src/fetch/address-policy.js';
import { FetchError } from '../../src/fetch/fetcher.js';
import { HttpFetcher } from '../../src/fetch/http-fetcher.js';

/** A server on `host` counting every connection and request; `/to-three` redirects to the server on 127.0.0.3. */
async function serve(host: string, redirectTo: () => string) {
  let hits = 0;
  let connections = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    if (req.url === '/to-three') return void res.writeHead(302, { location: redirectTo() + '/landed' }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${host}</title>`);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, host, r));
  return { origin: `http://${host}:${(server.address() as AddressInfo).port}`, port: (server.address() as AddressInfo).port, hits: () => hits, connections: () => connections, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

let one: Awaited<ReturnType<typeof serve>>;
let two: Awaited<ReturnType<typeof serve>>;
let three: Awaited<ReturnType<typeof serve>>;
let fetcher: HttpFetcher;

before(async () => {
  three = await serve('127.0.0.3', () => three.origin);
  two = await serve('127.0.0.2', () => three.origin);
  one = await serve('127.0.0.1', () => three.origin);
  // Test names resolve through this lookup: seed.test to the seed's address, rebind.test to another private one.
  const lookup = ((hostname: string, options: object, callback: (...a: unknown[]) => void) => {
    const address = hostname === 'seed.test' ? '127.0.0.2' : hostname === 'rebind.test' ? '127.0.0.3' : null;
    if (!address) return dnsLookup(hostname, options, callback as never);
    const all = (options as { all?: boolean }).all;
    return all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);
  }) as typeof dnsLookup;
  fetcher = new HttpFetcher({ addressPolicy: new AddressPolicy([two.origin + '/']), lookup, totalTimeoutMs: 5000 });
});
after(async () => {
  await fetcher.close();
  await Promise.all([one.close(), two.close(), three.close()]);
});

const refusal = (url: string) => fetcher.fetch(url).then(() => assert.fail(`${url} was fetched`), (e: unknown) => {
  assert.ok(e instanceof FetchError, String(e));
  assert.equal(e.transient, false, 'not retried');
  return e.message;
});

test('private, loopback, link-local and other non-public addresses are told from public ones', () => {
  for (const ip of ['127.0.0.3', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:a00:1]']) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
  for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPrivateAddress(ip), false, ip);
});

test("the seed's own private address is fetched; another private address is refused before any request, by literal, by name and on a redirect hop", async () => {
  assert.equal((await fetcher.fetch(two.origin + '/')).status, 200);
  assert.equal((await fetcher.fetch(`http://seed.test:${two.port}/`)).status, 200, "a name on the seed's address");
  const seen = two.hits();

  assert.equal(await refusal(three.origin + '/'), 'private address 127.0.0.3 (pass --allow-private to fetch it)');
  assert.equal(await refusal(`http://rebind.test:${three.port}/`), 'rebind.test resolves to private address 127.0.0.3 (pass --allow-private to fetch it)');
  assert.match(await refusal(`http://localhost:${one.port}/`), /^localhost resolves to private address (127\.0\.0\.1|::1) \(pass --allow-private to fetch it\)$/);
  assert.equal(await refusal(two.origin + '/to-three'), `redirect to ${three.origin}/landed refused: private address 127.0.0.3 (pass --allow-private to fetch it)`);
  assert.equal(three.connections(), 0, '127.0.0.3 was never connected to');
  assert.equal(one.connections(), 0, '127.0.0.1 was never connected to');
  assert.equal(two.hits(), seen + 1, 'only the redirecting request reached the seed');
});

test('without a policy (the library default) and for hosts named as trusted, private addresses are fetched', async () => {
  const open = new HttpFetcher();
  const named = new HttpFetcher({ addressPolicy: new AddressPolicy([two.origin, `127.0.0.3:${three.port}`, 'localhost']) });
  try {
    assert.equal((await open.fetch(three.origin + '/')).status, 200);
    assert.equal((await named.fetch(two.origin + '/to-three')).finalUrl, three.origin + '/landed');
    assert.equal((await named.fetch(`http://localhost:${one.port}/`)).status, 200);
  } finally {
    await open.close();
    await named.close();
  }
});

test('a total timeout says so without a stray DOMException code', async () => {
  const slow = createServer(() => { /* never answers */ });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const f = new HttpFetcher({ totalTimeoutMs: 200, headersTimeoutMs: 10_000 });
  try {
    const err = await f.fetch(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`).catch((e: FetchError) => e);
    assert.ok(err instanceof FetchError);
    assert.equal(err.message, 'the request took longer than 200 ms in all (totalTimeoutMs)');
  } finally {
    await f.destroy();
    slow.closeAllConnections();
    slow.close();
  }
});
