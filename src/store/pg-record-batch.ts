import type pg from 'pg';
import type { CrawlRequest } from '../types.js';
import { keyToBigInt } from '../seen/fingerprint.js';
import { pgQuery } from './pg-connect.js';
import { pgTsvector } from './pg-text-query.js';
import { BY_STRATEGY, THROUGH_REDIRECT, TOO_DEEP } from '../frontier/frontier.js';
import { kindJson } from '../frontier/request-kind.js';
import type { NewLogEntry, PageRecord, UrlCommit } from './store.js';

/**
 * The statement of PgStore's group writer: one batch of the crawl's record (URLs admitted and
 * raised, URL ends with their pages) as one statement. recordBatchParams flattens the batch on
 * the crawl thread; writeRecordParams completes and sends it in PgStore's writer thread (or
 * inline), so it takes only what a thread can be handed: flat parameters, a pool, names.
 */

/** One write of the crawl's record, as the group writer carries it. */
export type RecordWrite =
  | { commit: UrlCommit }
  | { admit: CrawlRequest; state: 'waiting' | 'discarded'; reason: string | null }
  | { raise: CrawlRequest };

export const keyOfWrite = (w: RecordWrite): string | null => ('commit' in w ? w.commit.key : 'admit' in w ? w.admit.key : w.raise.key);

export const STATE = { waiting: 0, done: 2, error: 3, discarded: 4 } as const;
export const fp = (key: string) => keyToBigInt(key).toString();
/**
 * A batch in fingerprint order: two workers inserting overlapping batches then lock rows in the
 * same order, where opposite orders deadlock (INSERT ... ON CONFLICT waits on the other's row).
 */
