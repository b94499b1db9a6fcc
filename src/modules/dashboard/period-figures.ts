import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { CurrencyFigures, PeriodRange } from '../../shared/dashboard.js';
import { type PeriodDay, periodDays } from '../../shared/dashboard-period.js';
import { currenciesCte, daysCte, num } from './day-boundaries.js';

/**
 * One period's money figures per currency (decision 0041). A paid order is one the orders CSV exports for
 * the same instants: paid_at in [startsAt, endsAt), whatever its status became since (a card order refunded
 * later, a collected cash-on-delivery order). Its revenue is the CSV's order_total, total_minor (or the
 * subtotal on orders from before totals were kept). Every figure is summed by the database.
 */

/** What paid orders add up to per currency in a range, without the days. */
type Totals = { currency: string; revenueMinor: number; orders: number; discountsMinor: number };

async function orderTotals(db: DbOrTx, range: PeriodRange): Promise<Totals[]> {
  const rows = await db
    .selectFrom('orders')
    .select([
      'currency',
      sql<number>`sum(coalesce(total_minor, subtotal_minor))`.as('revenue'),
      sql<number>`count(*)`.as('orders'),
      sql<number>`sum(sales_minor + discount_minor)`.as('discounts'),
    ])
    .where('paid_at', '>=', range.startsAt)
    .where('paid_at', '<', range.endsAt)
    .groupBy('currency')
    .execute();
  return rows.map((r) => ({
    currency: r.currency,
    revenueMinor: num(r.revenue),
    orders: num(r.orders),
    discountsMinor: num(r.discounts),
  }));
}

async function unitsByCurrency(db: DbOrTx, range: PeriodRange): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('order_lines as ol')
    .innerJoin('orders as o', 'o.id', 'ol.order_id')
    .select(['o.currency', sql<number>`sum(ol.quantity)`.as('units')])
    .where('o.paid_at', '>=', range.startsAt)
    .where('o.paid_at', '<', range.endsAt)
    .groupBy('o.currency')
    .execute();
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

/** Revenue and orders per shop day and currency, every day of every currency given (0 where none). */
async function revenueByDay(
  db: DbOrTx,
  days: readonly PeriodDay[],
  currencies: readonly string[],
): Promise<Map<string, CurrencyFigures['revenueByDay']>> {
  const out = new Map<string, CurrencyFigures['revenueByDay']>(currencies.map((c) => [c, []]));
  if (currencies.length === 0) return out;
  const { rows } = await sql<{ day: string; currency: string; revenue: unknown; orders: unknown }>`
    WITH ${daysCte(db, days)}, ${currenciesCte(currencies)}
    SELECT d.day AS day, c.currency AS currency,
      coalesce(sum(coalesce(o.total_minor, o.subtotal_minor)), 0) AS revenue, count(o.id) AS orders
    FROM days d
    CROSS JOIN currencies c
    LEFT JOIN orders o
      ON o.currency = c.currency AND o.paid_at >= d.starts_at AND o.paid_at < d.ends_at
    GROUP BY d.day, c.currency
    ORDER BY d.day, c.currency`.execute(db);
  for (const r of rows)
    out.get(r.currency)?.push({ day: r.day, revenueMinor: num(r.revenue), orders: num(r.orders) });
  return out;
}

/** revenue / orders rounded half up to the minor unit (revenue is never negative); 0 without orders. */
export function averageOrder(revenueMinor: number, orders: number): number {
  return orders === 0 ? 0 : Math.floor((2 * revenueMinor + orders) / (2 * orders));
}

type Aggregates = { totals: Totals[]; units: Map<string, number>; refunds: Map<string, number> };

async function aggregates(db: DbOrTx, range: PeriodRange): Promise<Aggregates> {
  const [totals, units, refunds] = await Promise.all([
    orderTotals(db, range),
    unitsByCurrency(db, range),
    refundsByCurrency(db, range),
  ]);
  return { totals, units, refunds };
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
 */
export async function periodFigures(
  db: DbOrTx,
  range: PeriodRange,
  previous: PeriodRange,
  zone: string,
): Promise<{ current: CurrencyFigures[]; before: CurrencyFigures[] }> {
  const [now, then] = await Promise.all([aggregates(db, range), aggregates(db, previous)]);
  const seen = new Set<string>();
  for (const a of [now, then]) {
    for (const t of a.totals) seen.add(t.currency);
    for (const c of a.refunds.keys()) seen.add(c);
  }
  const currencies = [...seen].sort();
  const [daysNow, daysThen] = await Promise.all([
    revenueByDay(db, periodDays(range, zone), currencies),
    revenueByDay(db, periodDays(previous, zone), currencies),
  ]);
  const current = currencies
    .map((c) => figuresOf(now, daysNow, c))
    .sort((x, y) => y.revenueMinor - x.revenueMinor || x.currency.localeCompare(y.currency));
  return { current, before: current.map((c) => figuresOf(then, daysThen, c.currency)) };
}
