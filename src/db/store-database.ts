import type { Config } from '../config.js';
import { databaseFile, openDatabase } from './connect.js';
import type { Db } from './database.js';
import { migrateToLatest } from './migrate.js';
import { openPostgres } from './postgres/connect-postgres.js';
import { watchRevision } from './postgres/revision-watch.js';
import { type RevisionReader, revisionReader } from './store-revision.js';

/** The store's database, migrated, with the storefront revision its caches read. */
export type StoreDatabase = {
  db: Db;
  revision: RevisionReader;
  close(): Promise<void>;
};

/** The database the configuration names: PostgreSQL with DATABASE_URL, else the data folder's SQLite file. */
export function openStoreDatabase(config: Pick<Config, 'database' | 'dataDir'>): Promise<StoreDatabase> {
  return config.database.kind === 'postgres'
    ? openPostgresStore(config.database.url, config.database.poolSize)
    : openSqliteStore(databaseFile(config.dataDir));
}

/** The embedded store: one file, migrated, with the revision read on its read-only connection. */
export async function openSqliteStore(file: string): Promise<StoreDatabase> {
  const handle = openDatabase(file);
  try {
    await migrateToLatest(handle.db);
    return { db: handle.db, revision: revisionReader(handle.reader), close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A PostgreSQL store: the pool, the migrations, and the revision followed by LISTEN/NOTIFY. */

export async function openPostgresStore(
  url: string,
  poolSize: number,
  opts: { lockWaitMs?: number } = {},
): Promise<StoreDatabase> {
  // Migrated on a connection of its own that waits as long as it takes: a process starting beside one that
  // is migrating waits for the migration lock rather than give up after the store's lock wait.
  const migrating = openPostgres(url, 1, { lockWaitMs: 0 });
  try {
    await migrateToLatest(migrating.db, 'postgres');
  } finally {
    await migrating.close();
  }
  const handle = openPostgres(url, poolSize, opts);
  try {
    const watch = await watchRevision(handle.pool, { url, writes: handle.writes });
    return {
      db: handle.db,
      revision: watch.read,
      async close() {
        await watch.stop();
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
