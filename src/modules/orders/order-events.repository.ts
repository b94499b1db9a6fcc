import type { DbOrTx } from '../../db/database.js';

export type OrderEventKind =
  | 'created'
  /** A cash-on-delivery order confirmed by the shopper's link or an admin (decision 0038). */
  | 'confirmed'
  | 'paid'
  | 'payment_failed'
  | 'expired'
  | 'shipped'
  | 'delivered'
  | 'cancelled'
  | 'refund_requested'
  | 'refund_succeeded'
  | 'refund_failed'
  | 'oversold'
  // The owner's steps on cash-on-delivery and bank-transfer orders (decision 0038).
  | 'cash_collected'
  | 'returned_to_origin'
  | 'transfer_received'
  // Each step of a return or exchange (decision 0039); detail.returnId names it.
  | 'return_requested'
  | 'return_approved'
  | 'return_declined'
  | 'return_received'
  | 'return_closed'
  | 'return_cancelled'
  // An exchange's price difference (decision 0039): paid (by card or as the owner recorded it), paid a second
  // time (for the owner to refund), owed back because the exchange ended unshipped, given back.
  | 'return_difference_paid'
  | 'return_difference_paid_again'
  | 'return_difference_to_refund'
  | 'return_difference_refunded';

export type OrderEvent = {
  id: number;
  kind: OrderEventKind;
  actor: string;
  detail: Record<string, unknown>;
  at: string;
};

/** Records a step of the order's story in the caller's transaction, with the change it tells of. */
export async function recordOrderEvent(
  trx: DbOrTx,
  event: { orderId: string; kind: OrderEventKind; actor: string; detail?: Record<string, unknown>; at: Date },
): Promise<void> {
  await trx
    .insertInto('order_events')
    .values({
      order_id: event.orderId,
      kind: event.kind,
      actor: event.actor.slice(0, 254),
      detail: JSON.stringify(event.detail ?? {}),
      at: event.at.toISOString(),
    })
    .execute();
}

function parseDetail(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export async function orderEvents(db: DbOrTx, orderId: string): Promise<OrderEvent[]> {
  const rows = await db
    .selectFrom('order_events')
    .select(['id', 'kind', 'actor', 'detail', 'at'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as OrderEventKind,
    actor: r.actor,
    detail: parseDetail(r.detail),
    at: r.at,
  }));
}
