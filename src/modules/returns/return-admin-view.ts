import type { z } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import type { returnListInput } from '../../shared/return-admin-input.js';

/** Staff see the steps but not the money (decision 0030): refunds are the owner's. */
export type Viewer = { role: string };

export async function listReturns(db: DbOrTx, input: z.output<typeof returnListInput>, viewer: Viewer) {
  const offset = input.cursor ?? 0;
  let query = db
    .selectFrom('returns as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select([
      'r.id',
      'r.order_id',
      'o.number',
      'o.customer_email',
      'r.status',
      'r.reason',
      'r.resolution',
      'r.refunded_minor',
      'r.currency',
      'r.created_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('return_lines as rl')
        .select((e) => e.fn.coalesce(e.fn.sum<number>('rl.quantity'), e.lit(0)).as('u'))
        .whereRef('rl.return_id', '=', 'r.id')
        .as('units'),
    );
  if (input.status) query = query.where('r.status', '=', input.status);
  const rows = await query
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(input.limit + 1)
    .offset(offset)
    .execute();
  const owner = viewer.role === 'owner';
  return {
    items: rows.slice(0, input.limit).map((r) => ({
      id: r.id,
      orderId: r.order_id,
      orderNumber: r.number,
      customerEmail: r.customer_email,
      status: r.status,
      reason: r.reason,
      resolution: r.resolution,
      units: Number(r.units ?? 0),
      refundedMinor: owner ? r.refunded_minor : null,
      currency: r.currency,
      createdAt: r.created_at,
    })),
    nextCursor: rows.length > input.limit ? offset + input.limit : null,
  };
}

/** One return as the owner's Returns view shows it: the order, its lines and what may be done next. */
export async function returnDetail(db: DbOrTx, id: string, viewer: Viewer) {
  const r = await db
    .selectFrom('returns as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select([
      'r.id',
      'r.status',
      'r.reason',
      'r.reason_text',
      'r.resolution',
      'r.decline_reason',
      'r.condition_note',
      'r.exchange_carrier',
      'r.exchange_tracking',
      'r.refunded_minor',
      'r.currency',
      'r.created_at',
      'r.approved_at',
      'r.received_at',
      'r.closed_at',
      'r.difference_minor',
      'r.difference_status',
      'r.difference_paid_via',
      'r.difference_paid_at',
      'r.difference_refund_id',
      'r.difference_session_id',
      'o.id as order_id',
      'o.number',
      'o.status as order_status',
      'o.payment_method',
      'o.fulfilment',
      'o.customer_email',
      'o.customer_name',
    ])
    .where('r.id', '=', id)
    .executeTakeFirst();
  if (!r) return null;
  const lines = await db
    .selectFrom('return_lines as rl')
    .innerJoin('order_lines as ol', 'ol.id', 'rl.order_line_id')
    .select([
      'rl.order_line_id',
      'rl.quantity',
      'rl.exchange_colour',
      'rl.exchange_size',
      'rl.held',
      'rl.restocked',
      'rl.difference_minor',
      'ol.product_id',
      'ol.title',
      'ol.colour',
      'ol.size',
    ])
    .where('rl.return_id', '=', id)
    .orderBy('rl.order_line_id')
    .execute();
  const owner = viewer.role === 'owner';
  return {
    id: r.id,
    status: r.status,
    reason: r.reason,
    reasonText: r.reason_text,
    resolution: r.resolution,
    declineReason: r.decline_reason,
    conditionNote: r.condition_note,
    exchangeTracking:
      r.exchange_carrier && r.exchange_tracking
        ? { carrier: r.exchange_carrier, number: r.exchange_tracking }
        : null,
    refundedMinor: owner ? r.refunded_minor : null,
    currency: r.currency,
    createdAt: r.created_at,
    approvedAt: r.approved_at,
    receivedAt: r.received_at,
    closedAt: r.closed_at,
    // The exchange's price difference (decision 0039): staff see where it stands, not the money.
    difference:
      r.difference_minor === 0
        ? null
        : {
            amountMinor: owner ? r.difference_minor : null,
            status: r.difference_status,
            paidVia: r.difference_paid_via,
            paidAt: r.difference_paid_at,
            refundId: owner ? r.difference_refund_id : null,
            /**
             * Whether what the shop owes of it goes back by hand: a difference paid by hand, or one given back
             * on an order not paid by card; a difference paid on the order page goes back to that payment.
             */
            refundByHand:
              r.difference_minor > 0
                ? r.difference_paid_via !== 'card' || r.difference_session_id === null
                : r.payment_method !== 'card',
          },
    order: {
      id: r.order_id,
      number: r.number,
      status: r.order_status,
      paymentMethod: r.payment_method,
      fulfilment: r.fulfilment,
      customerEmail: r.customer_email,
      customerName: r.customer_name,
    },
    lines: lines.map((l) => ({
      lineId: l.order_line_id,
      productId: l.product_id,
      title: l.title,
      colour: l.colour,
      size: l.size,
      quantity: l.quantity,
      exchangeColour: l.exchange_colour,
      exchangeSize: l.exchange_size,
      held: l.held,
      restocked: l.restocked,
      differenceMinor: owner ? l.difference_minor : null,
    })),
    can: {
      approve: r.status === 'requested',
      decline: r.status === 'requested' || r.status === 'approved',
      receive: r.status === 'approved',
      // A difference to give back makes the shipment the owner's (decision 0039).
      closeExchange:
        r.status === 'received' &&
        r.resolution === 'exchange' &&
        (owner || r.difference_status !== 'to_refund'),
      closeRefund: owner && r.status === 'received' && r.resolution === 'refund',
      recordDifferencePaid:
        r.status !== 'declined' &&
        r.status !== 'cancelled' &&
        (r.difference_status === 'due' || r.difference_status === 'collect_on_delivery'),
      // A closed exchange's given-back difference refused at close, or a paid one on an exchange that ended.
      refundDifference:
        owner &&
        r.difference_status === 'to_refund' &&
        ((r.status === 'closed' && r.resolution === 'exchange' && r.difference_minor < 0) ||
          ((r.status === 'declined' || r.status === 'cancelled') &&
            r.difference_minor > 0 &&
            r.difference_paid_at !== null)),
    },
  };
}
