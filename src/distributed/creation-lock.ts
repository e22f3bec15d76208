import pg from 'pg';
import { libpqSemantics } from '../store/pg-connect.js';
import { pgSchema, type SharedTarget } from './shared-target.js';
import { crawlSchemaExists } from '../store/pg-table-exists.js';

/**
 * Serialises the creation of a named crawl: two `crawl --name` started together would otherwise
 * both read "no config", and the last to write its config would win while both seeded. Held
 * from before the schema is made until the config is written (a session advisory lock on its own
 * connection, on a key apart from the schema migration's). A creation refused on the way (a
 * topic, Redis holding another crawl's keys) drops the schema it made, so that the commands that
 * read the crawl do not find half of one.
 */
export class CreationLock {
  #done = false;
  private constructor(private readonly client: pg.Client | null, private readonly schema: string, private readonly existed: boolean) {}

  static async take(target: SharedTarget): Promise<CreationLock> {
    const schema = pgSchema(target.name);
    const client = new pg.Client({ connectionString: libpqSemantics(target.pg), application_name: 'focuscrawl create', connectionTimeoutMillis: 5000 });
    client.on('error', () => {}); // a lost connection surfaces through the store's own, which says so
    try {
      await client.connect();
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [`create ${schema}`]);
      return new CreationLock(client, schema, await crawlSchemaExists(client, schema));
    } catch {
      // The store's connection, made next, names PostgreSQL and why; creation goes on unserialised.
      await client.end().catch(() => {});
      return new CreationLock(null, schema, true);
    }
  }

  /** Lets the next creation go; `failed`: drop the schema when this creation made it. */
  async release(failed: boolean): Promise<void> {
    if (this.#done || !this.client) return;
    this.#done = true;
    try {
      if (failed && !this.existed) await this.client.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
      await this.client.query('SELECT pg_advisory_unlock(hashtext($1))', [`create ${this.schema}`]);
    } catch {
      // The session's end lets the lock go too.
    } finally {
      await this.client.end().catch(() => {});
    }
  }
}
