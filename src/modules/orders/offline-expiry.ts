import type { Db } from '../../db/database.js';
import { releaseCodeUse } from '../discounts/redemptions.repository.js';
import { paymentMethodOf } from '../payments/payment-method.js';
import { readPaymentMethods } from '../settings/payment-method-settings.js';
import { releaseReservations } from '../stock/reservations.js';
import { queueOfflineOrderEmail } from './offline-order-mail.js';
import { recordOrderEvent } from './order-events.repository.js';

/**
 * Pending offline orders whose time ran out (decision 0038): cash on delivery not confirmed by its
 * deadline, a transfer not received within the holding time (from its placing, as the method reckons it).
 * Each moves to expired by one conditional UPDATE (a confirmation or a recorded transfer that came
 * meanwhile wins), gives back its stock and its code use, and queues the email, in one transaction.
 * Returns how many expired; the caller tells back-in-stock.
 */
export async function expireOfflineOrders(db: Db, now: Date, publicUrl: string): Promise<number> {
  const settings = await readPaymentMethods(db);
  const iso = now.toISOString();
  const bankTerms = paymentMethodOf('bank_transfer').pendingTerms(settings, now);
  // A transfer placed at or before this has held its stock for the whole holding time.
  const holdMs = (bankTerms?.holdUntil.getTime() ?? now.getTime()) - now.getTime();
  const bankPlacedBefore = new Date(now.getTime() - holdMs).toISOString();
  const due = await db
    .selectFrom('orders')
    .select(['id', 'payment_method'])
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb.and([eb('payment_method', '=', 'cash_on_delivery'), eb('confirm_by', '<=', iso)]),
        eb.and([eb('payment_method', '=', 'bank_transfer'), eb('created_at', '<=', bankPlacedBefore)]),
      ]),
    )
    .limit(1000)
    .execute();
  let expired = 0;
  for (const { id, payment_method: method } of due) {
    expired += await db.transaction().execute(async (trx) => {
      let moved = trx
        .updateTable('orders')
        .set({ status: 'expired', updated_at: iso })
        .where('id', '=', id)
        .where('status', '=', 'pending');
      moved =
        method === 'cash_on_delivery'
          ? moved.where('confirm_by', '<=', iso)
          : moved.where('created_at', '<=', bankPlacedBefore);
      if (Number((await moved.executeTakeFirst()).numUpdatedRows) === 0) return 0;
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
