import type { Command } from 'commander';

/** The flags that name a shared crawl, the same on every command that reads or runs one. */
export function withSharedOptions(cmd: Command): Command {
  return cmd
    .option('--redis <url>', 'shared crawl: Redis holding the live frontier (or FOCUSCRAWL_REDIS)')
    .option('--pg <url>', 'shared crawl: PostgreSQL holding the repository (or FOCUSCRAWL_PG)')
    .option('--name <name>', 'shared crawl: its name, the same on every worker');
}
