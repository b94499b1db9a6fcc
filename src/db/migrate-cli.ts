import { loadConfig } from '../config.js';
import { databaseFile, openDatabase } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { openPostgres } from './postgres/connect-postgres.js';

/** `npm run db:migrate`: the SQLite file under DATA_DIR, or the PostgreSQL database DATABASE_URL names. */
const config = loadConfig();
const handle =
  config.database.kind === 'postgres'
    ? openPostgres(config.database.url, 2)
    : openDatabase(databaseFile(config.dataDir));
try {
  const result = await migrateToLatest(handle.db, config.database.kind);
  const applied = result.results ?? [];
  if (applied.length === 0) console.log('Database is up to date.');
  for (const r of applied) console.log(`${r.status}: ${r.migrationName}`);
} finally {
  await handle.close();
}
