import { loadConfig } from '../config.js';
import { databaseFile, openDatabase } from './connect.js';
import { migrateToLatest } from './migrate.js';

const config = loadConfig();
const handle = openDatabase(databaseFile(config.dataDir));
try {
  const result = await migrateToLatest(handle.db);
  const applied = result.results ?? [];
  if (applied.length === 0) console.log('Database is up to date.');
  for (const r of applied) console.log(`${r.status}: ${r.migrationName}`);
} finally {
  await handle.close();
}
