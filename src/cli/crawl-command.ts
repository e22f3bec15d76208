import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { loadCrawlConfigFile, type CrawlConfigInput } from '../config/crawl-config.js';
import { startCrawl } from '../crawl.js';
import { defaultStrategyName, strategyNames } from '../strategies/registry.js';
import { FocusCrawlError } from '../errors.js';
import { normalizeUrl } from '../parse/normalize-url.js';
import { sameResolveKey } from '../fetch/resolve-map.js';
import { keyNumber, nonNegativeInt, oneOf, positiveInt, tcpPort } from './option-parsers.js';
import { proxySetting, regex, requestHeader, resolveEntry } from './crawl-option-parsers.js';
import { runToEnd } from './run-to-end.js';
import { withSharedOptions } from './shared-options.js';
import { sharedTarget, type SharedFlags } from '../distributed/shared-target.js';
import type { MetricsEndpoint } from './metrics-endpoint.js';
import { readSeedsFile, seedProblem } from '../config/seeds.js';
import { count } from './progress.js';

interface CrawlFlags {
  /** Seed URLs given as arguments (`focuscrawl crawl URL ...`). */
  urls?: string[];
  seeds?: string[];
  seedsFile?: string;
  topic?: string;
  strategy?: string;
  strategyOption?: Record<string, number>;
  maxPages?: number;
  maxPagesPerHost?: number;
  stopWhenStalled?: number;
  rediscovery?: 'raise' | 'keep';
  maxDepth?: number;
  maxUrlsPerPattern?: number;
  maxUrlLength?: number;
  proxy?: string;
  header?: Record<string, string>;
  resolve?: string[];
  concurrency?: number;
  perHost?: number;
  delayMs?: number;
  scope?: 'host' | 'domain' | 'any';
  hosts?: string;
  allow?: string[];
  deny?: string[];
  db?: string;
  config?: string;
  userAgent?: string;
  robots?: boolean;
  sitemaps?: boolean;
  cookies?: boolean;
  seenCache?: number;
  record?: string;
  replay?: string;
  preset?: 'wms';
  detect?: string;
  force?: boolean;
  allowPrivate?: boolean;
  leaseMs?: number;
}

/** `--detect wms,wfs` or `all`, checked here so a typo is named. */
function serviceList(list: string): NonNullable<CrawlConfigInput['detect']> {
  const names = list.split(',').map((s) => s.trim().toLowerCase().replace(/[\s_-]/g, '')).filter(Boolean);
  const known = ['wms', 'wmts', 'wfs', 'wcs', 'csw', 'ogcapi', 'all'] as const;
  // An empty list would turn detection off without a word: a variable left unset, say.
  if (!names.length) throw new FocusCrawlError('USAGE', `--detect: no service type given (${known.join(', ')})`);
  for (const n of names) {
    if (!(known as readonly string[]).includes(n)) throw new FocusCrawlError('USAGE', `--detect: unknown service type '${n}' (known: ${known.join(', ')})`);
  }
  return names as NonNullable<CrawlConfigInput['detect']>;
}

/**
 * The crawl config the flags describe (a --config file under them), and notes for the user: the
 * seeds given as arguments, by --seeds and in --seeds-file are merged, and the merge with a file is said.
 */
