import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { DashboardPeriod, PeriodRange, TopItem } from '../../shared/dashboard.js';
import { num } from './day-boundaries.js';

/** Rows per currency in the top products and top colours. */
export const TOP_ITEMS = 10;

/**
 * The top products (colour null) or colours of products by what their lines were charged (line_total_minor:
 * after the sale and their share of the code) in paid orders of the range, per currency, largest first.
 * The title is the one the lines were bought under. Colours are only lines bought in one (a product without
 * colours has none).
 */
export async function topItems(
  db: DbOrTx,
  range: PeriodRange,
  by: 'product' | 'colour',
  currencyOrder: readonly string[],
): Promise<TopItem[]> {
  const colour = by === 'colour' ? sql`ol.colour` : sql`NULL`;
  const { rows } = await sql<{
    product_id: string;
    title: string;
    colour: string | null;
    currency: string;
    revenue: unknown;
    units: unknown;
  }>`
    SELECT product_id, title, colour, currency, revenue, units FROM (
      SELECT ol.product_id AS product_id, max(ol.title) AS title, ${colour} AS colour, o.currency AS currency,
        sum(ol.line_total_minor) AS revenue, sum(ol.quantity) AS units,
        row_number() OVER (
          PARTITION BY o.currency
          ORDER BY sum(ol.line_total_minor) DESC, sum(ol.quantity) DESC, ol.product_id, ${colour}
        ) AS place
      FROM order_lines ol
      JOIN orders o ON o.id = ol.order_id
      WHERE o.paid_at >= ${range.startsAt} AND o.paid_at < ${range.endsAt}
        ${by === 'colour' ? sql`AND ol.colour IS NOT NULL` : sql``}
      GROUP BY o.currency, ol.product_id${by === 'colour' ? sql`, ol.colour` : sql``}
    ) ranked
    WHERE place <= ${TOP_ITEMS}
    ORDER BY currency, place`.execute(db);
  const rank = (c: string) => {
    const i = currencyOrder.indexOf(c);
    return i === -1 ? currencyOrder.length : i;
  };
  // A stable sort keeps each currency's places in the order the database ranked them.
  return rows
    .map((r) => ({
      productId: r.product_id,
      title: r.title,
      colour: r.colour,
      currency: r.currency,
      revenueMinor: num(r.revenue),
      units: num(r.units),
    }))
    .sort((a, b) => rank(a.currency) - rank(b.currency));
}

/** Paid orders of the range by payment method and currency, most orders first. */
export async function paymentMix(db: DbOrTx, range: PeriodRange): Promise<DashboardPeriod['paymentMix']> {
  const rows = await db
    .selectFrom('orders')
    .select([
      'payment_method',
      'currency',
      sql<number>`count(*)`.as('orders'),
      sql<number>`sum(coalesce(total_minor, subtotal_minor))`.as('revenue'),
    ])
    .where('paid_at', '>=', range.startsAt)
    .where('paid_at', '<', range.endsAt)
    .groupBy(['payment_method', 'currency'])
    .execute();
  return rows
    .map((r) => ({
      method: r.payment_method,
      orders: num(r.orders),
      currency: r.currency,
      revenueMinor: num(r.revenue),
    }))
    .sort(
      (a, b) =>
        b.orders - a.orders || a.method.localeCompare(b.method) || a.currency.localeCompare(b.currency),
    );
}

/**
 * The range's paid orders split by whether their address (email, trimmed and lower-cased) had a paid order
 * before the range began: returning, or new. An order without an email counts as new (nothing earlier can
 * be known of it), so the two add up to the range's paid orders.
 */
export async function newVersusReturning(
  db: DbOrTx,
  range: PeriodRange,
): Promise<DashboardPeriod['customers']> {
  const { rows } = await sql<{ orders: unknown; returned: unknown }>`
    SELECT count(*) AS orders, coalesce(sum(CASE WHEN earlier.email IS NULL THEN 0 ELSE 1 END), 0) AS returned
    FROM orders o
    LEFT JOIN (
      SELECT DISTINCT lower(trim(customer_email)) AS email
      FROM orders
      WHERE paid_at < ${range.startsAt} AND customer_email IS NOT NULL
    ) earlier ON earlier.email = lower(trim(o.customer_email))
    WHERE o.paid_at >= ${range.startsAt} AND o.paid_at < ${range.endsAt}`.execute(db);
  const orders = num(rows[0]?.orders);
  const returning = num(rows[0]?.returned);
  return { newCustomers: orders - returning, returning };
}

/** Returns asked for in the range (whatever became of them since). */
export async function returnsAsked(db: DbOrTx, range: PeriodRange): Promise<number> {
  const row = await db
    .selectFrom('returns')
    .select(sql<number>`count(*)`.as('n'))
    .where('created_at', '>=', range.startsAt)
    .where('created_at', '<', range.endsAt)
    .executeTakeFirst();
  return num(row?.n);
}
