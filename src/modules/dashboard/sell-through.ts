import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { parseJsonArray } from '../../db/json-columns.js';
import type { PeriodRange, SellThroughView, SizeSellThrough } from '../../shared/dashboard.js';
import { reorderMix } from '../../shared/reorder-mix.js';
import { productSpelling, sizeKey, sortSizes } from '../../shared/sizes.js';
import { summaryParts } from './summary-parts.js';

/**
 * Sell-through per size (issue 44, decision 0041 "Sell-through and the reorder mix").
 *
 * - Sold: the units of the lines of the orders paid in the period, the very orders the orders CSV exports for
 *   it (paid_at in [startsAt, endsAt), whatever happened to them since), less the units refunded from those
 *   lines (refunded_quantity, whenever refunded): a refunded unit was not a sale, and one that came back to
 *   stock is counted again in on hand. An exchange keeps the unit sold in the size first bought.
 * - On hand: size_stock.on_hand now, every colour's count summed. A size without a count is not tracked: on
 *   hand 0 and no rate.
 * - One product: its sizes in its own order (then any size it sold or counts but no longer offers, in size
 *   order); the whole catalogue: by size name (sizeKey: ' m ' is M), in size order (sortSizes).
 * - Two grouped queries, one for sales and one for stock; no order or line is read into JS one by one.
 *   Sales are read from the summaries (refreshSummary first, decision 0041 "Speed"): the period's whole shop
 *   months from dashboard_month_sizes, the days at its edges from dashboard_day_sizes; no line is read.
 */

export type SellThroughQuery = { productId: string | null; range: PeriodRange; reorderPieces: number };

/**
 * Units kept per size in the range: one product's spellings as its lines wrote them, the catalogue's by size
 * name (upper(trim(size))), as the lines themselves would be grouped.
 */
async function soldBySize(
  db: DbOrTx,
  productId: string | null,
  range: PeriodRange,
): Promise<{ size: string; sold: unknown }[]> {
  const ofProduct = productId === null ? sql`` : sql`AND product_id = ${productId}`;
  const parts = summaryParts(range, {
    days: (run) => sql`
      SELECT size, sold FROM dashboard_day_sizes
      WHERE day >= ${run.first} AND day <= ${run.last} ${ofProduct}`,
    months: (first, last) => sql`
      SELECT size, sold FROM dashboard_month_sizes
      WHERE month >= ${first} AND month <= ${last} ${ofProduct}`,
  });
  const size = productId === null ? sql`upper(trim(size))` : sql`size`;
  const { rows } = await sql<{ size: string; sold: unknown }>`
    SELECT ${size} AS size, sum(sold) AS sold
    FROM (${sql.join(parts, sql` UNION ALL `)}) parts
    GROUP BY ${size}`.execute(db);
  return rows;
}

type Tally = { sold: number; onHand: number; tracked: boolean };

/** null when the product does not exist. */
export async function sellThrough(db: DbOrTx, query: SellThroughQuery): Promise<SellThroughView | null> {
  const { productId, range } = query;
  const product = productId
    ? await db
        .selectFrom('products')
        .select(['title', 'sizes'])
        .where('id', '=', productId)
        .executeTakeFirst()
    : null;
  if (productId && !product) return null;

  // Per product: its own spellings grouped as written; across the catalogue: one row per size name.
  const sizeOf = (column: string) =>
    productId ? sql<string>`${sql.ref(column)}` : sql<string>`upper(trim(${sql.ref(column)}))`;

  const [soldRows, stockRows] = await Promise.all([
    soldBySize(db, productId, range),
    db
      .selectFrom('size_stock')
      .select((eb) => [sizeOf('size').as('size'), eb.fn.sum<number | string>('on_hand').as('on_hand')])
      .$if(productId !== null, (qb) => qb.where('product_id', '=', productId ?? ''))
      .groupBy(sizeOf('size'))
      .execute(),
  ]);

  const offered = product ? parseJsonArray(product.sizes) : [];
  const tallies = new Map<string, Tally>();
  const tallyOf = (size: string): Tally => {
    const key = sizeKey(size);
    let t = tallies.get(key);
    if (!t) {
      t = { sold: 0, onHand: 0, tracked: false };
      tallies.set(key, t);
    }
    return t;
  };
  const names = new Map<string, string>();
  const name = (size: string) => {
    const key = sizeKey(size);
    if (!names.has(key)) names.set(key, productId ? productSpelling(offered, size) : key);
  };
  for (const size of offered) name(size);
  for (const r of soldRows) {
    name(r.size);
    tallyOf(r.size).sold += Number(r.sold);
  }
  for (const r of stockRows) {
    name(r.size);
    const t = tallyOf(r.size);
    t.onHand += Number(r.on_hand);
    t.tracked = true;
  }

  const offeredKeys = new Set(offered.map(sizeKey));
  // Sizes of one rank (outside XXS…XXXL) in alphabetical order, not the order the database grouped them in.
  const extra = sortSizes(
    [...names.values()]
      .filter((n) => !offeredKeys.has(sizeKey(n)))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  // One row per size, however many spellings of it the product lists.
  const ordered = [...new Set([...offered, ...extra].map(sizeKey))];
  const rows = ordered.map((key) => ({
    size: names.get(key) ?? key,
    ...(tallies.get(key) ?? { sold: 0, onHand: 0, tracked: false }),
  }));
  const mix =
    rows.length === 0
      ? []
      : reorderMix(
          rows.map((r) => ({ sold: r.sold, soldOut: r.tracked && r.onHand === 0 && r.sold > 0 })),
          query.reorderPieces,
        );
  const sizes: SizeSellThrough[] = rows.map((r, i) => ({
    size: r.size,
    sold: r.sold,
    onHand: r.onHand,
    rate: r.tracked && r.sold + r.onHand > 0 ? r.sold / (r.sold + r.onHand) : null,
    reorder: mix[i] ?? 0,
  }));
  return {
    range,
    productId,
    title: product?.title ?? null,
    reorderPieces: query.reorderPieces,
    sizes,
  };
}
