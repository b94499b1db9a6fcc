import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { durableTransaction } from '../../db/durable.js';
import type { PaymentGateway } from '../payments/payment-gateway.js';
import { applySessionOutcome } from './after-payment.service.js';

/**
 * Brings pending orders up to date by asking the payment provider about each session: the path for
 * webhooks that were missed (downtime, a wrong webhook secret). Safe to run any time: status only moves on.
 * `createdBefore` leaves out checkouts still in progress (the background run does; the admin's button asks
 * about every order).
 */
export async function reconcilePendingOrders(
  deps: { db: Db; payments: PaymentGateway; clock: Clock; publicUrl: string },
  opts: { createdBefore?: Date } = {},
) {
  if (deps.payments.mode !== 'stripe') return { checked: 0, updated: 0, failed: 0 };
  let query = deps.db
    .selectFrom('orders')
    .select(['id', 'stripe_session_id'])
    .where('status', 'in', ['pending', 'processing'])
    .where('payment_mode', '=', 'stripe')
    .where('stripe_session_id', 'is not', null);
  if (opts.createdBefore) query = query.where('created_at', '<', opts.createdBefore.toISOString());
  const pending = await query.orderBy('created_at').limit(500).execute();
  let updated = 0;
  let failed = 0;
  for (const order of pending) {
    try {
      const outcome = order.stripe_session_id
        ? await deps.payments.retrieveSession(order.stripe_session_id)
        : null;
      if (!outcome) continue;
      // Durable (synchronous=FULL), as in the webhook: a payment learned here must survive a power cut.
      const applied = await durableTransaction(deps.db, (trx) =>
        applySessionOutcome(trx, { ...outcome, orderId: order.id }, deps.clock.now(), deps.publicUrl),
      );
      if (applied.changed) updated += 1;
    } catch {
      failed += 1;
    }
  }
  return { checked: pending.length, updated, failed };
}
