import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { CurrencyFigures, DashboardPeriod, PeriodRange } from '../../shared/dashboard.js';
import { daysFromTo } from '../../shared/dashboard-period.js';
import { num } from './sql-number.js';

/**
 * One period's money figures per currency (decision 0041). A paid order is one the orders CSV exports for
 * the same instants: paid_at in [startsAt, endsAt), whatever its status became since (a card order refunded
 * later, a collected cash-on-delivery order). Its revenue is the CSV's order_total, total_minor (or the
 * subtotal on orders from before totals were kept). Every figure is summed by the database.
 */

/** What paid orders add up to per currency in a range, without the days. */
type Totals = {
  currency: string;
  revenueMinor: number;
  orders: number;
  discountsMinor: number;
  units: number;
  returning: number;
};

/** Paid orders of a range by payment method and currency: the payment mix, and the totals added up from it. */
type MethodTotals = Totals & { method: string };

/** One shop day's paid orders of one method and currency. */
type DayRow = MethodTotals & { day: string };

/**
 * The range's shop days as the summary holds them (dashboard_days, brought up to date by refreshSummary
 * before the period is read): per day, payment method and currency. The days, the payment mix and the
 * totals per currency are all added up from these few rows in JS (exact: integers; at most days × methods ×
 * currencies rows). Only days with orders have rows; daysOf gives every day of every currency its row.
 */
async function paidByDay(db: DbOrTx, range: PeriodRange): Promise<DayRow[]> {
  const rows = await db
    .selectFrom('dashboard_days')
    .selectAll()
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .execute();
  return rows.map((r) => ({
    day: r.day,
    method: r.payment_method,
    currency: r.currency,
    revenueMinor: num(r.revenue_minor),
    orders: num(r.orders),
    discountsMinor: num(r.discounts_minor),
    units: num(r.units),
    returning: num(r.returning_orders),
  }));
}

function noTotals(currency: string): Totals {
  return { currency, revenueMinor: 0, orders: 0, discountsMinor: 0, units: 0, returning: 0 };
}

function addTo(sum: Totals, more: Totals): void {
  sum.revenueMinor += more.revenueMinor;
  sum.orders += more.orders;
  sum.discountsMinor += more.discountsMinor;
  sum.units += more.units;
  sum.returning += more.returning;
}

/** The days' rows added up per method and currency. */
function byMethodOf(rows: readonly DayRow[]): MethodTotals[] {
  const out = new Map<string, MethodTotals>();
  for (const r of rows) {
    const key = `${r.method} ${r.currency}`;
    const m = out.get(key) ?? { ...noTotals(r.currency), method: r.method };
    addTo(m, r);
    out.set(key, m);
  }
  return [...out.values()];
}

function totalsOf(byMethod: readonly MethodTotals[]): Totals[] {
  const out = new Map<string, Totals>();
  for (const m of byMethod) {
    const t = out.get(m.currency) ?? noTotals(m.currency);
    addTo(t, m);
    out.set(m.currency, t);
  }
  return [...out.values()];
}

/** Paid orders of the range by payment method and currency, most orders first. */
function paymentMixOf(byMethod: readonly MethodTotals[]): DashboardPeriod['paymentMix'] {
  return byMethod
    .map((m) => ({ method: m.method, orders: m.orders, currency: m.currency, revenueMinor: m.revenueMinor }))
    .sort(
      (a, b) =>
        b.orders - a.orders || a.method.localeCompare(b.method) || a.currency.localeCompare(b.currency),
    );
}

/** Refunds that succeeded in the range, by their own date (not their order's). */
async function refundsByCurrency(db: DbOrTx, range: PeriodRange): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('refunds')
    .select(['currency', sql<number>`sum(amount_minor)`.as('amount')])
    .where('status', '=', 'succeeded')
    .where('created_at', '>=', range.startsAt)
    .where('created_at', '<', range.endsAt)
    .groupBy('currency')
    .execute();
  return new Map(rows.map((r) => [r.currency, num(r.amount)]));
}

