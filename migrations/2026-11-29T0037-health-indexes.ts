import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

/**
 * Storefront health at any period's length (issue 44, decision 0041 "Speed"; storefront-health.ts).
 * - web_vitals_metric_value: one metric's samples in value order, time carried, so a long period's p75 walks
 *   the index and stops at the rank instead of sorting the period's samples (a year: 60 → 4 ms a metric).
 * - web_vitals_metric_time: one metric's samples of a period, counted as one range, and a short period's
 *   values read from it to be sorted. It takes over from 0035's web_vitals_time_metric, which read every
 *   metric's samples of the period to group them (a year: 70 ms) and is dropped so a sample still updates
 *   three indexes, not four.
 * - logs_level_time: the period's errors as one range of an index that carries repeat_count, instead of
 *   every error row fetched by logs_level and filtered by time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX web_vitals_metric_value ON web_vitals (metric, value, time)`.execute(db);
  await sql`CREATE INDEX web_vitals_metric_time ON web_vitals (metric, time, value)`.execute(db);
  await sql`DROP INDEX IF EXISTS web_vitals_time_metric`.execute(db);
  await sql`CREATE INDEX logs_level_time ON logs (level, time, repeat_count)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS logs_level_time`.execute(db);
  await sql`CREATE INDEX web_vitals_time_metric ON web_vitals (time, metric, value)`.execute(db);
  await sql`DROP INDEX IF EXISTS web_vitals_metric_time`.execute(db);
  await sql`DROP INDEX IF EXISTS web_vitals_metric_value`.execute(db);
}
