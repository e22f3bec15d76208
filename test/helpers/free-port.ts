import { createServer } from 'node:net';

/** A free port on 127.0.0.1, for a server a test starts of its own (Redis, PostgreSQL). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
