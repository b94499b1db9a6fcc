import type { DbOrTx } from './database.js';

/**
 * Where a store's database lives, so that a worker thread can open a connection of its own to it (a
 * connection cannot cross threads): the SQLite file, or PostgreSQL's connection string.
 */
export type DatabaseSource = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string };

const sources = new WeakMap<object, DatabaseSource>();

/** Called by openDatabase and openPostgres for the Kysely instance each hands out. */
export function rememberDatabaseSource(db: DbOrTx, source: DatabaseSource): void {
  sources.set(db, source);
}

/**
 * The database `db` was opened on; null for a transaction (another connection would not see its writes),
 * an in-memory SQLite database (no second connection can reach it) or any instance the store did not open.
 */
export function databaseSource(db: DbOrTx): DatabaseSource | null {
  return sources.get(db) ?? null;
}
