import type { DbOrTx } from '../../db/database.js';
import type { PeriodRange, StorefrontHealth } from '../../shared/dashboard.js';
import { VITAL_NAMES, type VitalName } from '../../shared/web-vitals.js';

/**
 * Storefront health for a period (issue 44, decision 0041 "Storefront health"), both figures computed by the
 * database.
 *
 * - p75 per metric by nearest rank: of the period's n samples of a metric ordered by value, the one at rank
 *   ⌈0.75·n⌉ (1-based): `ORDER BY value LIMIT 1 OFFSET ⌈0.75·n⌉ - 1`, n from one grouped count first.
 *   Always a value that was measured, never an interpolation between two, so both engines give the same
 *   number, and ties do not matter. Chosen over ROW_NUMBER() OVER (PARTITION BY metric ORDER BY value): that
 *   sorts every sample of the period, where LIMIT/OFFSET can walk an index on (metric, value) and stop
 *   (measured on SQLite with 300,000 samples: a year's p75s in 80 ms against 600 ms to 1.2 s).
 * - Errors: the log entries at level 'error' whose (first) time is in the period, each counting its
 *   repeat_count: identical entries within 2 s are folded into one row (log-service.ts), so a row of 5 is
 *   five errors. A folded run is counted by the time of its first entry.
 */
export async function storefrontHealth(db: DbOrTx, range: PeriodRange): Promise<StorefrontHealth> {
  const [counts, errorRow] = await Promise.all([
    db
      .selectFrom('web_vitals')
      .select((eb) => ['metric', eb.fn.countAll<number | string>().as('samples')])
      .where('time', '>=', range.startsAt)
      .where('time', '<', range.endsAt)
      .groupBy('metric')
      .execute(),
    db
      .selectFrom('logs')
      .select((eb) => eb.fn.sum<number | string | null>('repeat_count').as('errors'))
      .where('level', '=', 'error')
      .where('time', '>=', range.startsAt)
      .where('time', '<', range.endsAt)
      .executeTakeFirst(),
  ]);
  const samplesOf = new Map(counts.map((c) => [c.metric, Number(c.samples)]));
  const vitals = await Promise.all(
    VITAL_NAMES.map(async (metric: VitalName) => {
      const samples = samplesOf.get(metric) ?? 0;
      if (samples === 0) return { metric, p75: null, samples };
      const row = await db
        .selectFrom('web_vitals')
        .select('value')
        .where('metric', '=', metric)
        .where('time', '>=', range.startsAt)
        .where('time', '<', range.endsAt)
        .orderBy('value')
        .limit(1)
        .offset(Math.ceil((3 * samples) / 4) - 1)
        .executeTakeFirst();
      return { metric, p75: row ? Number(row.value) : null, samples };
    }),
  );
  return { range, vitals, errors: Number(errorRow?.errors ?? 0) };
}
