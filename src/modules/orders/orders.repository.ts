import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTx, OrderStatus } from '../../db/database.js';
import { oneAtATime } from '../../db/engine-sql.js';
import type { OrderSummary } from '../../shared/checkout.js';
import type { PaymentEvent, SessionOutcome } from '../payments/payment-gateway.js';
import { releaseReservations, sellReservations } from '../stock/reservations.js';
import { newAccessToken, orderPagePath } from './order-access.js';
import { type OrderEventKind, recordOrderEvent } from './order-events.repository.js';
import { queueOrderEmail } from './order-mail.js';
import { canMove } from './order-status.js';
import { applyProviderRefund } from './refunds.service.js';

export type NewOrderLine = {
  productId: string;
  title: string;
  size: string | null;
  quantity: number;
  unitPriceMinor: number;
  imageUrl: string | null;
};

export function newOrderId(): string {
  return `ord_${randomBytes(12).toString('base64url')}`;
}

/** Inserts a pending order and its line snapshot; call inside a transaction. */
export async function insertPendingOrder(
  trx: DbOrTx,
  order: { id: string; currency: string; paymentMode: 'stripe' | 'demo'; lines: NewOrderLine[]; now: Date },
): Promise<{ number: number; subtotalMinor: number }> {
  await oneAtATime(trx, 'orders.number');
  const last = await trx
    .selectFrom('orders')
    .select(sql<number | null>`max(number)`.as('n'))
    .executeTakeFirst();
  const number = (last?.n ?? 1000) + 1;
  const subtotalMinor = order.lines.reduce((sum, l) => sum + l.unitPriceMinor * l.quantity, 0);
  const iso = order.now.toISOString();
  await trx
    .insertInto('orders')
    .values({
      id: order.id,
      number,
      status: 'pending',
      payment_mode: order.paymentMode,
      currency: order.currency,
      subtotal_minor: subtotalMinor,
      total_minor: null,
      customer_email: null,
      customer_name: null,
      shipping_address: null,
      billing_address: null,
      stripe_session_id: null,
      created_at: iso,
      updated_at: iso,
      paid_at: null,
      access_token: newAccessToken(),
    })
    .execute();
  await recordOrderEvent(trx, {
    orderId: order.id,
    kind: 'created',
    actor: 'shopper',
    detail: { paymentMode: order.paymentMode },
    at: order.now,
  });
  await trx
    .insertInto('order_lines')
    .values(
      order.lines.map((l) => ({
        order_id: order.id,
        product_id: l.productId,
        title: l.title,
        size: l.size,
        quantity: l.quantity,
        unit_price_minor: l.unitPriceMinor,
        line_total_minor: l.unitPriceMinor * l.quantity,
        image_url: l.imageUrl,
      })),
    )
    .execute();
  return { number, subtotalMinor };
}

export async function attachSession(
  db: DbOrTx,
  orderId: string,
  sessionId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('orders')
    .set({ stripe_session_id: sessionId, updated_at: now.toISOString() })
    .where('id', '=', orderId)
    .execute();
}

export async function deleteOrder(db: DbOrTx, orderId: string): Promise<void> {
  await db.deleteFrom('orders').where('id', '=', orderId).execute();
}

export async function findOrderIdBySession(db: DbOrTx, sessionId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'status', 'payment_mode'])
    .where('stripe_session_id', '=', sessionId)
    .executeTakeFirst();
}

export async function orderSummaryBySession(db: DbOrTx, sessionId: string): Promise<OrderSummary | null> {
  const order = await db
    .selectFrom('orders')
    .select([
      'id',
      'number',
      'status',
      'currency',
      'subtotal_minor',
      'total_minor',
      'payment_mode',
      'access_token',
      'paid_at',
    ])
    .where('stripe_session_id', '=', sessionId)
    .executeTakeFirst();
  if (!order) return null;
  const lines = await orderLines(db, order.id);
  return {
    number: order.number,
    status: order.status,
    currency: order.currency,
    subtotalMinor: order.subtotal_minor,
    totalMinor: order.total_minor,
    paymentMode: order.payment_mode,
    lines,
    // The session id is the shopper's own secret already: its holder may follow on to the order page.
    orderPagePath:
      order.paid_at !== null && order.access_token ? orderPagePath(order.id, order.access_token) : null,
  };
}

