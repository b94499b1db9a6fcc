import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { RETURN_STATUSES_COUNTED } from '../../shared/returns.js';

export type ReturnReasonsReport = {
  deliveredUnits: number;
  returnedUnits: number;
  /** returnedUnits / deliveredUnits, 0 when nothing was delivered. */
  rate: number;
  bySizeAndReason: Array<{ size: string | null; reason: string; count: number }>;
};

/**
 * What tells the owner to fix a size chart: how many of a product's units that reached shoppers came back,
 * and why, by the size bought ("too small: 9 of 12 returns in M"). Delivered units are those of orders
 * shipped or delivered (delivery is not always recorded); returned units those of returns not declined or
 * cancelled, counted as units, not returns.
 */
export async function reasonsByProduct(db: DbOrTx, productId: string): Promise<ReturnReasonsReport> {
  const [delivered, rows] = await Promise.all([
    db
      .selectFrom('order_lines as ol')
      .innerJoin('orders as o', 'o.id', 'ol.order_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('ol.quantity'), eb.lit(0)).as('units'))
      .where('ol.product_id', '=', productId)
      .where('o.fulfilment', 'in', ['shipped', 'delivered'])
      .executeTakeFirst(),
    db
      .selectFrom('return_lines as rl')
      .innerJoin('returns as r', 'r.id', 'rl.return_id')
      .innerJoin('order_lines as ol', 'ol.id', 'rl.order_line_id')
      .select(['ol.size', 'r.reason', sql<number>`sum(rl.quantity)`.as('units')])
      .where('ol.product_id', '=', productId)
      .where('r.status', 'in', [...RETURN_STATUSES_COUNTED])
      .groupBy(['ol.size', 'r.reason'])
      .orderBy(sql`sum(rl.quantity)`, 'desc')
      .orderBy('ol.size')
      .orderBy('r.reason')
      .execute(),
  ]);
  const deliveredUnits = Number(delivered?.units ?? 0);
  const bySizeAndReason = rows.map((r) => ({ size: r.size, reason: r.reason, count: Number(r.units) }));
  const returnedUnits = bySizeAndReason.reduce((sum, r) => sum + r.count, 0);
  return {
    deliveredUnits,
    returnedUnits,
    rate: deliveredUnits === 0 ? 0 : returnedUnits / deliveredUnits,
    bySizeAndReason,
  };
}
