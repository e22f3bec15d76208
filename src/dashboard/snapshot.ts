import type { FrontierCounts } from '../frontier/frontier.js';
import type { HarvestPoint, HostSummary, PageSummary, PathStep, RecallPoint } from '../store/crawl-reader.js';

/** A service as the map and its table show it: the extents are WGS 84 [west, south, east, north]. */
export interface ServiceOnMap {
  endpoint: string;
  type: string;
  status: string;
  title: string | null;
  /** At most MAP_EXTENTS of its layers' extents: the map draws no more. */
  extents: [number, number, number, number][];
  /** Its layers with an extent, all of them. */
  extentCount: number;
}

/** A page in the dashboard's lists: its scores, the way the crawl reached it, and its label. */
export interface ListedPage extends PageSummary {
  snippet?: string;
  path: PathStep[];
  label: boolean | null;
}

/** Recall over pages fetched: of `total` target pages, how many were fetched by each harvest point. */
export interface RecallSeries {
  /** What the targets are: 'labelled relevant', or the ground-truth file's name. */
  source: string;
  total: number;
  points: RecallPoint[];
}

/**
 * Everything the dashboard shows, in one JSON document: the server pushes one a second over
 * server-sent events, and the static report embeds one. The front end imports this type only.
 */
export interface Snapshot {
  at: string;
  crawl: { label: string; topic: string | null; strategy: string | null; threshold: number | null; maxPages: number | null };
  state: { name: 'running' | 'waiting on politeness' | 'stopped' | 'exhausted' | 'not started'; detail: string };
  /** Fetches a second over the last seconds the server watched; null in a report or before two polls. */
  pagesPerSecond: number | null;
  urls: FrontierCounts;
  /** Waiting URLs by priority band, highest first. */
  waitingByPriority: { band: string; n: number }[];
  pages: number;
  relevant: number | null;
  errors: { error: string; n: number }[];
  discarded: Record<string, number>;
  sitemaps: { files: number; urls: number };
  harvest: HarvestPoint[];
  /**
   * Recall curves, present only when there are targets: the pages labelled relevant in the
   * dashboard, and the ground truth given with --truth.
   */
  recall: { labelled: RecallSeries | null; truth: RecallSeries | null };
  hosts: HostSummary[];
  /** The first SERVICES_SHOWN services, valid ones first (`focuscrawl services` lists all). */
  services: ServiceOnMap[];
  /** Services in the registry, all of them. */
  servicesTotal: number;
  relevantPages: ListedPage[];
  labels: { relevant: number; notRelevant: number };
}
