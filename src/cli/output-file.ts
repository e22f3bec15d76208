import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { FocusCrawlError } from '../errors.js';

/**
 * Writes chunks to a file (or standard output when `file` is undefined), waiting for drain; an
 * unwritable file is an IO error naming it.
 */
export async function writeChunks(file: string | undefined, chunks: Iterable<string>): Promise<void> {
  const out = file ? createWriteStream(file) : process.stdout;
  if (file) {
    await Promise.race([
      once(out, 'open'),
      once(out, 'error').then(([err]) => {
        throw new FocusCrawlError('IO', `cannot write ${file}: ${(err as Error).message}`);
      }),
    ]);
  }
  try {
    for (const chunk of chunks) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    if (file) await new Promise<void>((r) => out.end(() => r()));
  }
}
