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
  return {
    prepare(sql: string): SqliteStatement {
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
