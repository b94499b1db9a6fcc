import type { DbOrTx, OrderStatus } from '../../db/database.js';
import { oneAtATime } from '../../db/engine-sql.js';
import { redeemCodeUse, releaseCodeUse } from '../discounts/redemptions.repository.js';
import type { PaymentEvent, SessionOutcome } from '../payments/payment-gateway.js';
import { releaseReservations, sellReservations } from '../stock/reservations.js';
import { type OrderEventKind, recordOrderEvent } from './order-events.repository.js';
import { queueOrderEmail } from './order-mail.js';
import { canMove } from './order-status.js';
import { findOrderOfSession, flagStockProblem, moveOrderToOutcome } from './orders.repository.js';
import { insertPaymentEvent, paymentEventSeen } from './payment-events.repository.js';
import { applyProviderRefund } from './refunds.service.js';

/**
 * After the payment (decision 0019): what the payment provider says of a session moves its order forward,
 * and a payment sells the held stock, flags what was oversold and queues the confirmation email. Every step
 * writes through the caller's transaction, so the change and all it causes commit together or not at all.
 */

/** The status changes an order's timeline tells of (processing is a moment on the way to paid). */
const EVENT_OF_STATUS: Partial<Record<OrderStatus, OrderEventKind>> = {
  paid: 'paid',
  payment_failed: 'payment_failed',
  expired: 'expired',
};

/**
 * Applies what the payment provider says about a session to its order, only ever moving the status forward.
 * Returns whether anything changed and which order it was (null when no order has that session).
 */
export async function applySessionOutcome(
  trx: DbOrTx,
  outcome: SessionOutcome,
  now: Date,
  /** The store's address, for the order page link in the confirmation email a payment queues. */
  publicUrl: string,
): Promise<{ orderId: string | null; changed: boolean; from?: OrderStatus }> {
  // A return's price difference names its order in metadata too: it never pays (or expires) the order.
  if (isDifferenceOutcome(outcome)) return { orderId: null, changed: false };
  const order = await findOrderOfSession(trx, outcome.sessionId, outcome.orderId);
  if (!order) return { orderId: null, changed: false };
  if (!canMove(order.status, outcome.status))
    return { orderId: order.id, changed: false, from: order.status };
  await moveOrderToOutcome(trx, { id: order.id, from: order.status }, outcome, now);
  const told = EVENT_OF_STATUS[outcome.status];
  if (told) {
    await recordOrderEvent(trx, {
      orderId: order.id,
      kind: told,
      actor: order.payment_mode === 'stripe' ? 'Stripe' : 'shopper (demo payment)',
      detail:
        outcome.status === 'paid'
          ? { amountMinor: outcome.amountTotalMinor ?? order.subtotal_minor, currency: outcome.currency }
          : {},
      at: now,
    });
  }
  if (outcome.status === 'paid') {
    await afterPayment(trx, order.id, now, publicUrl);
  } else if (outcome.status === 'expired' || outcome.status === 'payment_failed') {
    await releaseReservations(trx, order.id);
    // The code's use goes back with the stock (decision 0037).
    await releaseCodeUse(trx, order.id, now);
  }
  return { orderId: order.id, changed: true, from: order.status };
}

/** A session that pays a return's price difference (decision 0039), not an order's checkout. */
export function isDifferenceOutcome(outcome: SessionOutcome): boolean {
  return typeof outcome.returnId === 'string' || outcome.purpose === 'return_difference';
}

/**
 * Applies a difference session's outcome to its return (modules/returns, above this one, so it is handed
 * in): what it did, for the event's record, and the order it belongs to.
 */
export type DifferenceOutcomeHandler = (
  trx: DbOrTx,
  outcome: SessionOutcome,
  now: Date,
  publicUrl: string,
) => Promise<{ orderId: string | null; outcome: string }>;

/** A paid order's consequences: its held units sold, an oversold order flagged, the confirmation queued. */
async function afterPayment(trx: DbOrTx, orderId: string, now: Date, publicUrl: string): Promise<void> {
  const short = await sellReservations(trx, orderId);
  await redeemCodeUse(trx, orderId, now);
  if (short.length > 0) {
    // Never oversold in silence: the admin sees the flag and refunds (or finds the piece).
    await flagStockProblem(
      trx,
      orderId,
      `Paid for more than was in stock: ${short.join(', ')}. Refund it, or restock.`,
    );
    await recordOrderEvent(trx, { orderId, kind: 'oversold', actor: 'store', detail: { short }, at: now });
  }
  await queueOrderEmail(trx, { kind: 'order_confirmation', orderId, publicUrl, now });
}

/**
 * Applies a payment provider's event to its order and records the event, once: a replay (or two deliveries
 * at once) changes nothing the second time. The caller holds the transaction, so the record and the effect
 * commit together.
 */
export async function recordPaymentEvent(
  trx: DbOrTx,
  event: PaymentEvent,
  now: Date,
  publicUrl: string,
  /** Where a session paying a return's price difference goes instead of its order. */
  applyDifference: DifferenceOutcomeHandler,
): Promise<{ duplicate: boolean; outcome: string }> {
  // Two deliveries of one event at once: the second waits here for the first to commit, then sees it
  // (SQLite's writes take turns anyway; PostgreSQL's read committed would let both pass the check).
  await oneAtATime(trx, `payment-event:${event.id}`);
  if (await paymentEventSeen(trx, event.id)) return { duplicate: true, outcome: 'duplicate' };
  let outcome = 'ignored';
  let orderId: string | null = null;
  if (event.refund) {
    const applied = await applyProviderRefund(trx, event.refund, now, publicUrl);
    orderId = applied.orderId;
    outcome = applied.outcome;
  } else if (event.outcome && isDifferenceOutcome(event.outcome)) {
    const applied = await applyDifference(trx, event.outcome, now, publicUrl);
    orderId = applied.orderId;
    outcome = applied.outcome;
  } else if (event.outcome) {
    const applied = await applySessionOutcome(trx, event.outcome, now, publicUrl);
    orderId = applied.orderId;
    outcome = !applied.orderId
      ? 'unknown-session'
      : applied.changed
        ? `${applied.from}->${event.outcome.status}`
        : `unchanged (${applied.from})`;
  }
  await insertPaymentEvent(trx, { id: event.id, type: event.type, orderId, outcome, receivedAt: now });
  return { duplicate: false, outcome };
}
