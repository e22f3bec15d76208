import { pgHostPolitenessTable } from './pg-politeness-store.js';
import { pgLabelsTable } from './pg-label-store.js';

/**
 * The PostgreSQL record of one shared crawl, in its own schema (fc_<name>): every URL the crawl
 * admitted with its state and carried state (what `rebuild` recreates the live frontier from),
 * the pages with their full-text index, the crawl log and the service registry.
 * Fingerprints are the signed 64-bit form (bigint), as in the SQLite file.
 */
/**
 * 2: the search text folds Latin diacritics. 3: the tsvector is written by the store
 * (pgTsvector) instead of generated from a stored search text, which is gone. 4: urls.kind may
 * hold {"redirected": n}, which a version 3 reader would take for a service probe (nothing to
 * convert). 5: the tsvector reads traditional Chinese as simplified (fold-chinese.ts); the pages
 * with traditional characters get theirs again. A store opening version 1 to 4 brings it to 5 (PgStore).
 */
export const PG_SCHEMA_VERSION = 5;

// The politeness and label tables were made on first use until 2026-11-29: four workers starting
// together raced to create host_politeness ("type already exists"). Made here, under the store's
// lock, a crawl has them from its start; an older crawl gets them when a worker next opens it.

export function pgSchemaSql(s: string): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.meta (key text PRIMARY KEY, value text NOT NULL);
-- 0 waiting (or leased: leases live in Redis), 2 done, 3 error, 4 discarded.
CREATE TABLE IF NOT EXISTS ${s}.urls (
  fp bigint PRIMARY KEY,
  url text NOT NULL,
  host text NOT NULL,
  depth integer NOT NULL,
  parent bigint,
  anchor text NOT NULL,
  priority double precision NOT NULL,
  data jsonb,
  state smallint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  reason text,
  -- A service probe, {"sitemap": ...} or {"redirected": n}; null for a page found as a link (request-kind.ts).
  kind jsonb
);
CREATE INDEX IF NOT EXISTS urls_open ON ${s}.urls (fp) WHERE state < 2;
CREATE TABLE IF NOT EXISTS ${s}.pages (
  fp bigint PRIMARY KEY,
  url text NOT NULL,
  final_url text NOT NULL,
  status integer NOT NULL,
  content_type text NOT NULL,
  headers jsonb NOT NULL,
  redirects jsonb NOT NULL,
  fetched_at text NOT NULL,
  fetch_ms real NOT NULL,
  bytes integer NOT NULL,
  encoding text,
  title text,
  text text,
  canonical text,
  relevance double precision,
  noindex boolean NOT NULL,
  outlinks jsonb,
  -- Title and text with CJK runs as bigrams (cjk-bigrams.ts), the form the SQLite index uses,
  -- as the store built it (pgTsvector); null for a page that asked not to be indexed.
  tsv tsvector
);
CREATE INDEX IF NOT EXISTS pages_tsv ON ${s}.pages USING gin (tsv);
CREATE TABLE IF NOT EXISTS ${s}.crawl_log (
  seq bigserial PRIMARY KEY,
  fp bigint,
  url text NOT NULL,
  final_url text,
  state text NOT NULL,
  status integer,
  depth integer NOT NULL,
  parent text,
  anchor text NOT NULL,
  title text,
  relevance double precision,
  priority double precision NOT NULL,
  fetched_at text,
  error text
);
CREATE TABLE IF NOT EXISTS ${s}.services (
  endpoint text NOT NULL,
  type text NOT NULL,
  status text NOT NULL,
  reason text,
  version text,
  versions jsonb NOT NULL,
  title text,
  abstract text,
  keywords jsonb NOT NULL,
  provider text,
  layers jsonb NOT NULL,
  conformance jsonb NOT NULL,
  probed_url text NOT NULL,
  checked_at text NOT NULL,
  PRIMARY KEY (endpoint, type)
);
CREATE TABLE IF NOT EXISTS ${s}.service_sources (
  endpoint text NOT NULL,
  type text NOT NULL,
  page text NOT NULL,
  PRIMARY KEY (endpoint, type, page)
);
${pgHostPolitenessTable(s)};
${pgLabelsTable(s)};
`;
}
