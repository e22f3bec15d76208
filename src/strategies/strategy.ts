import type { CarriedState, CrawlRequest, Link, Page } from '../types.js';
import type { FetchedRelevance } from '../store/crawl-reader.js';
import type { Topic } from '../relevance/topic.js';
import type { TopicProfile } from '../relevance/vsm-scorer.js';

/** What a strategy sees of a fetched page. */
export interface PageView {
  request: CrawlRequest;
  page: Page;
  /** rel(p) under the crawl's topic, or null when the crawl has no topic. */
  relevance: number | null;
  /** The page's topic terms behind rel(p), for strategies that weigh the terms their own way (absent: not computed). */
  profile?: TopicProfile | null;
}

/** Priority (higher is fetched earlier) and the state carried to the child. */
export interface LinkDecision {
  priority: number;
  data?: CarriedState | null;
}

/** A link of an earlier page offered again with a new priority (see Strategy.reoffers). */
export interface Reoffer {
  url: string;
  /** Depth, parent key and anchor of the link as the page that now vouches for it has it. */
  depth: number;
  parent: string;
  anchor: string;
  priority: number;
  data?: CarriedState | null;
}

/**
 * A crawl ordering. Pure: no I/O, no clock, no randomness that is not seeded; the same code runs
 * in the embedded crawler, a distributed worker and the offline benchmark.
 */
export interface Strategy {
  readonly name: string;
  /** The topic the strategy scores with, or null for topic-blind strategies. */
  readonly topic: Topic | null;
  /** Characters of text around each link the parser should keep as its context (0 or absent: none). */
  readonly linkContext?: number;
  /** Priority and state of a seed URL. */
  seed(url: string): LinkDecision;
  /**
   * Decides each link of a fetched page that passed scope, depth and dedup; returns one entry per
   * link in the same order: a decision, or null to discard the link (recorded as discarded by
   * the strategy and counted in the crawl's summary). The built-in strategies never discard the
   * links of seed pages (request.depth 0) for low priority: seeds are trusted. A strategy of your
   * own should do the same; the crawl keeps whatever it decides.
   */
  scoreLinks(view: PageView, links: readonly Link[]): (LinkDecision | null)[];
  /**
   * Links of pages scored earlier whose priority rose since the last call (two-step: a page's
   * score rose when more of its out-link pages were fetched). The crawl calls it after each
   * scoreLinks and offers them to the frontier, which raises those still waiting (the raise on
   * rediscovery; with rediscovery 'keep' they are dropped).
   */
  reoffers?(): Reoffer[];
  /**
   * A URL ended (done, an error, discarded when claimed) without scoreLinks for its page: an HTTP
   * error, a page that is no HTML, a nofollow page, a redirect to a page already seen or to
   * another host, robots.txt, a trap. Called once per such URL. A strategy waiting for that
   * page's relevance (two-step's look-ahead) stops waiting for it.
   */
  unscored?(request: CrawlRequest): void;
  /**
   * State the strategy learned during the crawl, as JSON, for strategies that learn; the crawl
   * stores it and hands it to restore() when it is resumed, so a resumed crawl behaves as one.
   */
  snapshot?(): unknown;
  /**
   * Pages a person labelled in the dashboard, with the state the strategy gave the link that led
   * to each (LinkDecision.data): a learning strategy trains on them when a crawl starts or resumes,
   * and on new or changed labels while it runs (LabelFeed, in the order they were given).
   */
  learnFromLabels?(labels: readonly { relevant: boolean; linkData: Record<string, unknown> | null }[]): number;
  restore?(state: unknown): void;
  /**
   * What the strategy learned from the pages it scored since the last call, as JSON records that
   * another copy of it can hear(): a shared crawl's workers each run their own copy and exchange
   * these, so that each learns from every worker's pages. The first call starts the recording
   * (an embedded crawl never calls it and keeps nothing) and returns none.
   */
  evidence?(): unknown[];
  /** Records another copy's evidence() gave: learned from as if this copy had scored those pages, without scoring their links. */
  hear?(records: readonly unknown[]): void;
  /**
   * The pages earlier runs of a resumed crawl stored, with their relevance (the URL asked for and
   * the one fetched after redirects): what a strategy knows of every fetched page is read back from
   * the store rather than kept in its snapshot, which the crawl writes every 30 s and which must
   * stay small (two-step's relevance of every page made it grow with the crawl).
   */
  restorePages?(pages: Iterable<FetchedRelevance>): void;
}
