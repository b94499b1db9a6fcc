import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Db, Fulfilment } from '../../db/database.js';
import type { cancelOrderInput, shipOrderInput } from '../../shared/order-admin-input.js';
import { OFFLINE_METHODS } from '../../shared/payment-methods.js';
import { releaseCodeUse } from '../discounts/redemptions.repository.js';
import { putBackOrderStock } from '../stock/returned-stock.js';
import { trackingUrlFor } from './known-carriers.js';
import { recordOrderEvent } from './order-events.repository.js';
import { queueOrderEmail } from './order-mail.js';

export type FulfilmentDeps = { db: Db; clock: Clock; publicUrl: string };

async function orderState(db: Db, id: string) {
  const order = await db
    .selectFrom('orders')
    .select(['id', 'number', 'status', 'fulfilment', 'payment_method'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });
  return order;
}

/**
 * Why an order did not move: read after the conditional UPDATE matched nothing, so the message says where
 * the order is now (someone else may just have moved it).
 */
async function refusal(db: Db, id: string, doing: string, unpaid: string | null): Promise<TRPCError> {
  const order = await orderState(db, id);
  // A confirmed cash-on-delivery order is paid at the door: it ships unpaid (decision 0038).
  const payable =
    order.status === 'paid' || (order.payment_method === 'cash_on_delivery' && order.status === 'processing');
  const why =
    unpaid !== null && !payable
      ? order.payment_method === 'cash_on_delivery' && order.status === 'pending'
        ? 'the shopper has not confirmed it yet'
        : unpaid
      : WHY_NOT[order.fulfilment];
  return new TRPCError({ code: 'CONFLICT', message: `Order #${order.number} cannot be ${doing}: ${why}.` });
}

const WHY_NOT: Record<Fulfilment, string> = {
  unfulfilled: 'it has not been shipped yet',
  shipped: 'it has already been shipped',
  delivered: 'it has already been delivered',
  cancelled: 'it was cancelled',
};

/**
 * Marks a paid order shipped with its carrier and tracking, and queues the shipping email in the same
 * transaction. The update only moves an order that is still paid and unshipped, so two admins pressing
 * "Ship" at once ship it (and email the shopper) once.
 */
export async function shipOrder(
  deps: FulfilmentDeps,
  admin: string,
  input: z.output<typeof shipOrderInput>,
): Promise<{ number: number; trackingUrl: string | null }> {
  const trackingUrl = input.trackingUrl ?? trackingUrlFor(input.carrier, input.trackingNumber);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({
        fulfilment: 'shipped',
        carrier: input.carrier,
        tracking_number: input.trackingNumber,
        tracking_url: trackingUrl,
        shipped_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .where('id', '=', input.id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'paid'),
          // Confirmed cash on delivery: the cash is collected when the parcel arrives.
          eb.and([eb('payment_method', '=', 'cash_on_delivery'), eb('status', '=', 'processing')]),
        ]),
      )
      .where('fulfilment', '=', 'unfulfilled')
      .returning(['number'])
      .executeTakeFirst();
    if (!moved) throw await refusal(deps.db, input.id, 'shipped', 'it is not paid');
    await recordOrderEvent(trx, {
      orderId: input.id,
      kind: 'shipped',
      actor: admin,
      detail: { carrier: input.carrier, trackingNumber: input.trackingNumber, trackingUrl },
      at: now,
    });
    await queueOrderEmail(trx, { kind: 'order_shipped', orderId: input.id, publicUrl: deps.publicUrl, now });
    return { number: moved.number, trackingUrl };
  });
}

/**
 * A shipped order arrived (the carrier said so, or the shopper did). A cash-on-delivery order is delivered
 * only by recording the cash collected (payment-steps.service.ts), so its payment and its delivery are one
 * step and never disagree.
 */
export async function markDelivered(
  deps: FulfilmentDeps,
  admin: string,
  id: string,
): Promise<{ number: number }> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({ fulfilment: 'delivered', delivered_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('fulfilment', '=', 'shipped')
      .where('payment_method', '!=', 'cash_on_delivery')
      .returning(['number'])
      .executeTakeFirst();
    if (!moved) {
      const order = await orderState(deps.db, id);
      if (order.payment_method === 'cash_on_delivery' && order.fulfilment === 'shipped')
        throw new TRPCError({
          code: 'CONFLICT',
          message: `Order #${order.number} is cash on delivery: record the cash collected, which marks it delivered.`,
        });
      throw await refusal(deps.db, id, 'marked delivered', null);
    }
    await recordOrderEvent(trx, { orderId: id, kind: 'delivered', actor: admin, at: now });
    return moved;
  });
}

/**
 * Cancels a paid order that has not left the shop. Cancelling gives no money back by itself: the admin
 * refunds what should be refunded, and the order page says which. An unpaid cash-on-delivery or transfer
 * order (pending or confirmed, decision 0038) may be cancelled too: nothing was paid, so nothing is refunded,
 * and its stock and code's use go back at once. `restockedUnits` says how many units came back.
 */
export async function cancelOrder(
  deps: FulfilmentDeps,
  admin: string,
  input: z.output<typeof cancelOrderInput>,
): Promise<{ number: number; restockedUnits: number }> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('orders')
      .set({ fulfilment: 'cancelled', cancelled_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', input.id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'paid'),
          eb.and([
            eb('payment_method', 'in', OFFLINE_METHODS),
            eb('status', 'in', ['pending', 'processing']),
          ]),
        ]),
      )
      .where('fulfilment', '=', 'unfulfilled')
      .returning(['number', 'status'])
      .executeTakeFirst();
    if (!moved)
      throw await refusal(
        deps.db,
        input.id,
        'cancelled',
        'it is not paid (unpaid checkouts expire by themselves)',
      );
    let restockedUnits = 0;
    if (moved.status !== 'paid') {
      restockedUnits = await putBackOrderStock(trx, input.id);
      await releaseCodeUse(trx, input.id, now);
    }
    await recordOrderEvent(trx, {
      orderId: input.id,
      kind: 'cancelled',
      actor: admin,
      detail: input.reason ? { reason: input.reason } : {},
      at: now,
    });
    return { number: moved.number, restockedUnits };
  });
}
