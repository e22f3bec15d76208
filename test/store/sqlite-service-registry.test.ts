import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDb } from '../../src/store/sqlite-db.js';
import { SqliteServiceRegistry } from '../../src/store/sqlite-service-registry.js';
import { describeServiceRegistry } from './describe-service-registry.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-registry-'));
let n = 0;

for (const writer of ['inline', 'thread'] as const) {
  describeServiceRegistry(`SqliteServiceRegistry (${writer} writer)`, async () => {
    const db = new SqliteDb(join(dir, `r${n++}.db`), { create: true, writer });
    return {
      registry: new SqliteServiceRegistry(db),
      flush: async () => {
        db.flush();
        await db.settle();
      },
      close: () => db.close(),
    };
  });
}
