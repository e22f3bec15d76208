import type { Command } from 'commander';
import { formatOfFile } from './format-of-file.js';
import { formatServices, type ServiceFormat } from '../services/service-export.js';
import type { ServiceStatus } from '../services/service-record.js';
import type { SharedFlags } from '../distributed/shared-target.js';
import { openReader } from './open-reader.js';
import { withSharedOptions } from './shared-options.js';
import { oneOf } from './option-parsers.js';
import { checkOutputFile, checkOutputNotInput, writeChunks } from './output-file.js';

export function registerServices(program: Command): void {
  withSharedOptions(program.command('services').description('the OGC services a crawl found and probed (crawl with --preset wms or --detect)'))
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--format <format>', 'json | csv | geojson (one feature per layer extent; valid services only)', oneOf(['json', 'csv', 'geojson'] as const))
    .option('--status <status>', 'only services with this status: valid | exception | invalid', oneOf(['valid', 'exception', 'invalid'] as const))
    .option('--out <file>', 'output file (default standard output); without --format its extension picks the format: .json, .csv, .geojson (default json)')
    .action(async (o: SharedFlags & { db?: string; format?: ServiceFormat; status?: ServiceStatus; out?: string }) => {
      const format: ServiceFormat = o.format ?? formatOfFile(o.out, ['json', 'csv', 'geojson'] as const) ?? 'json';
      checkOutputFile(o.out);
      checkOutputNotInput(o.out, [{ flag: '--db', file: o.name ? undefined : (o.db ?? 'focuscrawl.db') }]);
      const open = await openReader(o);
      // The records committed so far: the running crawl adds more.
      if (open.running) process.stderr.write(`focuscrawl: ${open.running}: this is what it has committed so far\n`);
      try {
        const status = o.status ?? (format === 'geojson' ? 'valid' : undefined);
        const all = await open.reader.services();
        const entries = all.filter((e) => !status || e.status === status);
        // An empty registry of a crawl that never looked for services: said, so [] is not read as "none found".
        const detect = (await open.reader.config())?.detect;
        if (!all.length && !(Array.isArray(detect) && detect.length)) {
          process.stderr.write(`focuscrawl: ${open.label} was crawled without service detection, so it has no services to list (crawl with --preset wms or --detect TYPES)\n`);
        }
        await writeChunks(o.out, formatServices(entries, format));
      } finally {
        await open.close();
      }
    });
}
