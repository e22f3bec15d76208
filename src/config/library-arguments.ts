import { FocusCrawlError } from '../errors.js';
import { compiledTopicProblem, loadTopicFile, topicFileSchema, type TopicFile, type TopicFileInput } from '../relevance/topic.js';
import { crawlConfigSchema, type CrawlConfigInput } from './crawl-config.js';
import { didYouMean, optionMessage, valueShown } from './option-issue.js';

/**
 * The checks of what library callers pass to startCrawl, resumeCrawl, startSharedCrawl and
 * openSharedWorker beside the options themselves: a misspelt part, a part given among the options,
 * a key set to undefined. Each was accepted in silence and changed the crawl in a way nobody asked.
 */

/** The crawl options' names, for the suggestion beside an unknown one. */
export const CRAWL_OPTION_NAMES: readonly string[] = Object.keys(crawlConfigSchema.shape);

/** The error of a crawl started with no seeds, the same for every kind of crawl. */
export const noSeeds = (): FocusCrawlError => new FocusCrawlError('CONFIG', 'no seed URLs: give them as arguments, or with --seeds URL... or --seeds-file FILE (the seeds option)');

/** The second (resume: third) argument's keys: a misspelt one (`forse: true`) was ignored in silence. */
export function checkParts(fn: string, parts: object | null | undefined, known: readonly string[], internal: readonly string[] = []): void {
  const unknown = Object.keys(parts ?? {}).find((k) => !known.includes(k) && !internal.includes(k));
  if (unknown !== undefined) throw new FocusCrawlError('CONFIG', `${fn} part '${unknown}': unknown${didYouMean(unknown, known)}; the parts are ${known.join(', ')}`);
}

/**
 * A strategy object given as a part, checked for the members the crawl calls: from JavaScript a
 * plain object missing one failed mid-crawl with a TypeError (`strategy.seed is not a function`).
 */
export function checkStrategyPart(fn: string, strategy: unknown): void {
  if (strategy === undefined) return;
  const s = strategy as Record<string, unknown> | null;
  const problem =
    typeof s !== 'object' || s === null || Array.isArray(s) ? `must be an object with name, topic, seed(url) and scoreLinks(view, links), not ${valueShown(s)}`
    : typeof s.name !== 'string' || s.name === '' ? 'has no name (a non-empty string)'
    : typeof s.seed !== 'function' ? 'has no seed(url) method'
    : typeof s.scoreLinks !== 'function' ? 'has no scoreLinks(view, links) method'
    : s.topic === undefined ? 'has no topic (null, or the Topic it scores with: the crawl gives it its own)'
    : null;
  if (problem) throw new FocusCrawlError('CONFIG', `${fn} part 'strategy' ${problem}`);
}

/** The keys the caller gave: one set to undefined is not given (it reset a stored value to its default). */
export function givenOnly<T extends object>(options: T | null | undefined): T {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([, v]) => v !== undefined)) as T;
}

/** A compiled Topic (loadTopic's) given as the topic option: the option takes a topic file's form. */
export function checkInlineTopic(input: CrawlConfigInput | null | undefined, where = ''): void {
  const compiled = compiledTopicProblem(input?.topic);
  if (compiled) throw new FocusCrawlError('CONFIG', `${where}crawl option 'topic' ${compiled}`);
}

/** startCrawl's options checked for what belongs in its second argument (where zod's words would not say so). */
export function checkStartOptions(input: CrawlConfigInput | null | undefined): void {
  // From JavaScript anything may come: name it instead of failing inside on a property of null.
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new FocusCrawlError('CONFIG', `startCrawl(options): options must be an object of crawl options ({ seeds: [...], ... }), not ${input === null ? 'null' : Array.isArray(input) ? 'a list' : typeof input}`);
  }
  const given = input as Record<string, unknown>;
  if ('force' in given) throw new FocusCrawlError('CONFIG', "crawl option 'force': not an option but a part, startCrawl(options, { force: true })");
  if (typeof given.strategy === 'object' && given.strategy !== null) throw new FocusCrawlError('CONFIG', "crawl option 'strategy': a strategy object is a part, startCrawl(options, { strategy }); the option names a built-in one");
  checkInlineTopic(input);
}

/**
 * Options resume does not take as overrides. Taken as they were, a topic replaced the crawl's
 * without `force` (null removed it and the strategy fell back to bfs), seeds were added under a
 * note that they had been lost, and a preset or a db was stored but never applied.
 */
const RESUME_FIXED = {
  topic: "a new topic is resumeCrawl's third argument, resumeCrawl(db, overrides, { topic }), where one different from the crawl's needs force: true",
  db: "the database is resumeCrawl's first argument",
  seeds: 'a crawl keeps the seeds it was started with: startCrawl on the same db adds seeds to it',
  preset: 'a preset applies when a crawl starts (startCrawl)',
} as const;

/**
 * What resumeCrawl's overrides may change: any crawl option but those a crawl is started with
 * (RESUME_FIXED says where each of those goes instead).
 */
export type ResumeOverrides = Partial<Omit<CrawlConfigInput, keyof typeof RESUME_FIXED>>;

/** The overrides the caller gave, checked on their own so that a bad one is named as the caller's, not as a fault of the stored config. */
export function resumeOverrides(overrides: ResumeOverrides | null | undefined): ResumeOverrides {
  const given = givenOnly(overrides);
  for (const key of Object.keys(given)) {
    if (Object.hasOwn(RESUME_FIXED, key)) throw new FocusCrawlError('CONFIG', `resume option '${key}': ${RESUME_FIXED[key as keyof typeof RESUME_FIXED]}`);
  }
  if ('force' in given) throw new FocusCrawlError('CONFIG', "resume option 'force': not an option but a part, resumeCrawl(db, overrides, { topic, force: true })");
  if (typeof given.strategy === 'object' && given.strategy !== null) throw new FocusCrawlError('CONFIG', "resume option 'strategy': a strategy object is a part, resumeCrawl(db, overrides, { strategy }); the option names a built-in one");
  // The check's output is not used: .partial() still fills in every default.
  const checked = crawlConfigSchema.partial().safeParse(given);
  if (!checked.success) throw new FocusCrawlError('CONFIG', optionMessage('resume option', checked.error, CRAWL_OPTION_NAMES));
  return given;
}

/** A topic given to resume: a file, or a topic inline (checked here, so that its fault is named as the caller's). */
export function resumeTopic(topic: string | TopicFileInput): TopicFile {
  if (typeof topic === 'string') return loadTopicFile(topic);
  const compiled = compiledTopicProblem(topic);
  if (compiled) throw new FocusCrawlError('CONFIG', `resume topic ${compiled}`);
  const parsed = topicFileSchema.safeParse(topic);
  if (!parsed.success) throw new FocusCrawlError('CONFIG', optionMessage('resume topic field', parsed.error, Object.keys(topicFileSchema.shape), topicFileSchema));
  return parsed.data;
}
