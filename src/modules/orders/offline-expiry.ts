import type { Db } from '../../db/database.js';
import { releaseCodeUse } from '../discounts/redemptions.repository.js';
import { releaseReservations } from '../stock/reservations.js';
import { queueOfflineOrderEmail } from './offline-order-mail.js';
import { recordOrderEvent } from './order-events.repository.js';

/**
 * Pending offline orders whose time ran out (decision 0038): cash on delivery not confirmed by its
 * deadline, a transfer not received by its own (both stored at placing, as the stock's hold).
 * Each moves to expired by one conditional UPDATE (a confirmation or a recorded transfer that came
 * meanwhile wins), gives back its stock and its code use, and queues the email, in one transaction.
 * Returns how many expired; the caller tells back-in-stock.
 */
export async function expireOfflineOrders(db: Db, now: Date, publicUrl: string): Promise<number> {
  const iso = now.toISOString();
  const due = await db
    .selectFrom('orders')
    .select(['id', 'payment_method'])
    .where('status', '=', 'pending')
    .where('payment_method', 'in', ['cash_on_delivery', 'bank_transfer'])
    .where('confirm_by', '<=', iso)
    // The owner cancelled it: its stock and code use went back then, and the shopper was told.
    .where('fulfilment', '!=', 'cancelled')
    .limit(1000)
    .execute();
  let expired = 0;
  for (const { id, payment_method: method } of due) {
    expired += await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('orders')
        .set({ status: 'expired', updated_at: iso })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('confirm_by', '<=', iso)
        .where('fulfilment', '!=', 'cancelled')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return 0;
      await releaseReservations(trx, id);
      await releaseCodeUse(trx, id, now);
      await recordOrderEvent(trx, {
        orderId: id,
        kind: 'expired',
        actor: 'store',
        detail: { method, why: method === 'cash_on_delivery' ? 'not_confirmed' : 'not_paid' },
        at: now,
      });
      await queueOfflineOrderEmail(trx, { kind: 'offline_expired', orderId: id, publicUrl, now });
      return 1;
    });
  }
  return expired;
}
