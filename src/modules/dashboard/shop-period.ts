import { TRPCError } from '@trpc/server';
import type { DbOrTx } from '../../db/database.js';
import type { DashboardPeriodInput } from '../../shared/dashboard.js';
import { PeriodError, resolvePeriod } from '../../shared/dashboard-period.js';
import { readTimeZone } from '../settings/settings.repository.js';

/** The period in `zone`'s days; a period that cannot be drawn is the caller's mistake (BAD_REQUEST). */
export function periodIn(
  input: DashboardPeriodInput,
  now: Date,
  zone: string,
): ReturnType<typeof resolvePeriod> {
  try {
    return resolvePeriod(input, now, zone);
  } catch (error) {
    if (error instanceof PeriodError) throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
    throw error;
  }
}

/** The period in the shop's days (settings.timeZone). */
export async function shopPeriod(
  db: DbOrTx,
  input: DashboardPeriodInput,
  now: Date,
): Promise<ReturnType<typeof resolvePeriod>> {
  return periodIn(input, now, await readTimeZone(db));
}
