import type { DbOrTx } from '../../db/database.js';
import { clientRoutePattern } from '../../shared/routes.js';
import type { VitalsReport } from '../../shared/telemetry.js';
import type { VitalName } from '../../shared/web-vitals.js';

/** Paths that are no client route (the 404 page) are stored under this name. */
export const UNMATCHED_ROUTE = '(not found)';

/** The route pattern of a reported path; query strings and fragments are dropped, never stored. */
export function routeOfPath(path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? '';
  return clientRoutePattern(pathname) ?? UNMATCHED_ROUTE;
}

export async function insertVitals(db: DbOrTx, report: VitalsReport, now: Date): Promise<number> {
  const route = routeOfPath(report.path);
  const time = now.toISOString();
  await db
    .insertInto('web_vitals')
    .values(
      report.metrics.map((m) => ({
        time,
        metric: m.name,
        value: m.value,
        route,
        navigation_type: m.navigationType ?? null,
      })),
    )
    .execute();
  return report.metrics.length;
}

export type VitalSample = { metric: VitalName; route: string; value: number; time: string };

/** Samples since `since`, newest first, at most `limit` (a small shop's 14 days fit comfortably). */
export async function vitalSamplesSince(db: DbOrTx, since: Date, limit = 200_000): Promise<VitalSample[]> {
  return db
    .selectFrom('web_vitals')
    .select(['metric', 'route', 'value', 'time'])
    .where('time', '>=', since.toISOString())
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Vitals are kept for 90 days: enough for trends, small enough to summarise in memory. */
export const VITALS_RETENTION_DAYS = 90;

export async function pruneVitals(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - VITALS_RETENTION_DAYS * 86_400_000).toISOString();
  const result = await db.deleteFrom('web_vitals').where('time', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
