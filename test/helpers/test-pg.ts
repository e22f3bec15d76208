/**
 * The real PostgreSQL the integration tests use (127.0.0.1:5432, trust auth, database `test`; CI
 * starts it). Nothing is skipped when it is down: the tests that need it fail naming it.
 */
export const PG_URL = process.env.FOCUSCRAWL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
