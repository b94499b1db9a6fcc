import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import type { PeriodRange, TopItem } from '../../shared/dashboard.js';
import { num } from './sql-number.js';
import { summaryParts } from './summary-parts.js';

/** Rows per currency in the top products and top colours. */
export const TOP_ITEMS = 10;

/** The top products and colours of the range's paid lines. */
export type LineSales = { products: TopItem[]; colours: TopItem[] };

/**
 * What the range's paid lines sold, per currency, product and colour ('' without one), from the summaries
 * alone (refreshSummary first): the range's months and edge days (summaryParts), added together. No line is
 * read.
 */
function soldParts(range: PeriodRange): RawBuilder<unknown> {
  const parts = summaryParts(range, {
    days: (run) => sql`
      SELECT currency, product_id, colour, title, revenue_minor AS revenue, units
      FROM dashboard_day_items WHERE day >= ${run.first} AND day <= ${run.last}`,
    months: (first, last) => sql`
      SELECT currency, product_id, colour, title, revenue_minor AS revenue, units
      FROM dashboard_months WHERE month >= ${first} AND month <= ${last}`,
  });
  return sql`WITH sold AS MATERIALIZED (
      SELECT currency, product_id, colour, max(title) AS title, sum(revenue) AS revenue, sum(units) AS units
      FROM (${sql.join(parts, sql` UNION ALL `)}) parts
      GROUP BY currency, product_id, colour
    )`;
}

/**
 * The range's top products and colours, per currency, ranked by what their lines were charged
 * (line_total_minor: after the sale and their share of the code), largest first, then units, product id,
 * colour. The title is the one the lines were bought under. Colours are only lines bought in one (a product
 * without colours has none). MATERIALIZED keeps both engines from summing `sold` once per use.
 */
export async function lineSales(db: DbOrTx, range: PeriodRange): Promise<LineSales> {
  const { rows } = await sql<{
    kind: 'product' | 'colour';
    product_id: string;
    title: string;
    colour: string;
    currency: string;
    revenue: unknown;
    units: unknown;
  }>`
    ${soldParts(range)}
    SELECT kind, product_id, title, colour, currency, revenue, units FROM (
      SELECT 'product' AS kind, product_id, max(title) AS title, '' AS colour, currency,
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
      WHERE colour <> ''
    ) ranked
    WHERE place <= ${TOP_ITEMS}
    ORDER BY kind, currency, place`.execute(db);
  const out: LineSales = { products: [], colours: [] };
  for (const r of rows)
    (r.kind === 'product' ? out.products : out.colours).push({
      productId: r.product_id,
      title: r.title,
      colour: r.kind === 'product' ? null : r.colour,
      currency: r.currency,
      revenueMinor: num(r.revenue),
      units: num(r.units),
    });
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
