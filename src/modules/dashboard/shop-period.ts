import { TRPCError } from '@trpc/server';
import type { DbOrTx } from '../../db/database.js';
import type { DashboardPeriodInput } from '../../shared/dashboard.js';
import { PeriodError, resolvePeriod } from '../../shared/dashboard-period.js';
import { readTimeZone } from '../settings/settings.repository.js';

/** The period in the shop's days (settings.timeZone); a period that cannot be drawn is the caller's mistake. */
export async function shopPeriod(
  db: DbOrTx,
  input: DashboardPeriodInput,
  now: Date,
): Promise<ReturnType<typeof resolvePeriod>> {
  const zone = await readTimeZone(db);
  try {
    return resolvePeriod(input, now, zone);
  } catch (error) {
    if (error instanceof PeriodError) throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
    throw error;
  }
}
