import type { Db } from '../../db/database.js';
import { releaseCodeUse } from '../discounts/redemptions.repository.js';

/** How long a checkout session stays payable (Stripe's expires_at; the demo's too). */
export const CHECKOUT_SESSION_LIFETIME_MS = 60 * 60_000;
/** Time after expiry for a late webhook to land before an order counts as abandoned. */
const GRACE_MS = 15 * 60_000;

/** Orders created before this were never paid in time if they are still pending. */
export function abandonedBefore(now: Date): string {
  return new Date(now.getTime() - CHECKOUT_SESSION_LIFETIME_MS - GRACE_MS).toISOString();
}

/**
 * Demo orders still pending after their session's lifetime were abandoned: they move to expired, out of the
 * admin's list and of everything that looks at pending orders. Stripe orders are left to Stripe's word (the
 * webhook, or reconciliation asking about them): expiring one here could hide a payment whose webhook was
 * missed. An abandoned order's discount code use goes back (decision 0037).
 */
export async function expireAbandonedDemoOrders(db: Db, now: Date): Promise<number> {
  const abandoned = await db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'pending')
    .where('payment_mode', '=', 'demo')
    // Only card checkouts: an order paid at the door or by transfer keeps its own deadline (offline-expiry.ts).
    .where('payment_method', '=', 'card')
    .where('created_at', '<', abandonedBefore(now))
    .limit(1000)
    .execute();
  let expired = 0;
  for (const { id } of abandoned) {
    expired += await db.transaction().execute(async (trx) => {
      // Conditional on pending: a payment that came meanwhile wins.
      const moved = await trx
        .updateTable('orders')
        .set({ status: 'expired', updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('payment_method', '=', 'card')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return 0;
      await releaseCodeUse(trx, id, now);
      return 1;
    });
  }
  return expired;
}
