import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { prepareDatabaseFile } from '../ops/private-files.js';
import { foldForSearch, SEARCH_FOLD_SQL_FUNCTION } from '../shared/search-fold.js';
import type { Database } from './database.js';
import { withStatementCache } from './statement-cache.js';

export type DatabaseHandle = {
  db: Kysely<Database>;
  sqlite: SQLite.Database;
  close(): Promise<void>;
};

/**
 * Opens the store's SQLite file with the settings every connection needs: WAL so readers never wait for the
 * writer, foreign keys enforced, and a busy timeout so a second process (CLI, backup) waits instead of failing.
 */
export function openDatabase(file: string): DatabaseHandle {
  // Created 0600 (its -wal and -shm follow) in a 0700 folder: it holds customer data.
  if (file !== ':memory:') prepareDatabaseFile(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  registerSearchFold(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  let closed = false;
  return {
    db,
    sqlite,
    async close() {
      if (closed) return;
      closed = true;
      // Kysely's destroy closes the better-sqlite3 handle through the dialect, but only if a query ever
      // started its driver; a handle that only ran raw statements is closed here.
      await db.destroy();
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * The triggers that index products call search_fold() (migration 0011), so every connection that adds or
 * re-words a product needs it: without it such a write fails with "no such function", never indexes
 * unfolded text.
 */
export function registerSearchFold(sqlite: SQLite.Database): void {
  sqlite.function(SEARCH_FOLD_SQL_FUNCTION, { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? foldForSearch(text) : text,
  );
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, 'store.db');
}
