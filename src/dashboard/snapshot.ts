import type { FrontierCounts } from '../frontier/frontier.js';
import type { HarvestPoint, HostSummary, PageSummary, PathStep } from '../store/crawl-reader.js';

/** A service as the map and its table show it: the extents are WGS 84 [west, south, east, north]. */
export interface ServiceOnMap {
  endpoint: string;
  type: string;
  status: string;
  title: string | null;
  extents: [number, number, number, number][];
}

/** A page in the dashboard's lists: its scores, the way the crawl reached it, and its label. */
export interface ListedPage extends PageSummary {
  snippet?: string;
  path: PathStep[];
  label: boolean | null;
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
  hosts: HostSummary[];
  services: ServiceOnMap[];
  relevantPages: ListedPage[];
  labels: { relevant: number; notRelevant: number };
}
