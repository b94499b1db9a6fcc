import type { Db } from './database.js';
import { migrateToLatest } from './migrate.js';
import { openPostgres } from './postgres/connect-postgres.js';
import { watchRevision } from './postgres/revision-watch.js';
import type { RevisionReader } from './store-revision.js';

/** The store's database, migrated, with the storefront revision its caches read. */
export type StoreDatabase = {
  db: Db;
  revision: RevisionReader;
  close(): Promise<void>;
};

/**
 * A PostgreSQL store: the pool, the migrations, and the revision followed by LISTEN/NOTIFY. The tests run on
 * it today (TEST_DATABASE=postgres); main.ts will, once the whole suite passes there (decision 0015).
 */

export async function openPostgresStore(url: string, poolSize: number): Promise<StoreDatabase> {
  const handle = openPostgres(url, poolSize);
  try {
    await migrateToLatest(handle.db, 'postgres');
    const watch = await watchRevision(handle.pool, { url });
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
