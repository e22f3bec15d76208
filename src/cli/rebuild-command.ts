import type { Command } from 'commander';
import { FocusCrawlError } from '../errors.js';
import { sharedTarget, type SharedFlags } from '../distributed/shared-target.js';
import { count } from './progress.js';
import { withSharedOptions } from './shared-options.js';

export function registerRebuild(program: Command): void {
  withSharedOptions(program.command('rebuild').description("recreate a shared crawl's live frontier in Redis from its record in PostgreSQL (after Redis lost data)"))
    .option('--force', 'clear what Redis still holds of the crawl first (stop its workers before)')
    .action(async (o: SharedFlags & { force?: boolean }) => {
      const target = sharedTarget(o);
      if (!target) throw new FocusCrawlError('USAGE', 'rebuild needs a shared crawl: pass --name NAME with --redis URL and --pg URL (or FOCUSCRAWL_REDIS and FOCUSCRAWL_PG)');
      const { rebuildFrontier } = await import('../distributed/rebuild-frontier.js');
      const r = await rebuildFrontier(target, { force: o.force === true });
      process.stdout.write(`crawl '${target.name}': frontier rebuilt from PostgreSQL: ${count(r.open, 'URL')} waiting, ${count(r.final, 'final URL')} marked seen; start workers with focuscrawl worker --name ${target.name}\n`);
    });
}
