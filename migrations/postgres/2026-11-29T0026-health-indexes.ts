import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * As migrations/2026-11-29T0037-health-indexes.ts (decision 0041 "Speed"): the columns only read carried
 * with INCLUDE for index-only scans. PostgreSQL's planner picks between the two vitals indexes itself: the
 * value walk for a long period, the period's range sorted for a short one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX web_vitals_metric_value ON web_vitals (metric, value) INCLUDE (time)`.execute(db);
  await sql`CREATE INDEX web_vitals_metric_time ON web_vitals (metric, time) INCLUDE (value)`.execute(db);
  await sql`DROP INDEX IF EXISTS web_vitals_time_metric`.execute(db);
  await sql`CREATE INDEX logs_level_time ON logs (level, time) INCLUDE (repeat_count)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS logs_level_time`.execute(db);
  await sql`CREATE INDEX web_vitals_time_metric ON web_vitals (time) INCLUDE (metric, value)`.execute(db);
  await sql`DROP INDEX IF EXISTS web_vitals_metric_time`.execute(db);
  await sql`DROP INDEX IF EXISTS web_vitals_metric_value`.execute(db);
}
