import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { CurrencyFigures, DashboardPeriod, PeriodRange } from '../../shared/dashboard.js';
import { type PeriodDay, periodDays } from '../../shared/dashboard-period.js';
import { daysCte, num } from './day-boundaries.js';
import { SHORT_PERIOD_MAX_DAYS } from './period-breakdowns.js';

/**
 * One period's money figures per currency (decision 0041). A paid order is one the orders CSV exports for
 * the same instants: paid_at in [startsAt, endsAt), whatever its status became since (a card order refunded
 * later, a collected cash-on-delivery order). Its revenue is the CSV's order_total, total_minor (or the
 * subtotal on orders from before totals were kept). Every figure is summed by the database.
 */

/** What paid orders add up to per currency in a range, without the days. */
type Totals = { currency: string; revenueMinor: number; orders: number; discountsMinor: number };

/** Paid orders of a range by payment method and currency: the payment mix, and the totals added up from it. */
type MethodTotals = Totals & { method: string };

/** One shop day's paid orders of one method and currency. */
type DayRow = MethodTotals & { day: string };

/**
 * The range's paid orders read once, summed by the database per shop day, payment method and currency: the
 * days, the payment mix and the totals per currency are all added up from these few rows in JS (exact:
 * integers; at most days × methods × currencies rows). Only days with orders come back; daysOf gives every
 * day of every currency its row. The range bounds on the join let the database read the range once through
 * the paid_at index rather than probe it once per day.
 */
async function paidByDay(db: DbOrTx, range: PeriodRange, days: readonly PeriodDay[]): Promise<DayRow[]> {
  const { rows } = await sql<{
    day: string;
    method: string;
    currency: string;
    revenue: unknown;
    orders: unknown;
    discounts: unknown;
  }>`
    WITH ${daysCte(db, days)}
    SELECT d.day AS day, o.payment_method AS method, o.currency AS currency,
      sum(coalesce(o.total_minor, o.subtotal_minor)) AS revenue, count(*) AS orders,
      sum(o.sales_minor + o.discount_minor) AS discounts
    FROM days d
    JOIN orders o
      ON o.paid_at >= d.starts_at AND o.paid_at < d.ends_at
      AND o.paid_at >= ${range.startsAt} AND o.paid_at < ${range.endsAt}
    GROUP BY d.day, o.payment_method, o.currency`.execute(db);
  return rows.map((r) => ({
    day: r.day,
    method: r.method,
    currency: r.currency,
    revenueMinor: num(r.revenue),
    orders: num(r.orders),
    discountsMinor: num(r.discounts),
  }));
}

/** The days' rows added up per method and currency. */
function byMethodOf(rows: readonly DayRow[]): MethodTotals[] {
  const out = new Map<string, MethodTotals>();
  for (const r of rows) {
    const key = `${r.method} ${r.currency}`;
    const m = out.get(key) ?? {
      method: r.method,
      currency: r.currency,
      revenueMinor: 0,
      orders: 0,
      discountsMinor: 0,
    };
    m.revenueMinor += r.revenueMinor;
    m.orders += r.orders;
    m.discountsMinor += r.discountsMinor;
    out.set(key, m);
  }
  return [...out.values()];
}