export const byFp = (reqs: CrawlRequest[]) => reqs.map((r) => [keyToBigInt(r.key), r] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, r]) => r);
/** The host[:port] of a URL, for a URL row the journal never wrote ('' if it cannot be parsed). */
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : '');
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** The kind column of a request (request-kind.ts, as SQLite's urls.probe). */
const kindOf = kindJson;

/**
 * A batch as the statement's parameters: flat arrays of strings, numbers, booleans and nulls,
 * JSON already encoded. It is built on the crawl thread, because structured cloning flat arrays
 * to the writer thread costs far less than cloning the nested records (headers, links, carried
 * state): bench/distributed/cpu-per-page's profile showed postMessage at about 70 us a page.
 * The tsvectors, the costly part, are left to writeRecordParams (in the writer thread).
 */
export type RecordParams = unknown[];

/** Parameters by position (0-based: $39 is 38): the tsvectors (filled by writeRecordParams), and the pages' columns they are built from. */
const TITLE = 32; // $33
const TEXT = 33; // $34
const NOINDEX = 36; // $37
const TSV = 38; // $39
const PARAMS = 56;

/** The statement's parameters for one batch, the tsvectors left out (null). */
export function recordBatchParams(batch: RecordWrite[]): RecordParams {
  const commits: UrlCommit[] = [];
  const admitted: { admit: CrawlRequest; state: 'waiting' | 'discarded'; reason: string | null }[] = [];
  const raisedReqs: CrawlRequest[] = [];
  for (const w of batch) {
    if ('commit' in w) commits.push(w.commit);
    else if ('admit' in w) admitted.push(w);
    else raisedReqs.push(w.raise);
  }
  // In fingerprint order: two workers inserting overlapping batches then lock rows in the same order.
  const adm = admitted.map((a) => [keyToBigInt(a.admit.key), a] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, a]) => a);
  const ad = adm.map((a) => a.admit);
  const rz = byFp(raisedReqs);
  const log = commits.map((c) => c.entry);
  const keyed = commits.filter((c) => c.key !== null);
  const pages = commits.map((c) => c.page).filter((p): p is PageRecord => p !== null);
  const col = <K extends keyof NewLogEntry>(k: K) => log.map((e) => e[k]);
  const params: unknown[] = [
    commits.map((c) => (c.key === null ? null : fp(c.key))), col('url'), col('final_url'), col('state'), col('status'), col('depth'), col('parent'), col('anchor'),
    col('title'), col('relevance'), col('priority'), col('fetched_at'), col('error'),
    keyed.map((c) => fp(c.key!)), keyed.map((c) => c.entry.url), keyed.map((c) => hostOf(c.entry.url)), keyed.map((c) => c.entry.depth), keyed.map((c) => c.entry.anchor),
    keyed.map((c) => c.entry.priority), keyed.map((c) => STATE[c.entry.state]), keyed.map((c) => (c.entry.state === 'done' ? null : c.entry.error)),
    pages.map((p) => fp(p.key)), pages.map((p) => p.url), pages.map((p) => p.finalUrl), pages.map((p) => p.status), pages.map((p) => p.contentType),
    pages.map((p) => JSON.stringify(p.headers)), pages.map((p) => JSON.stringify(p.redirects)), pages.map((p) => p.fetchedAt), pages.map((p) => p.fetchMs), pages.map((p) => p.bytes),
    pages.map((p) => p.encoding), pages.map((p) => p.title), pages.map((p) => p.text), pages.map((p) => p.canonical), pages.map((p) => p.relevance), pages.map((p) => p.noindex),
    pages.map((p) => JSON.stringify(p.outlinks.map((l) => (l.nofollow ? [l.url, l.anchor, 1] : [l.url, l.anchor])))),
    null,
    ad.map((r) => fp(r.key)), ad.map((r) => r.url), ad.map((r) => r.host), ad.map((r) => r.depth), ad.map((r) => (r.parent === null ? null : fp(r.parent))),
    ad.map((r) => r.anchor), ad.map((r) => r.priority), ad.map((r) => json(r.data)), ad.map(kindOf), adm.map((a) => STATE[a.state]), adm.map((a) => a.reason),
    rz.map((r) => fp(r.key)), rz.map((r) => r.priority), rz.map((r) => r.depth), rz.map((r) => (r.parent === null ? null : fp(r.parent))), rz.map((r) => r.anchor), rz.map((r) => json(r.data)),
  ];
  // The positions above and the statement's $n must move together.
  if (params.length !== PARAMS) throw new Error(`recordBatchParams: ${params.length} parameters, the statement takes ${PARAMS}`);
  return params;
}

/**
 * Writes one batch (recordBatchParams) as one statement (data-modifying CTEs over unnest arrays),
 * atomic for the whole batch, prepared under `name` on each connection; a lost connection is
 * retried after each of `delays` (pgQuery).
 */
