import { type Kysely, sql } from 'kysely';

/**
 * As migrations/2026-11-25T0017-rate-counters.ts. The times stay bigint milliseconds (not timestamptz) on
 * PostgreSQL too: the counting statement adds and compares them alike on both engines.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE rate_counters (
    key text PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 600),
    count integer NOT NULL CHECK (count >= 0),
    reset_at bigint NOT NULL,
    last_at bigint NOT NULL,
    announced_window bigint NOT NULL DEFAULT 0
  )`.execute(db);
  await sql`CREATE INDEX rate_counters_reset_at ON rate_counters (reset_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rate_counters`.execute(db);
}
