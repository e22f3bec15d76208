import type { Server } from 'node:http';
import { FocusCrawlError } from '../errors.js';

/** Listens, turning "port in use" and "no such address" into one-line usage errors (exit 2). */
export function listenOrExplain(server: Server, port: number, host: string, flag: string, hostFlag = '--host'): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const address = err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN';
      const why = err.code === 'EADDRINUSE' ? 'the port is in use' : address ? 'this machine has no such address' : err.code === 'EACCES' ? 'permission denied' : err.message;
      // A bad address is the host flag's fault, not the port's.
      reject(new FocusCrawlError('USAGE', `${address ? hostFlag : flag}: cannot listen on ${host}:${port}: ${why}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
