import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { DashboardPeriod, PeriodRange, TopItem } from '../../shared/dashboard.js';
import { num } from './day-boundaries.js';

/** Rows per currency in the top products and top colours. */
export const TOP_ITEMS = 10;

/**
 * Up to this many days (a quarter) a period is short: its queries start from its orders through the
 * paid_at indexes; beyond, reading the table once costs less than a look-up per order (measured on the
 * 100,000-order bench, decision 0041 "Speed"). Either way the answer is the same.
 */
export const SHORT_PERIOD_MAX_DAYS = 92;

/** What the range's paid lines sold: units per currency and the top products and colours. */
export type LineSales = { units: Map<string, number>; products: TopItem[]; colours: TopItem[] };

/**
 * The range's paid lines read once (one pass instead of one per figure): `sold` sums them by currency,
 * product and colour, and the units per currency, top products and top colours are all taken from it.
 * Top items are ranked by what their lines were charged (line_total_minor: after the sale and their share
 * of the code), per currency, largest first, then units, product id, colour. The title is the one the lines
 * were bought under. Colours are only lines bought in one (a product without colours has none).
 * MATERIALIZED keeps both engines from reading the lines once per use of `sold`.
 */
export async function lineSales(db: DbOrTx, range: PeriodRange): Promise<LineSales> {
  // For a long range SQLite reads the lines faster in table order, looking each order up, than the
  // range's orders through paid_at and their lines by order (a year: 200 against 280 ms). CROSS JOIN is
  // how SQLite is told the order of a join; PostgreSQL plans it as the inner join it is.
  const linesThenOrders =
    range.days > SHORT_PERIOD_MAX_DAYS
      ? sql`order_lines ol CROSS JOIN orders o`
      : sql`orders o JOIN order_lines ol ON ol.order_id = o.id`;
  const { rows } = await sql<{
    kind: 'product' | 'colour' | 'units';
    product_id: string | null;
    title: string | null;
    colour: string | null;
    currency: string;
    revenue: unknown;
    units: unknown;
  }>`
    WITH sold AS MATERIALIZED (
      SELECT o.currency AS currency, ol.product_id AS product_id, ol.colour AS colour,
        max(ol.title) AS title, sum(ol.line_total_minor) AS revenue, sum(ol.quantity) AS units
      FROM ${linesThenOrders}
      WHERE o.id = ol.order_id AND o.paid_at >= ${range.startsAt} AND o.paid_at < ${range.endsAt}
      GROUP BY o.currency, ol.product_id, ol.colour
    )
    SELECT kind, product_id, title, colour, currency, revenue, units FROM (
      SELECT 'product' AS kind, product_id, max(title) AS title, NULL AS colour, currency,
        sum(revenue) AS revenue, sum(units) AS units,
        row_number() OVER (
          PARTITION BY currency ORDER BY sum(revenue) DESC, sum(units) DESC, product_id
        ) AS place
      FROM sold
      GROUP BY currency, product_id
      UNION ALL
      SELECT 'colour' AS kind, product_id, title, colour, currency, revenue, units,
        row_number() OVER (
          PARTITION BY currency ORDER BY revenue DESC, units DESC, product_id, colour
        ) AS place
      FROM sold
      WHERE colour IS NOT NULL
      UNION ALL
      SELECT 'units' AS kind, NULL AS product_id, NULL AS title, NULL AS colour, currency,
        NULL AS revenue, sum(units) AS units, 0 AS place
      FROM sold
      GROUP BY currency
    ) ranked
    WHERE place <= ${TOP_ITEMS}
    ORDER BY kind, currency, place`.execute(db);
  const out: LineSales = { units: new Map(), products: [], colours: [] };
  for (const r of rows) {
    if (r.kind === 'units') {
      out.units.set(r.currency, num(r.units));
      continue;
    }
    (r.kind === 'product' ? out.products : out.colours).push({
      productId: r.product_id ?? '',
      title: r.title ?? '',
      colour: r.kind === 'product' ? null : r.colour,
      currency: r.currency,
      revenueMinor: num(r.revenue),
      units: num(r.units),
    });
  }
  return out;
}

/** Top items with the currencies in the figures' order; each currency's places as the database ranked them. */
export function inCurrencyOrder(items: readonly TopItem[], currencyOrder: readonly string[]): TopItem[] {
  const rank = (c: string) => {
    const i = currencyOrder.indexOf(c);
    return i === -1 ? currencyOrder.length : i;
  };
  // A stable sort keeps each currency's places in the order the database ranked them.
  return [...items].sort((a, b) => rank(a.currency) - rank(b.currency));
}

/**
 * The range's paid orders split by whether their address (email, trimmed and lower-cased) had a paid order
 * before the range began: returning, or new. An order without an email counts as new (nothing earlier can
 * be known of it), so the two add up to the range's paid orders.
 * Two forms of the same count: for a short range each of its few orders looks its address up in the index
 * orders_email_paid (lower(trim(customer_email)), paid_at); for a long one, reading every earlier address
 * once costs less than a look-up per order. The test holds both forms to the same answer.
 */
export async function newVersusReturning(
  db: DbOrTx,
  range: PeriodRange,
  form: 'auto' | 'exists' | 'earlier-set' = 'auto',
): Promise<DashboardPeriod['customers']> {
  const exists = form === 'exists' || (form === 'auto' && range.days <= SHORT_PERIOD_MAX_DAYS);
  const { rows } = exists
    ? await sql<{ orders: unknown; returned: unknown }>`
        SELECT count(*) AS orders, coalesce(sum(CASE WHEN EXISTS (
          SELECT 1 FROM orders e
          WHERE lower(trim(e.customer_email)) = lower(trim(o.customer_email)) AND e.paid_at < ${range.startsAt}
        ) THEN 1 ELSE 0 END), 0) AS returned
        FROM orders o
        WHERE o.paid_at >= ${range.startsAt} AND o.paid_at < ${range.endsAt}`.execute(db)
    : await sql<{ orders: unknown; returned: unknown }>`
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
