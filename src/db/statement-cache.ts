import type SQLite from 'better-sqlite3';

/** Prepares an SQL text on one connection, or hands back the statement prepared for it before. */
export type Prepare = (sql: string) => SQLite.Statement;

/**
 * Each SQL text prepared once per connection and reused. Kysely prepares every query anew; preparing
 * (parsing and planning) costs tens of microseconds for the catalogue's queries. Reuse is safe because the
 * store's driver (db/store-dialect.ts) runs one statement at a time on a connection, start to finish (and
 * nothing here streams across awaits); SQLite re-prepares a reused statement by itself after a schema change.
 * Bounded, least recently used first out: `IN (?, ?, …)` lists make a new text per length.
 */
export function statementCache(sqlite: SQLite.Database, maxStatements = 500): Prepare {
  const statements = new Map<string, SQLite.Statement>();
  return (sql) => {
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
  };
}
