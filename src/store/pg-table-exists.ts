/** Anything that runs a statement: a pool, a client, or a reader's retried query. */
interface Queryable {
  query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Whether a table exists, named with its schema (`fc_solar.meta`); a schema that is missing is no error. */
export async function tableExists(db: Queryable, qualified: string): Promise<boolean> {
  const r = await db.query('SELECT to_regclass($1) IS NOT NULL AS ok', [qualified]);
  return (r.rows[0] as { ok: boolean }).ok;
}

/** Whether PostgreSQL holds a crawl in `schema`: its `meta` table, the first a crawl makes and the last it loses. */
export const crawlSchemaExists = (db: Queryable, schema: string): Promise<boolean> => tableExists(db, `${schema}.meta`);
