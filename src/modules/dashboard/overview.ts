import { TRPCError } from '@trpc/server';
import type { DbOrTx } from '../../db/database.js';
import type { AdminRole } from '../../shared/auth.js';
import type { DashboardPeriod, DashboardPeriodInput, DashboardView } from '../../shared/dashboard.js';
import { PeriodError, resolvePeriod } from '../../shared/dashboard-period.js';
import { readStoredSettings } from '../settings/settings.repository.js';
import { newVersusReturning, paymentMix, returnsAsked, topItems } from './period-breakdowns.js';
import { periodFigures } from './period-figures.js';
import { todayCounts } from './today-counts.js';

/** The period's figures in the shop's zone (owner only: all money). */
async function periodOf(
  db: DbOrTx,
  input: DashboardPeriodInput,
  now: Date,
  zone: string,
): Promise<DashboardPeriod> {
  let resolved: ReturnType<typeof resolvePeriod>;
  try {
    resolved = resolvePeriod(input, now, zone);
  } catch (error) {
    if (error instanceof PeriodError) throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
    throw error;
  }
  const { range, previous } = resolved;
  const [figures, returns, returnsBefore, mix, customers] = await Promise.all([
    periodFigures(db, range, previous, zone),
    returnsAsked(db, range),
    returnsAsked(db, previous),
    paymentMix(db, range),
    newVersusReturning(db, range),
  ]);
  const order = figures.current.map((c) => c.currency);
  const [topProducts, topColours] = await Promise.all([
    topItems(db, range, 'product', order),
    topItems(db, range, 'colour', order),
  ]);
  return {
    range,
    previous,
    current: figures.current,
    before: figures.before,
    returns,
    returnsBefore,
    topProducts,
    topColours,
    paymentMix: mix,
    customers,
  };
}

/**
 * admin.dashboard.overview: today's work for any admin; the period's figures for the owner only. Staff get
 * period null and none of its queries run, so no money is computed for them (decision 0030).
 */
export async function dashboardOverview(
  db: DbOrTx,
  input: DashboardPeriodInput,
  viewer: { role: AdminRole; now: Date },
): Promise<DashboardView> {
  const settings = await readStoredSettings(db);
  const today = await todayCounts(db, settings.lowStockThreshold ?? 2);
  if (viewer.role !== 'owner') return { role: 'staff', today, period: null };
  return { role: 'owner', today, period: await periodOf(db, input, viewer.now, settings.timeZone ?? 'UTC') };
}
