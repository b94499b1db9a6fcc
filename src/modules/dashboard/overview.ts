import type { DbOrTx } from '../../db/database.js';
import type { AdminRole } from '../../shared/auth.js';
import type { DashboardPeriod, DashboardPeriodInput, DashboardView } from '../../shared/dashboard.js';
import { emailKindsHiddenFrom } from '../email/email-visibility.js';
import { readStoredSettings } from '../settings/settings.repository.js';
import { inCurrencyOrder, lineSales, returnsAsked } from './period-breakdowns.js';
import { periodFigures } from './period-figures.js';
import { periodIn } from './shop-period.js';
import { refreshSummary } from './summary-refresh.js';
import { todayCounts } from './today-counts.js';

/** The period's figures in the shop's zone (owner only: all money). */
async function periodOf(
  db: DbOrTx,
  input: DashboardPeriodInput,
  now: Date,
  zone: string,
): Promise<DashboardPeriod> {
  const { range, previous } = periodIn(input, now, zone);
  // The summaries first: every read below that sums days or months reads them.
  await refreshSummary(db, zone);
  const [figures, sold, returns, returnsBefore] = await Promise.all([
    periodFigures(db, range, previous),
    lineSales(db, range),
    returnsAsked(db, range),
    returnsAsked(db, previous),
  ]);
  const order = figures.current.map((c) => c.currency);
  const topProducts = inCurrencyOrder(sold.products, order);
  const topColours = inCurrencyOrder(sold.colours, order);
  return {
    range,
    previous,
    current: figures.current,
    before: figures.before,
    returns,
    returnsBefore,
    topProducts,
    topColours,
    paymentMix: figures.paymentMix,
    customers: figures.customers,
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
  const counting = todayCounts(db, settings.lowStockThreshold ?? 2, emailKindsHiddenFrom(viewer.role));
  if (viewer.role !== 'owner') return { role: 'staff', today: await counting, period: null };
  // Side by side: on PostgreSQL each runs on a connection of its own, so the owner waits for the longer only.
  const [today, period] = await Promise.all([
    counting,
    periodOf(db, input, viewer.now, settings.timeZone ?? 'UTC'),
  ]);
  return { role: 'owner', today, period };
}
