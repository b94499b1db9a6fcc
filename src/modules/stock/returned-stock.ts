import type { DbOrTx } from '../../db/database.js';
import { releaseReservations } from './reservations.js';

/**
 * Puts an order's units back on the shelf: a parcel returned to origin that the owner restocks, or an unpaid
 * cash-on-delivery or transfer order cancelled (decision 0038). Held units are released; sold ones (a
 * confirmed order's stock may already have left the count) go back on hand. Each reservation moves once
 * (conditional on its state), so two callers never give the same units back twice. Returns the units given
 * back, for the back-in-stock nudge.
 */
export async function putBackOrderStock(trx: DbOrTx, orderId: string): Promise<number> {
  const held = await trx
    .selectFrom('stock_reservations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quantity'), eb.lit(0)).as('units'))
    .where('order_id', '=', orderId)
    .where('state', '=', 'held')
    .executeTakeFirst();
  await releaseReservations(trx, orderId);
  let units = Number(held?.units ?? 0);
  const sold = await trx
    .selectFrom('stock_reservations')
    .select(['id', 'product_id', 'colour', 'size', 'quantity'])
    .where('order_id', '=', orderId)
    .where('state', '=', 'sold')
    .execute();
  for (const r of sold) {
    const moved = await trx
      .updateTable('stock_reservations')
      .set({ state: 'released' })
      .where('id', '=', r.id)
      .where('state', '=', 'sold')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) continue;
    // A size no longer tracked (made to order now) has no count to put them back in.
    await trx
      .updateTable('size_stock')
      .set((eb) => ({ on_hand: eb('on_hand', '+', r.quantity) }))
      .where('product_id', '=', r.product_id)
      .where('colour', '=', r.colour)
      .where('size', '=', r.size)
      .execute();
    units += r.quantity;
  }
  return units;
}