export async function writeRecordParams(pool: pg.Pool, s: string, params: RecordParams, delays: readonly number[], name: string): Promise<void> {
  const titles = params[TITLE] as (string | null)[];
  const texts = params[TEXT] as (string | null)[];
  const noindex = params[NOINDEX] as boolean[];
  params[TSV] = titles.map((t, i) => (noindex[i] || (!t && !texts[i]) ? null : pgTsvector(t, texts[i] ?? null)));
  // A done URL stays done: a late redelivery (its lease had expired while the first worker
  // stored the page) neither marks a stored page as an error nor logs the URL a second time.
  // Every part of the statement sees the table as it was before it, so a URL done by an
  // earlier commit is skipped here. No key occurs twice in a batch (GroupWriter keyOf), so no
  // two parts touch one row. The text is the same for every batch: a prepared statement.
  const sql = `WITH a AS (INSERT INTO ${s}.urls(fp, url, host, depth, parent, anchor, priority, data, kind, state, reason)
      SELECT f, u, h, d, p, a, pr, dt::jsonb, k::jsonb, st, rs FROM unnest($40::bigint[], $41::text[], $42::text[], $43::int[], $44::bigint[], $45::text[], $46::float8[],
        $47::text[], $48::text[], $49::smallint[], $50::text[]) AS t(f, u, h, d, p, a, pr, dt, k, st, rs)
      ON CONFLICT (fp) DO UPDATE SET depth = excluded.depth, parent = excluded.parent, anchor = excluded.anchor, priority = excluded.priority, data = excluded.data,
        kind = excluded.kind, state = excluded.state, reason = excluded.reason
        WHERE urls.state = ${STATE.discarded} AND (urls.reason LIKE '${TOO_DEEP}%' OR urls.reason LIKE '${BY_STRATEGY}%')
          AND (excluded.state = ${STATE.waiting} OR excluded.reason LIKE '${THROUGH_REDIRECT}%') RETURNING 1),
    rz AS (UPDATE ${s}.urls AS u SET priority = t.pr, depth = LEAST(u.depth, t.d), parent = t.p, anchor = t.a, data = t.dt::jsonb
      FROM unnest($51::bigint[], $52::float8[], $53::int[], $54::bigint[], $55::text[], $56::text[]) AS t(f, pr, d, p, a, dt)
      WHERE u.fp = t.f AND u.state = 0 AND u.priority < t.pr RETURNING 1),
    l AS (INSERT INTO ${s}.crawl_log(fp, url, final_url, state, status, depth, parent, anchor, title, relevance, priority, fetched_at, error)
      SELECT f, u, fu, st, stc, d, pa, a, t, r, pr, fa, e FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[],
        $9::text[], $10::float8[], $11::float8[], $12::text[], $13::text[]) WITH ORDINALITY AS x(f, u, fu, st, stc, d, pa, a, t, r, pr, fa, e, ord)
        WHERE f IS NULL OR NOT EXISTS (SELECT 1 FROM ${s}.urls done WHERE done.fp = x.f AND done.state = ${STATE.done}) ORDER BY ord RETURNING 1),
    u AS (INSERT INTO ${s}.urls(fp, url, host, depth, anchor, priority, state, reason)
      SELECT * FROM unnest($14::bigint[], $15::text[], $16::text[], $17::int[], $18::text[], $19::float8[], $20::smallint[], $21::text[])
      ON CONFLICT (fp) DO UPDATE SET state = excluded.state, reason = excluded.reason WHERE urls.state <> ${STATE.done} OR excluded.state = ${STATE.done} RETURNING 1),
    p AS (INSERT INTO ${s}.pages(fp, url, final_url, status, content_type, headers, redirects, fetched_at, fetch_ms, bytes, encoding, title, text, canonical, relevance, noindex, outlinks, tsv)
      SELECT f, u, fu, st, ct, h::jsonb, rd::jsonb, fa, fm, b, enc, t, tx, c, r, ni, o::jsonb, lower(srch)::tsvector FROM unnest($22::bigint[], $23::text[], $24::text[], $25::int[], $26::text[],
        $27::text[], $28::text[], $29::text[], $30::float8[], $31::int[], $32::text[], $33::text[], $34::text[], $35::text[], $36::float8[], $37::boolean[], $38::text[], $39::text[])
        AS x(f, u, fu, st, ct, h, rd, fa, fm, b, enc, t, tx, c, r, ni, o, srch)
      ON CONFLICT (fp) DO UPDATE SET url = excluded.url, final_url = excluded.final_url, status = excluded.status, content_type = excluded.content_type,
        headers = excluded.headers, redirects = excluded.redirects, fetched_at = excluded.fetched_at, fetch_ms = excluded.fetch_ms, bytes = excluded.bytes,
        encoding = excluded.encoding, title = excluded.title, text = excluded.text, canonical = excluded.canonical, relevance = excluded.relevance,
        noindex = excluded.noindex, outlinks = excluded.outlinks, tsv = excluded.tsv RETURNING 1)
    SELECT 1`;
  await pgQuery(pool, sql, params, delays, name);
}