export function crawlConfigFromFlags(o: CrawlFlags): { config: CrawlConfigInput; notes: string[] } {
  const cfg: CrawlConfigInput = o.config ? { ...loadCrawlConfigFile(o.config) } : {};
  // A file the config names and no flag replaces: a missing one is the config file's fault, said so.
  for (const [key, flag] of [['topic', o.topic], ['replay', o.replay]] as const) {
    const named = cfg[key];
    if (flag === undefined && typeof named === 'string' && !existsSync(named)) {
      throw new FocusCrawlError('CONFIG', `${o.config}: config field '${key}': no such file ${named} (a path in a config file is read from the file's folder)`);
    }
  }
  const notes: string[] = [];
  for (const s of o.urls ?? []) {
    const problem = seedProblem(s);
    if (problem) throw new FocusCrawlError('USAGE', `seed '${s}' ${problem}`);
  }
  for (const s of o.seeds ?? []) {
    const problem = seedProblem(s);
    if (problem) throw new FocusCrawlError('USAGE', `--seeds: '${s}' ${problem}`);
  }
  const given = [...(o.urls ?? []), ...(o.seeds ?? [])];
  const fromFile = o.seedsFile ? readSeedsFile(o.seedsFile) : [];
  if (given.length && o.seedsFile) notes.push(`crawling the ${count(given.length, 'seed')} given and the ${new Set(fromFile).size} of --seeds-file ${o.seedsFile} together`);
  const seeds = [...given, ...fromFile];
  if (seeds.length && cfg.seeds?.length) notes.push(`the ${count(seeds.length, 'seed')} given ${seeds.length === 1 ? 'replaces' : 'replace'} the ${cfg.seeds.length} of --config ${o.config}`);
  if (seeds.length) cfg.seeds = seeds;
  // A list flag replaces the file's list, as the seeds do: said, so a deny list is not lost unawares.
  for (const [flag, key, given] of [['--allow', 'allow', o.allow], ['--deny', 'deny', o.deny]] as const) {
    const inFile = cfg[key]?.length ?? 0;
    if (given?.length && inFile) notes.push(`${flag} replaces the ${count(inFile, `${key} pattern`)} of --config ${o.config}`);
  }
  const set = <K extends keyof CrawlConfigInput>(k: K, v: CrawlConfigInput[K] | undefined) => {
    if (v !== undefined) cfg[k] = v;
  };
  set('topic', o.topic);
  set('strategy', o.strategy);
  if (o.strategyOption) cfg.strategyOptions = { ...(cfg.strategyOptions ?? {}), ...o.strategyOption };
  set('maxPages', o.maxPages);
  set('maxPagesPerHost', o.maxPagesPerHost);
  set('stopWhenStalled', o.stopWhenStalled);
  set('rediscovery', o.rediscovery);
  set('maxDepth', o.maxDepth);
  set('maxUrlsPerPattern', o.maxUrlsPerPattern);
  set('maxUrlLength', o.maxUrlLength);
  set('proxy', o.proxy);
  if (o.header) {
    // A flag replaces the file's header of the same name, whatever its case.
    const file = Object.entries(cfg.headers ?? {}).filter(([k]) => !(k.toLowerCase() in o.header!));
    cfg.headers = { ...Object.fromEntries(file), ...o.header };
  }
  // As curl: an entry for the same host and port given again replaces the file's.
  if (o.resolve) cfg.resolve = [...(cfg.resolve ?? []).filter((f) => !o.resolve!.some((e) => sameResolveKey(e, f))), ...o.resolve];
  set('concurrency', o.concurrency);
  set('perHost', o.perHost);
  set('delayMs', o.delayMs);
  set('scope', o.scope);
  set('hosts', o.hosts?.split(',').map((h) => h.trim()).filter(Boolean));
  set('allow', o.allow);
  set('deny', o.deny);
  set('db', o.db);
  set('userAgent', o.userAgent);
  if (o.robots === false) cfg.robots = false;
  if (o.sitemaps === false) cfg.sitemaps = false;
  if (o.cookies === false) cfg.cookies = false;
  if (o.allowPrivate) cfg.allowPrivate = true;
  set('seenCache', o.seenCache);
  set('leaseMs', o.leaseMs);
  set('record', o.record);
  set('replay', o.replay);
  set('preset', o.preset);
  if (o.detect !== undefined) cfg.detect = serviceList(o.detect);
  return { config: cfg, notes };
}