/** Every day of every currency given, in day order, 0 where no order was paid. */
function daysOf(
  rows: readonly DayRow[],
  days: readonly string[],
  currencies: readonly string[],
): Map<string, CurrencyFigures['revenueByDay']> {
  // A day's methods added together.
  const found = new Map<string, { revenueMinor: number; orders: number }>();
  for (const r of rows) {
    const key = `${r.currency} ${r.day}`;
    const f = found.get(key) ?? { revenueMinor: 0, orders: 0 };
    f.revenueMinor += r.revenueMinor;
    f.orders += r.orders;
    found.set(key, f);
  }
  return new Map(
    currencies.map((c) => [
      c,
      days.map((day) => {
        const r = found.get(`${c} ${day}`);
        return { day, revenueMinor: r?.revenueMinor ?? 0, orders: r?.orders ?? 0 };
      }),
    ]),
  );
}

/** revenue / orders rounded half up to the minor unit (revenue is never negative); 0 without orders. */
export function averageOrder(revenueMinor: number, orders: number): number {
  return orders === 0 ? 0 : Math.floor((2 * revenueMinor + orders) / (2 * orders));
}

type Aggregates = { totals: Totals[]; refunds: Map<string, number> };

/**
 * A range's reads, independent of each other, so they go to the database together. Its days are named by
 * date arithmetic alone: the summary's rows are keyed by the shop day, so no day's instants are needed here
 * (asking Intl for a year's boundaries twice took about 120 ms).
 */
async function aggregates(
  db: DbOrTx,
  range: PeriodRange,
): Promise<{ byMethod: MethodTotals[]; a: Aggregates; byDay: DayRow[]; days: string[] }> {
  const days = daysFromTo(range.from, range.to);
  const [byDay, refunds] = await Promise.all([paidByDay(db, range), refundsByCurrency(db, range)]);
  const byMethod = byMethodOf(byDay);
  return { byMethod, a: { totals: totalsOf(byMethod), refunds }, byDay, days };
}

function figuresOf(
  a: Aggregates,
  byDay: Map<string, CurrencyFigures['revenueByDay']>,
  currency: string,
): CurrencyFigures {
  const t = a.totals.find((x) => x.currency === currency) ?? noTotals(currency);
  return {
    currency,
    revenueMinor: t.revenueMinor,
    orders: t.orders,
    averageOrderMinor: averageOrder(t.revenueMinor, t.orders),
    units: t.units,
    refundedMinor: a.refunds.get(currency) ?? 0,
    discountsMinor: t.discountsMinor,
    revenueByDay: byDay.get(currency) ?? [],
  };
}

/**
 * The period's paid orders by whether their address had paid before each of them (per order: an address's
 * first paid order is new, its later ones returning; an order without an email is new), so the two add up
 * to the period's paid orders.
 */
function customersOf(totals: readonly Totals[]): DashboardPeriod['customers'] {
  let orders = 0;
  let returning = 0;
  for (const t of totals) {
    orders += t.orders;
    returning += t.returning;
  }
  return { newCustomers: orders - returning, returning };
}

/**
 * The period's and the period before's figures for the same currencies: those either had paid orders or
 * refunds in, so a currency that sold before but not now shows as 0 now. Largest revenue now first.
 * Read from the summary (refreshSummary first).
 */
export async function periodFigures(
  db: DbOrTx,
  range: PeriodRange,
  previous: PeriodRange,
): Promise<{
  current: CurrencyFigures[];
  before: CurrencyFigures[];
  paymentMix: DashboardPeriod['paymentMix'];
  customers: DashboardPeriod['customers'];
}> {
  const [now, then] = await Promise.all([aggregates(db, range), aggregates(db, previous)]);
  const seen = new Set<string>();
  for (const { a } of [now, then]) {
    for (const t of a.totals) seen.add(t.currency);
    for (const c of a.refunds.keys()) seen.add(c);
  }
  const currencies = [...seen].sort();
  const daysNow = daysOf(now.byDay, now.days, currencies);
  const daysThen = daysOf(then.byDay, then.days, currencies);
  const current = currencies
    .map((c) => figuresOf(now.a, daysNow, c))
    .sort((x, y) => y.revenueMinor - x.revenueMinor || x.currency.localeCompare(y.currency));
  return {
    current,
    before: current.map((c) => figuresOf(then.a, daysThen, c.currency)),
    paymentMix: paymentMixOf(now.byMethod),
    customers: customersOf(now.a.totals),
  };
}
