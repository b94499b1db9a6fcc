import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { PeriodRange, StorefrontHealth } from '../../shared/dashboard.js';
import { VITAL_NAMES, type VitalName } from '../../shared/web-vitals.js';

/**
 * Storefront health for a period (issue 44, decision 0041 "Storefront health"), both figures computed by the
 * database.
 *
 * - p75 per metric by nearest rank: the samples of the period ordered by value, the one at rank ⌈0.75·n⌉
 *   (1-based). Always a value that was measured, never an interpolation between two, so both engines give the
 *   same number. One query: ROW_NUMBER and COUNT over each metric's samples, keeping the row whose number is
 *   ⌈3n/4⌉, written (3n + 3) / 4 in integer division, which both engines do on integers.
 * - Errors: the log entries at level 'error' whose (first) time is in the period, each counting its
 *   repeat_count: identical entries within 2 s are folded into one row (log-service.ts), so a row of 5 is
 *   five errors. A folded run is counted by the time of its first entry.
 */
export async function storefrontHealth(db: DbOrTx, range: PeriodRange): Promise<StorefrontHealth> {
  const [vitalRows, errorRow] = await Promise.all([
    db
      .selectFrom((qb) =>
        qb
          .selectFrom('web_vitals')
          .select([
            'metric',
            'value',
            sql<number>`row_number() over (partition by metric order by value)`.as('nth'),
            sql<number>`count(*) over (partition by metric)`.as('samples'),
          ])
          .where('time', '>=', range.startsAt)
          .where('time', '<', range.endsAt)
          .as('ranked'),
      )
      .select(['metric', 'value', 'samples'])
      .where(sql<boolean>`${sql.ref('nth')} = (3 * ${sql.ref('samples')} + 3) / 4`)
      .execute(),
    db
      .selectFrom('logs')
      .select((eb) => eb.fn.sum<number | string | null>('repeat_count').as('errors'))
      .where('level', '=', 'error')
      .where('time', '>=', range.startsAt)
      .where('time', '<', range.endsAt)
      .executeTakeFirst(),
  ]);
  const byMetric = new Map(vitalRows.map((r) => [r.metric, r]));
  return {
    range,
    vitals: VITAL_NAMES.map((metric: VitalName) => {
      const row = byMetric.get(metric);
      return { metric, p75: row ? Number(row.value) : null, samples: row ? Number(row.samples) : 0 };
    }),
    errors: Number(errorRow?.errors ?? 0),
  };
}
