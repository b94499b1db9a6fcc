import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { LOCK_WAIT_MS } from './connect.js';
import type { Database } from './database.js';
import type { DatabaseSource } from './database-source.js';
import { openPostgres } from './postgres/connect-postgres.js';

/**
 * A connection for reading only, for a worker thread. SQLite: a read-only connection to the file (WAL: it
 * never waits for the writer and sees committed data only); it may wait for a lock synchronously, which the
 * main thread never does (decision 13), since that blocks only the worker. PostgreSQL: a single connection
 * from the same connection string, with the store's type parsers and lock wait.
 */
export function openReadOnlyConnection(source: DatabaseSource): {
  db: Kysely<Database>;
  close(): Promise<void>;
} {
  if (source.engine === 'postgres') {
    const handle = openPostgres(source.url, 1);
    return { db: handle.db, close: () => handle.close() };
  }
  const connection = new SQLite(source.file, { readonly: true, fileMustExist: true });
  connection.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  return {
    db,
    async close() {
      // Kysely closes the connection only if a query ever started its driver.
      await db.destroy();
      if (connection.open) connection.close();
    },
  };
}
