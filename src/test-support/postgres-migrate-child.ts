import { migrateToLatest } from '../db/migrate.js';
import { openPostgres } from '../db/postgres/connect-postgres.js';

/** A store process's start-up migration on PostgreSQL, alone in its own process; prints what it applied. */
const url = process.argv[2];
if (!url) throw new Error('usage: postgres-migrate-child <database url>');
const handle = openPostgres(url, 2);
try {
  const result = await migrateToLatest(handle.db, 'postgres');
  console.log(JSON.stringify((result.results ?? []).map((r) => r.migrationName)));
} finally {
  await handle.close();
}
