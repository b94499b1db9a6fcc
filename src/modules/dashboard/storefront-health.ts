import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import type { PeriodRange, StorefrontHealth } from '../../shared/dashboard.js';
import { VITAL_NAMES, type VitalName } from '../../shared/web-vitals.js';
import { num } from './sql-number.js';

/**
 * Up to this many samples of a metric in the period, SQLite sorts them (read from web_vitals_metric_time);
 * above it, it walks the metric's values in order (web_vitals_metric_value) and stops at the rank. The walk
 * passes about three quarters of the metric's samples whatever the period (a few ms for 40,000), the sort
 * grows with the period's samples: a day's 700 sort in under a millisecond, a year's 37,000 took 60 ms.
 */
export const SORTED_AT_MOST = 2_000;

/**
 * Storefront health for a period (issue 44, decision 0041 "Storefront health"), both figures computed by the
 * database.
 *
 * - p75 per metric by nearest rank: of the period's n samples of a metric ordered by value, the one at rank
 *   ⌈0.75·n⌉ (1-based): `ORDER BY value LIMIT 1 OFFSET ⌈0.75·n⌉ - 1`, n counted first. Always a value that
 *   was measured, never an interpolation between two, so both engines give the same number, and ties do
 *   not matter. Chosen over ROW_NUMBER() OVER (PARTITION BY metric ORDER BY value), which sorts every sample
 *   of the period. The cost is bounded whatever the period (migration 0037): a long period walks the
 *   metric's values in order and stops at the rank, a short one sorts its few samples. PostgreSQL's planner
 *   picks between the two indexes by itself; SQLite is told (INDEXED BY), as its planner sorts a year too.
 * - Errors: the log entries at level 'error' whose (first) time is in the period, each counting its
 *   repeat_count: identical entries within 2 s are folded into one row (log-service.ts), so a row of 5 is
 *   five errors. A folded run is counted by the time of its first entry.
 */
export async function storefrontHealth(db: DbOrTx, range: PeriodRange): Promise<StorefrontHealth> {
  const [vitals, errorRow] = await Promise.all([
    Promise.all(VITAL_NAMES.map((metric) => vitalOf(db, metric, range))),
    db
      .selectFrom('logs')
      .select((eb) => eb.fn.sum<number | string | null>('repeat_count').as('errors'))
      .where('level', '=', 'error')
      .where('time', '>=', range.startsAt)
      .where('time', '<', range.endsAt)
      .executeTakeFirst(),
  ]);
  return { range, vitals, errors: num(errorRow?.errors) };
}

/** One metric's samples in the period and their p75 (null without samples). */
async function vitalOf(
  db: DbOrTx,
  metric: VitalName,
  range: PeriodRange,
): Promise<{ metric: VitalName; p75: number | null; samples: number }> {
  // One metric at a time: each count is one range of web_vitals_metric_time, where a count grouped by
  // metric read every sample of the period and sorted them into groups (a year: 70 ms on both engines).
  const counted = await db
    .selectFrom('web_vitals')
    .select((eb) => eb.fn.countAll<number | string>().as('samples'))
    .where('metric', '=', metric)
    .where('time', '>=', range.startsAt)
    .where('time', '<', range.endsAt)
    .executeTakeFirst();
  const samples = num(counted?.samples);
  if (samples === 0) return { metric, p75: null, samples };
  const index =
    engineOf(db) === 'postgres'
      ? sql``
      : samples > SORTED_AT_MOST
        ? sql`INDEXED BY web_vitals_metric_value`
        : sql`INDEXED BY web_vitals_metric_time`;
  const { rows } = await sql<{ value: number }>`
    SELECT value FROM web_vitals ${index}
    WHERE metric = ${metric} AND time >= ${range.startsAt} AND time < ${range.endsAt}
    ORDER BY value LIMIT 1 OFFSET ${Math.ceil((3 * samples) / 4) - 1}`.execute(db);
  const value = rows[0]?.value;
  return { metric, p75: value === undefined ? null : Number(value), samples };
}
