import { closeSync, openSync, readSync } from 'node:fs';

/** Up to `length` bytes of `file` from `position` (fewer at its end): a file's head or tail without reading the rest. */
export function readBytes(file: string, position: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.max(0, length));
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, Math.max(0, position)));
  } finally {
    closeSync(fd);
  }
}
