import type { Config } from '../config.js';
import { type DatabaseHandle, databaseFile, openDatabase } from './connect.js';
import type { Db } from './database.js';
import { migrateToLatest } from './migrate.js';
import { openPostgres } from './postgres/connect-postgres.js';
import { watchRevision } from './postgres/revision-watch.js';
import { type RevisionReader, revisionReader } from './store-revision.js';

/** The store's database on either engine, migrated, with the storefront revision its caches read. */
export type StoreDatabase = {
  engine: 'sqlite' | 'postgres';
  db: Db;
  revision: RevisionReader;
  /** What only SQLite has (its file, lock waits, read connection); null on PostgreSQL. */
  sqlite: DatabaseHandle | null;
  close(): Promise<void>;
};

export async function openStoreDatabase(
  database: Config['database'],
  dataDir: string,
): Promise<StoreDatabase> {
  if (database.kind === 'postgres') return openPostgresStore(database.url, database.poolSize);
  const handle = openDatabase(databaseFile(dataDir));
  await migrateToLatest(handle.db);
  return {
    engine: 'sqlite',
    db: handle.db,
    revision: revisionReader(handle.reader),
    sqlite: handle,
    close: () => handle.close(),
  };
}

export async function openPostgresStore(url: string, poolSize: number): Promise<StoreDatabase> {
  const handle = openPostgres(url, poolSize);
  try {
    await migrateToLatest(handle.db, 'postgres');
    const watch = await watchRevision(handle.pool, { url });
    return {
      engine: 'postgres',
      db: handle.db,
      revision: watch.read,
      sqlite: null,
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
