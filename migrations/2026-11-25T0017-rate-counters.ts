import { type Kysely, sql } from 'kysely';

/**
 * Fixed-window counters shared by every process on the database: the sign-in throttle and the per-address
 * limits (src/modules/limits/database-counter-store.ts, decision 0017). Times are milliseconds since the
 * epoch, not ISO text, because the one statement that counts compares and adds them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE rate_counters (
    key TEXT PRIMARY KEY NOT NULL CHECK (length(key) BETWEEN 1 AND 600),
    count INTEGER NOT NULL CHECK (count >= 0),
    reset_at INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    announced_window INTEGER NOT NULL DEFAULT 0
  ) STRICT`.execute(db);
  // The prune deletes by window end.
  await sql`CREATE INDEX rate_counters_reset_at ON rate_counters (reset_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rate_counters`.execute(db);
}