export async function orderLines(db: DbOrTx, orderId: string) {
  const rows = await db
    .selectFrom('order_lines')
    .select(['product_id', 'title', 'size', 'quantity', 'unit_price_minor', 'line_total_minor', 'image_url'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((l) => ({
    productId: l.product_id,
    title: l.title,
    size: l.size,
    quantity: l.quantity,
    unitPriceMinor: l.unit_price_minor,
    lineTotalMinor: l.line_total_minor,
    image: l.image_url,
  }));
}

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
  db: DbOrTx,
  outcome: SessionOutcome,
  now: Date,
  /** The store's address, for the order page link in the confirmation email a payment queues. */
  publicUrl: string,
): Promise<{ orderId: string | null; changed: boolean; from?: OrderStatus }> {
  const order = await db
    .selectFrom('orders')
    .select(['id', 'status', 'payment_mode', 'subtotal_minor'])
    .where((eb) =>
      eb.or([
        eb('stripe_session_id', '=', outcome.sessionId),
        ...(outcome.orderId ? [eb('id', '=', outcome.orderId)] : []),
      ]),
    )
    .executeTakeFirst();
  if (!order) return { orderId: null, changed: false };
  if (!canMove(order.status, outcome.status))
    return { orderId: order.id, changed: false, from: order.status };
  const iso = now.toISOString();
  await db
    .updateTable('orders')
    .set({
      status: outcome.status,
      updated_at: iso,
      ...(outcome.status === 'paid' ? { paid_at: iso } : {}),
      ...(outcome.amountTotalMinor !== null ? { total_minor: outcome.amountTotalMinor } : {}),
      ...(outcome.customerEmail ? { customer_email: outcome.customerEmail } : {}),
      ...(outcome.customerName ? { customer_name: outcome.customerName } : {}),
      ...(outcome.shippingAddress ? { shipping_address: JSON.stringify(outcome.shippingAddress) } : {}),
      ...(outcome.billingAddress ? { billing_address: JSON.stringify(outcome.billingAddress) } : {}),
      ...(outcome.paymentIntentId ? { payment_intent_id: outcome.paymentIntentId } : {}),
    })
    .where('id', '=', order.id)
    .where('status', '=', order.status)
    .execute();
  const told = EVENT_OF_STATUS[outcome.status];
  if (told) {
    await recordOrderEvent(db, {
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
    const short = await sellReservations(db, order.id);
    if (short.length > 0) {
      // Never oversold in silence: the admin sees the flag and refunds (or finds the piece).
      const problem = `Paid for more than was in stock: ${short.join(', ')}. Refund it, or restock.`;
      await db
        .updateTable('orders')
        .set({ stock_problem: problem.slice(0, 1000) })
        .where('id', '=', order.id)
        .execute();
      await recordOrderEvent(db, {
        orderId: order.id,
        kind: 'oversold',
        actor: 'store',
        detail: { short },
        at: now,
      });
    }
    await queueOrderEmail(db, { kind: 'order_confirmation', orderId: order.id, publicUrl, now });
  } else if (outcome.status === 'expired' || outcome.status === 'payment_failed') {
    await releaseReservations(db, order.id);
  }
  return { orderId: order.id, changed: true, from: order.status };
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
): Promise<{ duplicate: boolean; outcome: string }> {
  // Two deliveries of one event at once: the second waits here for the first to commit, then sees it
  // (SQLite's writes take turns anyway; PostgreSQL's read committed would let both pass the check).
  await oneAtATime(trx, `payment-event:${event.id}`);
  const seen = await trx
    .selectFrom('stripe_events')
    .select('id')
    .where('id', '=', event.id)
    .executeTakeFirst();
  if (seen) return { duplicate: true, outcome: 'duplicate' };
  let outcome = 'ignored';
  let orderId: string | null = null;
  if (event.refund) {
    const applied = await applyProviderRefund(trx, event.refund, now, publicUrl);
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
  await trx
    .insertInto('stripe_events')
    .values({ id: event.id, type: event.type, order_id: orderId, outcome, received_at: now.toISOString() })
    .execute();
  return { duplicate: false, outcome };
}
