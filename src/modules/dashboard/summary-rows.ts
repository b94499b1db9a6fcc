import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database, DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import type { NamedSpan } from '../../shared/dashboard-period.js';

/**
 * What the dashboard's summaries hold for given shop days and months, summed from the orders and their lines
 * (decision 0041 "Speed"). The refresh writes these rows; the check compares the tables with them.
 */

/** At most this many spans in one statement: a year of days, so a long rebuild is a few statements. */
export const SPANS_PER_STATEMENT = 366;

/**
 * `spans(name, starts_at, ends_at)`, one row a span, its instants computed in JS (neither engine knows the
 * zone's rules as Intl does); PostgreSQL compares timestamptz, SQLite the ISO text the store writes.
 */
export function spansCte(db: DbOrTx, spans: readonly NamedSpan[]): RawBuilder<unknown> {
  if (spans.length === 0) throw new Error('At least one span');
  const postgres = engineOf(db) === 'postgres';
  const rows = spans.map((s) =>
    postgres
      ? sql`(${s.name}, CAST(${s.startsAt} AS timestamptz), CAST(${s.endsAt} AS timestamptz))`
      : sql`(${s.name}, ${s.startsAt}, ${s.endsAt})`,
  );
  return sql`spans(name, starts_at, ends_at) AS (VALUES ${sql.join(rows)})`;
}

/**
 * The spans' outer bounds, also on the join. `spans CROSS JOIN orders` is how SQLite is told to take each
 * span and search its orders in the paid_at index: left to itself it read the range's orders and scanned
 * every span for each (a year at 18,000 orders: 745 ms). PostgreSQL plans it as the inner join it is.
 */
export function outerBounds(spans: readonly NamedSpan[]): { from: string; to: string } {
  let from = spans[0]?.startsAt ?? '';
  let to = spans[0]?.endsAt ?? '';
  for (const s of spans) {
    if (s.startsAt < from) from = s.startsAt;
    if (s.endsAt > to) to = s.endsAt;
  }
  return { from, to };
}

export const DAY_COLUMNS = [
  'day',
  'currency',
  'payment_method',
  'revenue_minor',
  'orders',
  'discounts_minor',
  'units',
  'returning_orders',
] as const;

/**
 * The days' rows: their paid orders per currency and payment method. Revenue is the CSV's order_total
 * (total_minor, or the subtotal of orders from before totals were kept), discounts what sales and codes took
 * off, units the orders' lines' quantities; an order is returning when its address (email, trimmed and
 * lower-cased) paid an order at an earlier instant (the same instant is not earlier; no email: new).
 */
export function dayRowsQuery(db: DbOrTx, days: readonly NamedSpan[]): RawBuilder<unknown> {
  const { from, to } = outerBounds(days);
  return sql`
    WITH ${spansCte(db, days)}
    SELECT s.name AS day, o.currency AS currency, o.payment_method AS payment_method,
      sum(coalesce(o.total_minor, o.subtotal_minor)) AS revenue_minor, count(*) AS orders,
      sum(o.sales_minor + o.discount_minor) AS discounts_minor,
      coalesce(sum((SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = o.id)), 0) AS units,
      sum(CASE WHEN EXISTS (
        SELECT 1 FROM orders e
        WHERE lower(trim(e.customer_email)) = lower(trim(o.customer_email)) AND e.paid_at < o.paid_at
      ) THEN 1 ELSE 0 END) AS returning_orders
    FROM spans s
    CROSS JOIN orders o
    WHERE o.paid_at >= s.starts_at AND o.paid_at < s.ends_at AND o.paid_at >= ${from} AND o.paid_at < ${to}
    GROUP BY s.name, o.currency, o.payment_method`;
}

/** Spans cut into statements of at most SPANS_PER_STATEMENT. */
export function inChunks<T>(items: readonly T[], size = SPANS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * `work` in one transaction (the caller's, if it is in one) with PostgreSQL's JIT off: the planner guesses a
 * year's join of days and orders at millions of rows, and compiling it took a second on the bench's store
 * for a query that runs in tens of milliseconds. In a transaction of its own, its commit does not wait for
 * the WAL to reach the disk either: a summary lost with a crash loses the deletion of its marks with it, so
 * the next read sums those days again (the flush is about 1 ms on an idle disk, more on a busy one). A
 * caller's transaction keeps its own durability.
 */
export async function inSummaryTransaction<T>(
  db: DbOrTx,
  work: (tx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const run = async (tx: Transaction<Database>, own: boolean) => {
    if (engineOf(tx) === 'postgres') {
      await sql`SET LOCAL jit = off`.execute(tx);
      if (own) await sql`SET LOCAL synchronous_commit = off`.execute(tx);
    }
    return work(tx);
  };
  return db.isTransaction
    ? run(db as Transaction<Database>, false)
    : db.transaction().execute((tx) => run(tx, true));
}
