import { dirname, resolve } from 'node:path';
import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { topicFileSchema } from '../relevance/topic.js';
import { loadFile } from './load-file.js';
import { didYouMean } from './option-issue.js';
import { FocusCrawlError } from '../errors.js';
import { strategyNames, strategyOptionProblem } from '../strategies/registry.js';
import { isHttpUrl } from '../parse/normalize-url.js';
import { quotedSeed, seedProblem } from './seeds.js';
import { DEFAULT_MAX_URL_LENGTH } from '../engine/crawl-scope.js';
import { headerValueProblem, requestHeadersSchema } from '../fetch/request-headers.js';
import { parseResolveEntry } from '../fetch/resolve-map.js';
import { redact } from '../distributed/shared-target.js';

/**
 * Why `s` is not a usable regular expression, or null. V8 compiles a pattern when it first runs,
 * not when it is constructed: a 500 KB literal passed `new RegExp` and then failed on every URL.
 */
export function regexProblem(s: string): string | null {
  try {
    new RegExp(s).test('');
    return null;
  } catch (err) {
    // V8's message quotes the whole pattern: keep the reason only.
    return (err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  }
}

const regex = z.string().superRefine((s, ctx) => {
  const problem = regexProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: `is not a valid regular expression: ${problem}` });
});

/** A file name given in a config file: an empty one would name the config file's own folder. */
const fileName = z.string().min(1, 'is empty: give a file name');

/** Node's timers hold at most 2^31 - 1 ms (24.8 days); a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;
/** Entries of the seen cache: 100 million is about 1.6 GB; more fails to allocate. */
const MAX_SEEN_CACHE = 100_000_000;
/** A duration in milliseconds, at least `min`, that a Node timer can hold. */
const millis = (min: number) => z.number().int().min(min).max(MAX_TIMER_MS);

/**
 * Every crawl setting, with its default. Config files use these names (YAML or JSON); the CLI's
 * flags are the kebab-case forms (--max-pages for maxPages) and override the file.
 */
