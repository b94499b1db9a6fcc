/**
 * The database a bench run measures: the embedded SQLite file in a data folder (the default), or, with
 * `--db postgres`, a throwaway database on the machine's PostgreSQL server (TEST_DATABASE_URL's server, else
 * 127.0.0.1:5432), dropped at the end. Each comes with what the store process and the bare baseline route
 * need to use the same database.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { databaseFile, openDatabase } from '../../src/db/connect.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres/connect-postgres.js';
import { createThrowawayDatabase } from '../../src/test-support/postgres.js';

export type BenchEngine = 'sqlite' | 'postgres';

export type BenchDatabase = {
  db: Kysely<Database>;
  /** Closes this process's connections (the store and the baseline open their own). */
  close(): Promise<void>;
  /** Variables that point the store process at this database. */
  serverEnv: Record<string, string>;
  /** What the baseline route reads from: the SQLite file or the PostgreSQL URL. */
  baselineTarget: string;
  /** Removes the database (a SQLite file goes with its data folder). */
  drop(): Promise<void>;
  /**
   * Brings the planner's statistics and the visibility map up to date after the bulk load, as autovacuum
   * does within a minute or so of it: without statistics PostgreSQL guessed 11 rows for a size held by
   * 70,000 products and chose nested loops that made a filtered search 5× slower. SQLite's run is left
   * as it has always been measured.
   */
  settle(): Promise<void>;
};

export async function openBenchDatabase(engine: BenchEngine, dataDir: string): Promise<BenchDatabase> {
  if (engine === 'sqlite') {
    const handle = openDatabase(databaseFile(dataDir));
    await migrateToLatest(handle.db);
    return {
      db: handle.db,
      close: () => handle.close(),
      serverEnv: {},
      baselineTarget: databaseFile(dataDir),
      drop: async () => {},
      settle: async () => {},
    };
  }
  const database = await createThrowawayDatabase('store_bench');
  const handle = openPostgres(database.url, 4, { lockWaitMs: 0 });
  await migrateToLatest(handle.db, 'postgres');
  return {
    db: handle.db,
    close: () => handle.close(),
    serverEnv: { DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('base64url') },
    baselineTarget: database.url,
    drop: () => database.drop(),
    settle: async () => void (await sql`VACUUM ANALYZE`.execute(handle.db)),
  };
}
