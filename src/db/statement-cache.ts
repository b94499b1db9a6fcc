import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * The database as Kysely sees it, with each SQL text prepared once and reused. Kysely prepares every query
 * anew; preparing (parsing and planning) costs tens of microseconds for the catalogue's queries. Reuse is
 * safe because Kysely runs one query at a time on this connection, start to finish, under its own lock
 * (and nothing here streams); SQLite re-prepares a reused statement by itself after a schema change.
 * Bounded, least recently used first out: `IN (?, ?, …)` lists make a new text per length.
 */
export function withStatementCache(sqlite: SQLite.Database, maxStatements = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  const rollback = sqlite.prepare('rollback');
  // After SQLITE_FULL, SQLITE_IOERR or SQLITE_NOMEM, SQLite has already rolled the transaction back; Kysely's
  // own rollback would then fail with "no transaction is active" and that error would replace the real one
  // (a full disk would read as an unknown failure). Rolling back only what is still open keeps the cause.
  const safeRollback: SqliteStatement = {
    reader: false,
    all: () => [],
    run: () => (sqlite.inTransaction ? rollback.run() : { changes: 0, lastInsertRowid: 0 }),
    iterate: () => [][Symbol.iterator](),
  };
  return {
    prepare(sql: string): SqliteStatement {
      if (sql === 'rollback') return safeRollback;
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= maxStatements) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