function totalsOf(byMethod: readonly MethodTotals[]): Totals[] {
  const out = new Map<string, Totals>();
  for (const m of byMethod) {
    const t = out.get(m.currency) ?? { currency: m.currency, revenueMinor: 0, orders: 0, discountsMinor: 0 };
    t.revenueMinor += m.revenueMinor;
    t.orders += m.orders;
    t.discountsMinor += m.discountsMinor;
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

/**
 * Units of the range's paid orders per currency (the period before's: the period's come from lineSales).
 * Left to itself SQLite reads every line and looks its order up, whatever the range: right for a year, ten
 * times too slow for a day. Up to SHORT_PERIOD_MAX_DAYS the range's orders are taken first (a MATERIALIZED
 * CTE through the paid_at index) and their lines looked up by order.
 */
async function unitsByCurrency(db: DbOrTx, range: PeriodRange): Promise<Map<string, number>> {
  const { rows } =
    range.days <= SHORT_PERIOD_MAX_DAYS
      ? await sql<{ currency: string; units: unknown }>`
          WITH paid AS MATERIALIZED (
            SELECT id, currency FROM orders WHERE paid_at >= ${range.startsAt} AND paid_at < ${range.endsAt}
          )
          SELECT p.currency AS currency, sum(ol.quantity) AS units
          FROM paid p
          JOIN order_lines ol ON ol.order_id = p.id
          GROUP BY p.currency`.execute(db)
      : await sql<{ currency: string; units: unknown }>`
          SELECT o.currency AS currency, sum(ol.quantity) AS units
          FROM order_lines ol
          JOIN orders o ON o.id = ol.order_id
          WHERE o.paid_at >= ${range.startsAt} AND o.paid_at < ${range.endsAt}
          GROUP BY o.currency`.execute(db);
  return new Map(rows.map((r) => [r.currency, num(r.units)]));
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
  days: readonly PeriodDay[],
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
      days.map((d) => {
        const r = found.get(`${c} ${d.day}`);
        return { day: d.day, revenueMinor: r?.revenueMinor ?? 0, orders: r?.orders ?? 0 };
      }),
    ]),
  );
}

/** revenue / orders rounded half up to the minor unit (revenue is never negative); 0 without orders. */
export function averageOrder(revenueMinor: number, orders: number): number {
  return orders === 0 ? 0 : Math.floor((2 * revenueMinor + orders) / (2 * orders));
}

type Aggregates = { totals: Totals[]; units: Map<string, number>; refunds: Map<string, number> };

/** A range's reads, all independent of each other, so they go to the database together. */
async function aggregates(
  db: DbOrTx,
  range: PeriodRange,
  zone: string,
  units: Promise<Map<string, number>>,
): Promise<{ byMethod: MethodTotals[]; a: Aggregates; byDay: DayRow[]; days: PeriodDay[] }> {
  const days = periodDays(range, zone);
  const [byDay, unitsMap, refunds] = await Promise.all([
    paidByDay(db, range, days),
    units,
    refundsByCurrency(db, range),
  ]);
  const byMethod = byMethodOf(byDay);
  return { byMethod, a: { totals: totalsOf(byMethod), units: unitsMap, refunds }, byDay, days };
}

function figuresOf(
  a: Aggregates,
  byDay: Map<string, CurrencyFigures['revenueByDay']>,
  currency: string,
): CurrencyFigures {
  const t = a.totals.find((x) => x.currency === currency);
  const revenueMinor = t?.revenueMinor ?? 0;
  const orders = t?.orders ?? 0;
  return {
    currency,
    revenueMinor,
    orders,
    averageOrderMinor: averageOrder(revenueMinor, orders),
    units: a.units.get(currency) ?? 0,
    refundedMinor: a.refunds.get(currency) ?? 0,
    discountsMinor: t?.discountsMinor ?? 0,
    revenueByDay: byDay.get(currency) ?? [],
  };
}

/**
 * The period's and the period before's figures for the same currencies: those either had paid orders or
 * refunds in, so a currency that sold before but not now shows as 0 now. Largest revenue now first.
 * The period's units come from its line pass (lineSales, which also ranks the top items); the period
 * before's from a sum of its lines.
 */
export async function periodFigures(
  db: DbOrTx,
  range: PeriodRange,
  previous: PeriodRange,
  zone: string,
  unitsNow: Promise<Map<string, number>>,
): Promise<{
  current: CurrencyFigures[];
  before: CurrencyFigures[];
  paymentMix: DashboardPeriod['paymentMix'];
}> {
  const [now, then] = await Promise.all([
    aggregates(db, range, zone, unitsNow),
    aggregates(db, previous, zone, unitsByCurrency(db, previous)),
  ]);
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
  };
}
