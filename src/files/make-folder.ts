import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `mkdir -p` that ends: Node's own `mkdirSync(dir, { recursive: true })` loops for ever on a path
 * under /proc (mkdir says ENOENT, its parent exists, and it tries again). Each missing folder is
 * made once, parents first, and the error of the one that cannot be made is thrown.
 */
export function makeFolder(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(dir).isDirectory()) return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw err;
    makeFolder(parent);
    mkdirSync(dir);
  }
}
