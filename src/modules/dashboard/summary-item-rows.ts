import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import { type NamedSpan, nextMonth } from '../../shared/dashboard-period.js';
import { outerBounds, spansCte } from './summary-rows.js';

/**
 * The summaries of what the paid lines sold (decision 0041 "Speed"): per shop day from the lines, per shop
 * month from the day rows. A payment then sums one day's few hundred lines again and its month from some
 * thousands of narrow day rows, instead of the month's lines. The check sums the months from the lines
 * (`*FromLines` with month spans), so a month that drifted from its days is found too.
 */

export const ITEM_COLUMNS = ['currency', 'product_id', 'colour', 'title', 'revenue_minor', 'units'] as const;
export const SIZE_COLUMNS = ['product_id', 'size', 'sold'] as const;

/** Which span a row is keyed by: dashboard_day_* by day, dashboard_month* by month. */
export type SpanKey = 'day' | 'month';

/**
 * The lines of each order `o`. For a few days on PostgreSQL, looked up by order (order_lines_order), one
 * order at a time (a refresh's few marked days): left to itself the planner hashed the day's thousand orders and read every line of the
 * shop in parallel to find theirs (100,000 orders: 90-110 ms a statement, against a few). OFFSET 0 keeps
 * it from flattening the lookup back into that join. Months and longer spans (a rebuild, the check) read everything
 * anyway, where the hash join is right; SQLite looks the lines up by order either way.
 */
function linesOf(db: DbOrTx, spans: readonly NamedSpan[], key: SpanKey): RawBuilder<unknown> {
  if (engineOf(db) !== 'postgres' || key !== 'day' || spans.length > FEW_DAYS)
    return sql`JOIN order_lines ol ON ol.order_id = o.id`;
  return sql`CROSS JOIN LATERAL (
      SELECT l.product_id, l.colour, l.title, l.line_total_minor, l.quantity, l.refunded_quantity, l.size
      FROM order_lines l WHERE l.order_id = o.id OFFSET 0
    ) ol`;
}

/** Up to this many spans the lines are looked up order by order on PostgreSQL (linesOf). */
const FEW_DAYS = 7;

/**
 * The spans' paid lines per currency, product and colour ('' for lines bought without one), what they were
 * charged (line_total_minor) and their units; the title the lines were bought under (max, as the top lists
 * take it).
 */
export function itemsFromLines(db: DbOrTx, spans: readonly NamedSpan[], key: SpanKey): RawBuilder<unknown> {
  const { from, to } = outerBounds(spans);
  return sql`
    WITH ${spansCte(db, spans)}
    SELECT s.name AS ${sql.ref(key)}, o.currency AS currency, ol.product_id AS product_id,
      coalesce(ol.colour, '') AS colour, max(ol.title) AS title,
      sum(ol.line_total_minor) AS revenue_minor, sum(ol.quantity) AS units
    FROM spans s
    CROSS JOIN orders o
    ${linesOf(db, spans, key)}
    WHERE o.paid_at >= s.starts_at AND o.paid_at < s.ends_at AND o.paid_at >= ${from} AND o.paid_at < ${to}
    GROUP BY s.name, o.currency, ol.product_id, coalesce(ol.colour, '')`;
}

/**
 * Sell-through's sold per product and size as the lines wrote it: the units kept (quantity −
 * refunded_quantity, the refund as it is now) of the spans' paid lines with a size. A size whose units were
 * all refunded keeps its row of 0: sell-through lists the sizes that sold in the period.
 */
export function sizesFromLines(db: DbOrTx, spans: readonly NamedSpan[], key: SpanKey): RawBuilder<unknown> {
  const { from, to } = outerBounds(spans);
  return sql`
    WITH ${spansCte(db, spans)}
    SELECT s.name AS ${sql.ref(key)}, ol.product_id AS product_id, ol.size AS size,
      sum(ol.quantity - ol.refunded_quantity) AS sold
    FROM spans s
    CROSS JOIN orders o
    ${linesOf(db, spans, key)}
    WHERE o.paid_at >= s.starts_at AND o.paid_at < s.ends_at AND o.paid_at >= ${from} AND o.paid_at < ${to}
      AND ol.size IS NOT NULL
    GROUP BY s.name, ol.product_id, ol.size`;
}

/** `months(name, first_day, next_day)`: each month's days are those named from first_day up to next_day. */
function monthsCte(months: readonly string[]): RawBuilder<unknown> {
  if (months.length === 0) throw new Error('At least one month');
  const rows = months.map((m) => sql`(${m}, ${`${m}-01`}, ${`${nextMonth(m)}-01`})`);
  return sql`months(name, first_day, next_day) AS (VALUES ${sql.join(rows)})`;
}

/**
 * `AND (columns) IN (VALUES …)`: only the given keys' rows, none when `keys` is null (every row). Key columns
 * are NOT NULL, so IN is the plain match it reads as.
 */
function onlyKeys(
  columns: readonly string[],
  keys: readonly (readonly string[])[] | null,
): RawBuilder<unknown> {
  if (keys === null) return sql``;
  if (keys.length === 0) return sql`AND 1 = 0`;
  const rows = keys.map((k) => sql`(${sql.join(k)})`);
  return sql`AND (${sql.raw(columns.map((c) => `d.${c}`).join(', '))}) IN (VALUES ${sql.join(rows)})`;
}

export const ITEM_KEYS = ['currency', 'product_id', 'colour'] as const;
export const SIZE_KEYS = ['product_id', 'size'] as const;

/**
 * The months' item rows summed from their days' (dashboard_day_items, summed first), of every key or only
 * `keys`. A month's shop days span exactly its instants, so this equals the month's lines summed.
 * `months CROSS JOIN` has SQLite take each month and search its days by the primary key (PostgreSQL plans it
 * as the inner join it is).
 */
export function monthItemsFromDays(
  months: readonly string[],
  keys: readonly (readonly string[])[] | null = null,
): RawBuilder<unknown> {
  return sql`
    WITH ${monthsCte(months)}
    SELECT m.name AS month, d.currency AS currency, d.product_id AS product_id, d.colour AS colour,
      max(d.title) AS title, sum(d.revenue_minor) AS revenue_minor, sum(d.units) AS units
    FROM months m
    CROSS JOIN dashboard_day_items d
    WHERE d.day >= m.first_day AND d.day < m.next_day ${onlyKeys(ITEM_KEYS, keys)}
    GROUP BY m.name, d.currency, d.product_id, d.colour`;
}

/** The months' size rows summed from their days' (dashboard_day_sizes), of every key or only `keys`. */
export function monthSizesFromDays(
  months: readonly string[],
  keys: readonly (readonly string[])[] | null = null,
): RawBuilder<unknown> {
  return sql`
    WITH ${monthsCte(months)}
    SELECT m.name AS month, d.product_id AS product_id, d.size AS size, sum(d.sold) AS sold
    FROM months m
    CROSS JOIN dashboard_day_sizes d
    WHERE d.day >= m.first_day AND d.day < m.next_day ${onlyKeys(SIZE_KEYS, keys)}
    GROUP BY m.name, d.product_id, d.size`;
}

/** The months' rows of `keys` deleted, before they are summed again from their days. */
export function deleteMonthKeys(
  table: 'dashboard_months' | 'dashboard_month_sizes',
  months: readonly string[],
  keys: readonly (readonly string[])[],
): RawBuilder<unknown> {
  const columns = table === 'dashboard_months' ? ITEM_KEYS : SIZE_KEYS;
  return sql`DELETE FROM ${sql.table(table)} AS d WHERE d.month IN (${sql.join(months)}) ${onlyKeys(columns, keys)}`;
}