export function registerCrawl(program: Command): void {
  withSharedOptions(program
    .command('crawl')
    .description('crawl from seed URLs into a crawl database, or create and seed a shared crawl (--redis, --pg, --name) and work on it'))
    .option('--seed-only', 'shared crawl: create it and add the seeds, then leave the crawling to workers')
    .option('--lease-ms <n>', "shared crawl: how long a worker holds a claimed URL; a killed worker's URLs return after it (default 120000)", positiveInt)
    .argument('[urls...]', 'seed URLs (the same as --seeds)')
    .option('--seeds <url...>', 'seed URLs')
    .option('--seeds-file <file>', 'file of seed URLs, one per line')
    .option('--preset <name>', 'wms: find OGC map services (bundled topic, weighted-levels, every detector, depth 5); flags override it', oneOf(['wms'] as const))
    .option('--detect <types>', 'probe OGC service links: comma-separated wms, wmts, wfs, wcs, csw, ogcapi, or all')
    .option('--topic <file>', 'topic file (YAML: name, keywords)')
    .option('--strategy <name>', `crawl ordering: ${strategyNames().join(', ')} (default ${defaultStrategyName(true)} with a topic, else ${defaultStrategyName(false)})`)
    .option('--strategy-option <name=value>', 'a parameter of the chosen strategy, e.g. decay=0.3 for adaptive (repeatable; docs/strategies.md)', keyNumber)
    .option('--max-pages <n>', 'fetches over the whole crawl (default 10000)', positiveInt)
    .option('--max-pages-per-host <n>', 'fetches any one host gets over the whole crawl (default 0: no per-host budget)', nonNegativeInt)
    .option('--rediscovery <mode>', 'raise: a waiting URL found again through a better link moves up (default); keep: first discovery decides', oneOf(['raise', 'keep'] as const))
    .option('--stop-when-stalled <n>', 'stop when N pages in a row were fetched without a relevant one (default 0: never; needs --topic)', nonNegativeInt)
    .option('--max-depth <n>', 'link depth limit, seeds are 0 (default 20)', nonNegativeInt)
    .option('--max-urls-per-pattern <n>', 'spider traps: fetches per URL pattern of a host, digits read as # (/t/123 is /t/#); raise it for a site of more numbered pages (default 1000; 0: no cap)', nonNegativeInt)
    .option('--max-url-length <n>', 'longer URLs are out of scope and longer seeds refused (default 2083, as Scrapy)', positiveInt)
    .option('--concurrency <n>', 'requests in flight over all hosts (default 16)', positiveInt)
    .option('--per-host <n>', 'requests in flight per host (default 2)', positiveInt)
    .option('--delay-ms <n>', 'minimum delay between requests to a host (default 250)', nonNegativeInt)
    .option('--scope <scope>', 'host | domain | any (default host)', oneOf(['host', 'domain', 'any'] as const))
    .option('--hosts <list>', 'comma-separated hosts allowed besides the seeds')
    .option('--allow <regex>', 'only URLs matching (repeatable)', regex)
    .option('--deny <regex>', 'skip URLs matching (repeatable)', regex)
    .option('--db <file>', 'crawl database (default focuscrawl.db)')
    .option('--config <file>', 'config file (YAML or JSON); flags override it')
    .option('--user-agent <ua>', 'User-Agent header')
    .option('--no-robots', 'ignore robots.txt (only for sites you own)')
    .option('--no-sitemaps', "do not read the sites' sitemaps (robots.txt Sitemap lines, /sitemap.xml)")
    .option('--no-cookies', 'do not send back the cookies sites set (kept in memory per site, never stored)')
    .option('--allow-private', 'also fetch private, loopback and link-local addresses other than those of the seeds and --hosts')
    .option('--proxy <url>', "send every request through this proxy (http://, https:// or socks5://, user:password@ if it asks); 'direct' ignores HTTP_PROXY/HTTPS_PROXY (default: those variables, with NO_PROXY, when set)", proxySetting)
    .option('--header <header>', "add 'Name: value' to every request (repeatable); credentials (Authorization, Cookie, names with token, key, secret, auth, session, password) go only to the seeds' hosts; not stored: give it again to resume", requestHeader)
    .option('--resolve <host:port:addr>', "connect to ADDR for HOST:PORT (PORT or *), as curl --resolve; the URL, Host header and TLS name stay HOST's (repeatable; stored with the crawl)", resolveEntry)
    .option('--record <file.warc>', 'append every response to a WARC file')
    .option('--replay <file.warc|dir>', 'crawl a recording instead of the network (a WARC, or a folder from bench gen)')
    .option('--seen-cache <n>', 'URL-seen test: a CLOCK cache of N fingerprints over the database index instead of all in memory (default 0: all in memory)', nonNegativeInt)
    .option('--force', 'crawl into a database whose crawl has a different topic (or none given), switching it')
    .option('--metrics-port <n>', 'serve Prometheus metrics at http://127.0.0.1:N/metrics while the crawl runs', tcpPort(false))
    .action(async (urls: string[], o: CrawlFlags & SharedFlags & { seedOnly?: boolean; metricsPort?: number }) => {
      // `focuscrawl crawl https://example.org/`, as with wget: URLs given as arguments are seeds too.
      o.urls = urls;
      const target = sharedTarget(o);
      const { config, notes } = crawlConfigFromFlags(o);
      for (const note of notes) process.stderr.write(`focuscrawl: ${note}\n`);
      // Bound before the crawl opens anything, so a port in use fails with nothing created.
      // The metrics (prom-client) and the shared backends load when asked for: they are much of the CLI's start-up.
      const metrics = o.metricsPort !== undefined ? await (await import('./metrics-endpoint.js')).metricsEndpoint(o.metricsPort) : null;
      try {
        await crawlTo(o, target, config, metrics);
      } finally {
        await metrics?.close();
      }
    });
}

async function crawlTo(o: CrawlFlags & { seedOnly?: boolean }, target: ReturnType<typeof sharedTarget>, config: CrawlConfigInput, metrics: MetricsEndpoint | null): Promise<void> {
  if (target) {
    if (o.db) throw new FocusCrawlError('USAGE', '--db is for the embedded crawl: a shared crawl keeps its pages in PostgreSQL (--pg)');
    const { startSharedCrawl } = await import('../distributed/shared-crawl.js');
    const crawl = await startSharedCrawl(config, target, { force: o.force === true });
    if (o.seedOnly) {
      for (const note of crawl.notes) process.stderr.write(`focuscrawl: ${note}\n`);
      // The same seed twice on the command line (or as http://a and http://a/) is one seed.
      const given = new Set((config.seeds ?? []).map((s) => normalizeUrl(s) ?? s)).size;
      const added = crawl.seedsAdded ?? given;
      const known = given - added;
      process.stdout.write(`${crawl.where}: ${count(added, 'seed')} queued${known > 0 ? ` (${known} already known to the crawl, not queued again)` : ''}; start workers with focuscrawl worker --name ${target.name}\n`);
      await crawl.close();
      return;
    }
    metrics?.attach(crawl.crawler);
    await runToEnd(crawl);
    return;
  }
  if (o.seedOnly) throw new FocusCrawlError('USAGE', '--seed-only is for a shared crawl (--redis, --pg, --name)');
  // An embedded crawl's leases live in its one process and never expire: the flag would change nothing.
  if (o.leaseMs !== undefined) throw new FocusCrawlError('USAGE', '--lease-ms is for a shared crawl (--redis, --pg, --name): an embedded crawl\'s leases end with its process');
  const crawl = await startCrawl(config, { force: o.force === true });
  metrics?.attach(crawl.crawler);
  await runToEnd(crawl);
}
