import type { Command } from 'commander';
import { formatServices, type ServiceFormat } from '../services/service-export.js';
import type { ServiceStatus } from '../services/service-record.js';
import { SqliteServiceRegistry } from '../store/sqlite-service-registry.js';
import { openExistingDb, runningLine } from './open-existing-db.js';
import { oneOf } from './option-parsers.js';
import { checkOutputFile, writeChunks } from './output-file.js';

export function registerServices(program: Command): void {
  program
    .command('services')
    .description('the OGC services a crawl found and probed (crawl with --preset wms or --detect)')
    .requiredOption('--db <file>', 'crawl database')
    .option('--format <format>', 'json | csv | geojson (one feature per layer extent; valid services only)', oneOf(['json', 'csv', 'geojson'] as const), 'json')
    .option('--status <status>', 'only services with this status: valid | exception | invalid', oneOf(['valid', 'exception', 'invalid'] as const))
    .option('--out <file>', 'output file (default standard output)')
    .action(async (o: { db: string; format: ServiceFormat; status?: ServiceStatus; out?: string }) => {
      checkOutputFile(o.out);
      const { db, running } = openExistingDb(o.db);
      // The records committed so far: the running crawl adds more.
      if (running) process.stderr.write(`focuscrawl: ${runningLine(o.db, running)}: this is what it has committed so far\n`);
      try {
        const status = o.status ?? (o.format === 'geojson' ? 'valid' : undefined);
        const entries = (await new SqliteServiceRegistry(db).entries()).filter((e) => !status || e.status === status);
        await writeChunks(o.out, formatServices(entries, o.format));
      } finally {
        await db.close();
      }
    });
}