export const crawlConfigSchema = z.strictObject({
  /** Start URLs (http or https). */
  seeds: z
    .array(
      z.string().superRefine((s, ctx) => {
        const problem = seedProblem(s);
        if (problem) ctx.addIssue({ code: 'custom', message: `${quotedSeed(s)} ${problem}` });
      }),
    )
    .default([]),
  /**
   * A bundled set of defaults for one use case; settings given explicitly win. 'wms': the
   * geospatial service crawler of method B (src/config/presets.ts).
   */
  preset: z.enum(['wms']).nullable().default(null),
  /**
   * OGC services to detect and probe (method B's identification step): any of wms, wmts, wfs,
   * wcs, csw, ogcapi, or all. Default none.
   */
  detect: z.array(z.enum(['wms', 'wmts', 'wfs', 'wcs', 'csw', 'ogcapi', 'all'])).default([]),
  /** Topic file path (in a config file, relative to the config file) or an inline topic. */
  topic: z.union([fileName, topicFileSchema]).nullable().default(null),
  /** Default 'adaptive' when there is a topic, else 'bfs' (defaultStrategyName). */
  strategy: z.string().nullable().default(null),
  /** The strategy's parameters (docs/strategies.md), e.g. {m0: 100, b: 0.8, f: 0.2}; defaults are the sources'. */
  strategyOptions: z.record(z.string(), z.number()).default({}),
  /**
   * Stop rule: end the run when this many pages in a row were fetched without a relevant one
   * (the topic's threshold). 0 (default): never. Needs a topic.
   */
  stopWhenStalled: z.number().int().min(0).default(0),
  /**
   * 'raise' (default): a waiting URL found again through a better link takes the better priority
   * and carried state; 'keep': it keeps those of its first discovery.
   */
  rediscovery: z.enum(['raise', 'keep']).default('raise'),
  /** Fetches (done + error) over the whole crawl, resumed runs included. Default 10,000. */
  maxPages: z.number().int().positive().default(10_000),
  /**
   * Fetches any one host gets over the whole crawl (a per-host page budget): a host at it keeps
   * its waiting URLs unfetched. 0 (default): no per-host budget.
   */
  maxPagesPerHost: z.number().int().min(0).default(0),
  /** How often a running crawl reads the dashboard's labels for its learning strategy (ms). Default 5000. */
  labelPollMs: millis(1).default(5000),
  /** Seeds are depth 0; deeper links are discarded. Default 20 (bounds spider traps). */
  maxDepth: z.number().int().min(0).default(20),
  /** Requests in flight over all hosts. Default 16. */
  concurrency: z.number().int().positive().default(16),
  /** Requests in flight per host. Default 2. */
  perHost: z.number().int().positive().default(2),
  /** Minimum milliseconds between requests to one host; robots.txt Crawl-delay can raise it. Default 250. */
  delayMs: millis(0).default(250),
  scope: z.enum(['host', 'domain', 'any']).default('host'),
  /** Hosts allowed besides the seeds' (any scope). */
  hosts: z
    .array(
      z.string().transform((h, ctx) => {
        const host = hostName(h);
        if (host === null) ctx.addIssue({ code: 'custom', message: `not a host name: '${h}' (host, host:port, or an http(s) URL on it)` });
        return host ?? h;
      }),
    )
    .default([]),
  allow: z.array(regex).default([]),
  deny: z.array(regex).default([]),
  /**
   * URL-seen test: 0 (default) keeps every fingerprint in memory (about 11 bytes a URL); N puts a
   * CLOCK cache of N fingerprints in front of the database's URL index instead (for crawls whose
   * seen set should not live in memory; the caching paper suggests about 50,000 or more).
   */
  seenCache: z.number().int().min(0).max(MAX_SEEN_CACHE).default(0),
  /**
   * Waiting URLs the frontier holds in memory, over all hosts (each host's best, an equal share;
   * none past this many hosts); the others wait in the database and are read back as their hosts'
   * turns come. Default 20,000 (a waiting URL costs 0.35 to 1 KB of heap): a crawl's memory does not
   * grow with its frontier's URLs (each host waiting still costs about 650 bytes).
   */
  frontierMemory: z.number().int().positive().default(20_000),
  /**
   * Shared crawls: how long a worker holds a URL it claimed before other workers may take it back
   * (it renews the lease every third of this while the fetch lasts). A killed worker's URLs wait
   * this long. Default 120,000 (two total fetch timeouts).
   */
  leaseMs: millis(1000).default(120_000),
  /**
   * Shared crawls: the Redis seen set has 2^seenBucketBits buckets, each an intset (8 bytes a URL)
   * while it holds at most 512 fingerprints (Redis's set-max-intset-entries). Null: chosen when the
   * crawl is created, from maxPages (about 10 URLs seen per page fetched, about 256 a bucket).
   */
  seenBucketBits: z.number().int().min(0).max(16).nullable().default(null),
  /** The crawl database (frontier, log, pages). Default 'focuscrawl.db'. */
  db: fileName.default('focuscrawl.db'),
  userAgent: z
    .string()
    .superRefine((ua, ctx) => {
      const problem = headerValueProblem(ua);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default('focuscrawl/0.1 (+https://github.com/focuscrawl/focuscrawl)'),
  /** Append every response to this WARC file (replay it later with `replay`). */
  record: fileName.nullable().default(null),
  /** Crawl a recording instead of the network: a WARC file, or a folder written by `bench gen`. */
  replay: fileName.nullable().default(null),
  /**
   * Read each site's sitemaps (robots.txt Sitemap lines, else /sitemap.xml) and offer their URLs
   * to the strategy as links of their own kind. Default true.
   */
  sitemaps: z.boolean().default(true),
  /** URLs (or child sitemaps) read from one sitemap file; the rest are cut. Default 50,000 (the protocol's). */
  sitemapMaxUrls: z.number().int().positive().default(50_000),
  /** Bytes read from one sitemap file, uncompressed; the rest are cut. Default 50 MB (the protocol's). */
  sitemapMaxBytes: z.number().int().positive().default(50_000_000),
  /** Sitemap files read per site, those a sitemap index lists included. Default 50. */
  sitemapsPerSite: z.number().int().positive().default(50),
  /** Obey robots.txt. Default true; turn off only for sites you own. */
  robots: z.boolean().default(true),
  /** Send back the cookies sites set (src/fetch/cookie-jars.ts; in memory, never stored). Default true. */
  cookies: z.boolean().default(true),
  /**
   * Fetch private, loopback and link-local addresses too. Default false: only the addresses of
   * hosts you name (seeds, hosts) are fetched among those (docs/architecture.md).
   */
  allowPrivate: z.boolean().default(false),
  /**
   * Every request through this proxy: an http://, https:// or socks5:// URL, credentials in it
   * if the proxy asks for them. 'direct': no proxy, whatever the environment says. Null (the
   * default): the environment's HTTP_PROXY, HTTPS_PROXY and NO_PROXY when set, as curl reads
   * them. Never stored with the crawl, so its credentials stay on the machine that runs it.
   */
  proxy: z.string().refine(isProxySetting, "not a proxy: an http://, https:// or socks5:// URL, or 'direct'").nullable().default(null),
  /**
   * Headers added to every request ({ "Accept-Language": "zh-CN,en" }); credential headers
   * (Authorization, Cookie, names with token, key, secret, auth, session or password) go only
   * to the seeds' hosts. Never stored with the crawl: resume and worker take them again.
   */
  headers: requestHeadersSchema.default({}),
  /**
   * Host names resolved by hand, as curl's --resolve: `HOST:PORT:ADDR` (PORT a number or `*`,
   * ADDR IPv4 or [IPv6]). Connections to HOST:PORT go to ADDR; URLs, Host headers and TLS names
   * stay HOST's, and the private-address rule allows ADDR. Stored with the crawl. Default none.
   */
  resolve: z.array(z.string().superRefine((v, ctx) => {
    const e = parseResolveEntry(v);
    if (typeof e === 'string') ctx.addIssue({ code: 'custom', message: e });
  })).default([]),
  connectTimeoutMs: millis(1).default(10_000),
  headersTimeoutMs: millis(1).default(15_000),
  bodyTimeoutMs: millis(1).default(15_000),
  totalTimeoutMs: millis(1).default(60_000),
  /** A body slower than this many bytes/s over lowSpeedTimeMs is abandoned (and retried). 0 disables. Default 500. */
  lowSpeedLimit: z.number().int().min(0).default(500),
  lowSpeedTimeMs: millis(1).default(5_000),
  /** Failures without an answer in a row (refused, timeouts) before a host is unreachable. Default 3. */
  hostMaxFailures: z.number().int().positive().default(3),
  /** How long an unreachable host is left alone the first time (doubled if it fails again). Default 5 min. */
  hostDownMs: millis(1).default(300_000),
  /** Fetches per URL pattern of a host (digits read as '#': /cal/#/#/#); 0: no cap. Default 1,000. */
  maxUrlsPerPattern: z.number().int().min(0).default(1000),
  /** Values of one parameter that a page may add to its own path (calendars, counters); 0: no cap. Default 100. */
  maxParamValues: z.number().int().min(0).default(100),
  /** Longer URLs are out of scope, seeds refused. Default 2,083 (Scrapy's URLLENGTH_LIMIT). */
  maxUrlLength: z.number().int().min(32).default(DEFAULT_MAX_URL_LENGTH),
  maxBytes: z.number().int().positive().default(5 * 1024 * 1024),
  maxDecompressedBytes: z.number().int().positive().default(20 * 1024 * 1024),
  maxRedirects: z.number().int().min(0).default(5),
  /** Retries of transient failures (reset, timeout, 429, 5xx). Default 2. */
  retries: z.number().int().min(0).default(2),
  /** First retry backoff, doubled each time; Retry-After wins when sent. Default 1000. */
  retryBaseMs: millis(0).default(1000),
  /** After robots.txt answers 5xx or cannot be reached, the host is retried after this long. Default 60,000. */
  robotsRetryMs: millis(0).default(60_000),
});

export function isProxySetting(p: string): boolean {
  if (p === 'direct') return true;
  if (!URL.canParse(p)) return false;
  const u = new URL(p);
  return ['http:', 'https:', 'socks5:', 'socks:'].includes(u.protocol) && u.hostname !== '';
}

/**
 * The fetcher's proxy for a crawl's `proxy` setting: the URL, 'env' when the setting is null and
 * the environment names a proxy, or null for direct connections.
 */
export function proxyFor(setting: string | null, env: NodeJS.ProcessEnv = process.env): string | 'env' | null {
  if (setting === 'direct') return null;
  if (setting) return setting;
  return ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'].some((k) => env[k]) ? 'env' : null;
}

/**
 * The note a crawl starts with when its requests go through a proxy the user did not name on the
 * command line (HTTP_PROXY and friends, as curl reads them): a proxy that is down fails every
 * URL as "host unreachable" at the proxy's address, which the user would not connect with it.
 */
export function proxyNote(setting: string | null, env: NodeJS.ProcessEnv = process.env): string | null {
  if (proxyFor(setting, env) !== 'env') return null;
  const names = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'].filter((k) => env[k]);
  const shown = names.map((k) => `${k}=${redact(env[k]!)}`).join(', ');
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  return `requests go through the proxy of the environment (${shown}${noProxy ? `; NO_PROXY=${noProxy}` : ''}): --proxy direct ignores it`;
}


/**
 * The config as a crawl stores it (the SQLite meta table, PostgreSQL's crawl row): without the
 * proxy and the request headers, whose credentials stay on the machine that runs the crawl.
 */
export function storableConfig<C extends Pick<CrawlConfig, 'proxy' | 'headers'>>(config: C): C {
  return { ...config, proxy: null, headers: {} };
}

/**
 * The note for a resumed crawl or a worker started without the request headers its crawl was
 * started with (their names are stored, not their values), or null.
 */
export function missingHeadersNote(storedNames: readonly string[], given: Record<string, string> | undefined): string | null {
  if (!storedNames.length || (given && Object.keys(given).length)) return null;
  return `this crawl was started with request headers (${storedNames.join(', ')}), which are not stored: give --header again to send them`;
}

/**
 * A host as URLs carry it (`example.org`, `127.0.0.1:8080`), or a URL on it: what `hosts` lists,
 * or null. A name in another script (`bücher.example`) is given as URLs carry it, in punycode.
 */
function hostName(h: string): string | null {
  if (/^https?:\/\//i.test(h)) return isHttpUrl(h) ? h : null;
  if (!URL.canParse(`http://${h}/`)) return null;
  const host = new URL(`http://${h}/`).host;
  const ascii = /[^\x00-\x7f]/.test(h) ? h.replace(/^[^:]+/, (name) => domainToASCII(name)) : h;
  return host === ascii.toLowerCase().replace(/:80$/, '') ? (ascii === h ? h : host) : null;
}

/** The first seed longer than maxUrlLength, named; checked after the file, the flags and the defaults are merged. */
export function checkSeedLengths(config: Pick<CrawlConfig, 'seeds' | 'maxUrlLength'>): void {
  const long = config.seeds.find((s) => s.length > config.maxUrlLength);
  if (long) throw new FocusCrawlError('USAGE', `seed '${long.slice(0, 60)}…' is ${long.length} characters, longer than maxUrlLength (${config.maxUrlLength}; --max-url-length)`);
}

/** Retries past this are refused when a crawl starts: each waits twice the last, so the hundredth would wait for ever. */
export const MAX_RETRIES = 100;

/**
 * Settings a crawl may not start with, though a stored crawl that holds them still resumes (they
 * were accepted before these checks, and a resume cannot change them): an empty User-Agent, which
 * many sites refuse or take for a script gone wrong, and retries without end.
 */
export function checkNewSettings(config: Pick<CrawlConfig, 'userAgent' | 'retries'>): void {
  if (!/\S/.test(config.userAgent)) throw new FocusCrawlError('CONFIG', "crawl option 'userAgent' (--user-agent): is empty or only spaces: a crawler names itself, and how to reach whoever runs it");
  if (config.retries > MAX_RETRIES) throw new FocusCrawlError('CONFIG', `crawl option 'retries': must be at most ${MAX_RETRIES} (each retry waits twice as long as the last)`);
}

export type CrawlConfigInput = z.input<typeof crawlConfigSchema>;
export type CrawlConfig = z.output<typeof crawlConfigSchema>;

/**
 * Flags that are no crawl option, so no config key: where a crawl runs and how this command
 * treats it. A config file holds what the crawl is; the same file serves every worker.
 */
const FLAGS_ONLY: Readonly<Record<string, string>> = {
  redis: '--redis, or FOCUSCRAWL_REDIS',
  pg: '--pg, or FOCUSCRAWL_PG',
  name: '--name',
  seedOnly: '--seed-only',
  metricsPort: '--metrics-port',
  force: '--force',
  config: '--config',
  seedsFile: '--seeds-file; a config file lists its seeds under seeds:',
};

/** Reads a config file; the file paths in it (topic, db, record, replay) are resolved against the file's folder. */
export function loadCrawlConfigFile(file: string): Partial<CrawlConfig> {
  // The strategy is checked with the file's other fields, so its error names the file and line: the crawl's own check knows only the name.
  const schema = crawlConfigSchema.partial().superRefine((c, ctx) => {
    // checkNewSettings' two rules, at the file's line (the crawl's own check names no file).
    if (typeof c.retries === 'number' && c.retries > MAX_RETRIES) ctx.addIssue({ code: 'custom', path: ['retries'], message: `must be at most ${MAX_RETRIES} (each retry waits twice as long as the last)` });
    if (typeof c.userAgent === 'string' && !/\S/.test(c.userAgent)) ctx.addIssue({ code: 'custom', path: ['userAgent'], message: 'is empty or only spaces: a crawler names itself, and how to reach whoever runs it' });
    if (typeof c.strategy === 'string' && !strategyNames().includes(c.strategy)) {
      ctx.addIssue({ code: 'custom', path: ['strategy'], message: `unknown strategy '${c.strategy}'${didYouMean(c.strategy, strategyNames()) || ` (${strategyNames().join(', ')})`}` });
    } else if (typeof c.strategy === 'string' && c.strategyOptions) {
      // The file's strategy with the file's options: named at the option's line.
      const problem = strategyOptionProblem(c.strategy, c.strategyOptions);
      if (problem) ctx.addIssue({ code: 'custom', path: ['strategyOptions', ...problem.option.split('.')], message: `${c.strategy} ${problem.message}` });
    }
  });
  let held: string[] = [];
  const cfg = loadFile(file, schema, 'config', undefined, FLAGS_ONLY, (keys) => (held = keys)) as Partial<CrawlConfig>;
  // .partial() still fills in every default, and a default read as the file's own value would
  // hide what a preset sets (wms's depth 5) and what the restart note calls "not given": only
  // the keys the file holds are kept.
  for (const key of Object.keys(cfg)) if (!held.includes(key)) delete (cfg as Record<string, unknown>)[key];
  // Every file a config file names is found beside it, wherever the crawl is started from.
  for (const key of ['topic', 'db', 'record', 'replay'] as const) {
    const v = cfg[key];
    if (typeof v === 'string') (cfg as Record<string, unknown>)[key] = resolve(dirname(file), v);
  }
  return cfg;
}
