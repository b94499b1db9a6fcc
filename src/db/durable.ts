import { sql, type Transaction } from 'kysely';
import type { Database, Db } from './database.js';
import { engineOf } from './engine-sql.js';

/** SQLite's numeric synchronous levels (PRAGMA synchronous answers with these). */
const FULL = 2;

/**
 * Runs `fn` in a transaction that commits with synchronous=FULL: the WAL is fsynced at COMMIT, so once it
 * returns, a power cut cannot take the write back. The connection's usual level (NORMAL) is put back after.
 *
 * Why it holds the whole connection: SQLite refuses to change the level inside a transaction, and the one
 * write connection is shared by async Kysely code, so another request's transaction may be open at any await.
 * In a `db.connection()` scope the first statement that is not a plain read (the PRAGMA below) takes the
 * write connection for the rest of the scope (db/store-dialect.ts), so nothing else writes on it between
 * the set, the transaction and the reset (other writes queue, as they would behind any transaction).
 *
 * Inside `fn`, use only `trx`: a write on the outer `db` would wait for the lock this call holds, until the
 * lock budget runs out.
 */
export async function durableTransaction<T>(
  db: Db,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  // PostgreSQL's commits are durable already (synchronous_commit is on unless the server says otherwise).
  if (engineOf(db) === 'postgres') return db.transaction().execute(fn);
  return db.connection().execute(async (conn) => {
    const before = await synchronousLevel(conn);
    // Never lower a level that is already at least FULL (EXTRA = 3).
    if (before < FULL) await sql`PRAGMA synchronous = FULL`.execute(conn);
    try {
      return await conn.transaction().execute(fn);
    } finally {
      if (before < FULL) await sql.raw(`PRAGMA synchronous = ${before}`).execute(conn);
    }
  });
}

/**
 * The level in force on the write connection (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA). A PRAGMA, not
 * `SELECT … FROM pragma_synchronous()`: a SELECT outside a write is answered by the read-only connection,
 * whose level is not the one commits use.
 */
export async function synchronousLevel(db: Db): Promise<number> {
  const result = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db);
  return Number(result.rows[0]?.synchronous ?? 1);
}
