import type { Server } from 'node:http';
import { FocusCrawlError } from '../errors.js';

/** Listens, turning "port in use" and "no such address" into one-line usage errors (exit 2). */
export function listenOrExplain(server: Server, port: number, host: string, flag: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'the port is in use' : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' ? 'this machine has no such address' : err.code === 'EACCES' ? 'permission denied' : err.message;
      reject(new FocusCrawlError('USAGE', `${flag}: cannot listen on ${host}:${port}: ${why}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
