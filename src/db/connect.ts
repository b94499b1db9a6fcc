import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { prepareDatabaseFile } from '../storage/private-files.js';
import type { Database } from './database.js';
import { rememberDatabaseSource } from './database-source.js';
import { registerSqlFunctions } from './sql-functions.js';
import { StoreDialect } from './store-dialect.js';

export type DatabaseHandle = {
  db: Kysely<Database>;
  /** The write connection (Kysely's transactions and writes run here). */
  sqlite: SQLite.Database;
  /** A read-only connection on the same file, for reads that must see only committed data. */
  reader: SQLite.Database;
  /** How long a write waits for the write lock before it fails as busy (ms); tests shorten it. */
  lockWait: { ms: number };
  close(): Promise<void>;
};

/** A write waits this long for another writer (this process's or another's) before answering 503. */
export const LOCK_WAIT_MS = 5000;

/**
 * Opens the store's SQLite file with the settings every connection needs: WAL so readers never wait for the
 * writer, foreign keys enforced, and LOCK_WAIT_MS for a write to wait for the lock while a second process
 * (CLI, backup) holds it. The waiting is done by the driver (db/store-dialect.ts), asynchronously: SQLite's
 * own busy_timeout would sleep on the event loop, so it is 0 on both connections.
 */
export function openDatabase(file: string): DatabaseHandle {
  // Created 0600 (its -wal and -shm follow) in a 0700 folder: it holds customer data.
  if (file !== ':memory:') prepareDatabaseFile(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 0');
  sqlite.pragma('synchronous = NORMAL');
  registerSqlFunctions(sqlite);
  // Opened after the writer made the file WAL; an in-memory database has no second connection.
  const reader = file === ':memory:' ? null : new SQLite(file, { readonly: true, fileMustExist: true });
  reader?.pragma('busy_timeout = 0');
  if (reader) registerSqlFunctions(reader);
  const lockWait = { ms: LOCK_WAIT_MS };
  const db = new Kysely<Database>({ dialect: new StoreDialect({ writer: sqlite, reader, lockWait }) });
  // A worker thread can open the file too (facet snapshot loads); an in-memory database it cannot reach.
  if (file !== ':memory:') rememberDatabaseSource(db, { engine: 'sqlite', file: path.resolve(file) });
  let closed = false;
  return {
    db,
    sqlite,
    reader: reader ?? sqlite,
    lockWait,
    async close() {
      if (closed) return;
      closed = true;
      // Kysely's destroy closes both handles through the driver, but only if a query ever started it; a
      // handle that only ran raw statements is closed here (the reader first, so the writer, closing last,
      // checkpoints and removes the -wal file).
      await db.destroy();
      if (reader?.open) reader.close();
      if (sqlite.open) sqlite.close();
    },
  };
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, 'store.db');
}
