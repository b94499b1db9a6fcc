import type { Db } from '../db/database.js';
import type { PeriodRange, SellThroughView } from '../shared/dashboard.js';
import { sizeKey } from '../shared/sizes.js';

/**
 * Sell-through's sold per size (sizeKey) worked out in JavaScript from every paid order and line, without the
 * dashboard's SQL or its summaries: the units kept (quantity − refunded_quantity) of the lines with a size of
 * the orders paid in the range, of one product or the whole catalogue. Small stores only.
 */
export async function oracleSold(
  db: Db,
  range: PeriodRange,
  productId: string | null,
): Promise<Record<string, number>> {
  const lines = await db
    .selectFrom('order_lines as ol')
    .innerJoin('orders as o', 'o.id', 'ol.order_id')
    .select(['o.paid_at', 'ol.product_id', 'ol.size', 'ol.quantity', 'ol.refunded_quantity'])
    .execute();
  const out: Record<string, number> = {};
  for (const l of lines) {
    if (l.paid_at === null || l.paid_at < range.startsAt || l.paid_at >= range.endsAt) continue;
    if (l.size === null || (productId !== null && l.product_id !== productId)) continue;
    const key = sizeKey(l.size);
    out[key] = (out[key] ?? 0) + Number(l.quantity) - Number(l.refunded_quantity);
  }
  return out;
}

/**
 * The view's sold per size, keyed as the oracle keys it. Sizes the view lists only because they are offered
 * or counted (no line sold them) are left out where they sold 0; a size the oracle has must be listed.
 */
export function soldOfView(view: SellThroughView, oracle: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of view.sizes) if (s.sold !== 0 || sizeKey(s.size) in oracle) out[sizeKey(s.size)] = s.sold;
  return out;
}
