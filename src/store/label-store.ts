/**
 * Where the dashboard's label button writes: one label per page URL, the newest replacing the
 * last. Kept apart from the Store and CrawlReader because it is the only write a reading process
 * (serve) makes, and it must work while a crawl holds the database.
 */
export interface LabelStore {
  label(url: string, relevant: boolean): Promise<void>;
  close(): Promise<void>;
}
