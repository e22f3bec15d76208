import type { Command } from 'commander';
import { FocusCrawlError } from '../errors.js';
import { sharedTarget, type SharedFlags } from '../distributed/shared-target.js';
import { count } from './progress.js';
import { withSharedOptions } from './shared-options.js';

export function registerDrop(program: Command): void {
  withSharedOptions(program.command('drop').description("delete a shared crawl: its frontier in Redis and its record (pages, log, services) in PostgreSQL"))
    .option('--force', 'drop it even while workers are running (they then stop, unable to find the crawl)')
    .action(async (o: SharedFlags & { force?: boolean }) => {
      const target = sharedTarget(o);
      if (!target) throw new FocusCrawlError('USAGE', 'drop deletes a shared crawl: pass --name NAME with --redis URL and --pg URL (or FOCUSCRAWL_REDIS and FOCUSCRAWL_PG); an embedded crawl is its database file, deleted as a file');
      const { dropCrawl } = await import('../distributed/drop-crawl.js');
      const r = await dropCrawl(target, { force: o.force === true });
      const record = r.pages === null ? 'PostgreSQL held no record of it' : `its PostgreSQL schema dropped with ${count(r.pages, 'page')}`;
      process.stdout.write(`crawl '${target.name}' dropped: ${count(r.redisKeys, 'Redis key')} deleted, ${record}\n`);
      if (r.leftKeys) process.stderr.write(`focuscrawl: a worker of crawl '${target.name}' still writes to Redis; stop it, then run focuscrawl drop --name ${target.name} again\n`);
    });
}
