import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { LOCK_WAIT_MS } from '../connect.js';
import type { Database } from '../database.js';
import { rememberDatabaseSource } from '../database-source.js';
import { LocalWrites } from './local-writes.js';
import { textWithoutNul } from './text-without-nul.js';

/**
 * The driver hands the app the same shapes on PostgreSQL as on SQLite, so repositories read one kind of row
 * on both: the columns have their proper types in PostgreSQL (bigint, boolean, timestamptz, jsonb) and come
 * back as numbers, 0/1, ISO-8601 text and JSON text. Written values need no conversion: PostgreSQL reads
 * '1', an ISO string or JSON text into the column's type. See decision 0015.
 */
const { types } = pg;
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_BOOL = 16;
const PG_TIMESTAMPTZ = 1184;
const PG_JSONB = 3802;
const PG_JSON = 114;

function typeParsers(): pg.CustomTypesConfig {
  const parse = (oid: number, text: string): unknown => {
    switch (oid) {
      case PG_INT8: {
        const n = Number(text);
        // Row counts and ids stay far below 2^53; anything past it is a bug worth hearing about.
        if (!Number.isSafeInteger(n)) throw new Error(`bigint out of the safe integer range: ${text}`);
        return n;
      }
      case PG_NUMERIC:
        return Number(text);
      case PG_BOOL:
        return text === 't' ? 1 : 0;
      case PG_TIMESTAMPTZ:
        return new Date(text).toISOString();
      case PG_JSONB:
      case PG_JSON:
        return text;
      default:
        return types.getTypeParser(oid, 'text')(text);
    }
  };
  return {
    getTypeParser: ((oid: number) => (text: string) =>
      parse(oid, text)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * The name every store process gives its connections (pg_stat_activity.application_name), so that restore
 * and doctor can tell whether a store still uses the database. Tools name theirs apart (storefront-ops).
 * An application_name in DATABASE_URL takes precedence and hides the process from that check.
 */
export const STORE_APPLICATION_NAME = 'storefront';

export type PostgresHandle = {
  db: Kysely<Database>;
  pool: pg.Pool;
  /** When this process last wrote (for the revision watch's read-your-writes). */
  writes: LocalWrites;
  close(): Promise<void>;
};

/**
 * Opens a pool of `poolSize` connections; every session runs in UTC so dates read back alike everywhere.
 * A statement waits at most `lockWaitMs` for a lock another connection holds (0: as long as it takes),
 * then fails as busy (55P03), which the store answers with 503 "try again" as it does for SQLite's lock:
 * without it, a request would hang for as long as an operator's transaction stays open.
 */
export function openPostgres(
  url: string,
  poolSize: number,
  opts: { lockWaitMs?: number } = {},
): PostgresHandle {
  const writes = new LocalWrites();
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: typeParsers(),
    options: `-c TimeZone=UTC -c lock_timeout=${Math.max(0, Math.trunc(opts.lockWaitMs ?? LOCK_WAIT_MS))}`,
    application_name: STORE_APPLICATION_NAME,
    // A dead server is reported within seconds instead of hanging start-up.
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection the server drops (a restart, a failover, the database dropped) must not take the
  // process down: the pool discards it and opens another for the next query, which reports its own error.
  pool.on('error', () => undefined);
  // Nor one that is checked out (a transaction between statements, or a statement running): the pool
  // listens only to idle clients, and a client with no listener throws its 'error' event, which ends the
  // process. The statement running, or the next one, fails with the connection's error (a 503 to retry,
  // core/failures.ts); the client, no longer queryable, is discarded when it goes back to the pool.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [textWithoutNul, writes],
  });
  // A worker thread opens a connection of its own from the same string (facet snapshot loads).
  rememberDatabaseSource(db, { engine: 'postgres', url });
  let closed = false;
  return {
    db,
    pool,
    writes,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      // Kysely ends the pool only if it ran a query; the revision watch may have used it directly.
      if (!pool.ended) await pool.end();
    },
  };
}
