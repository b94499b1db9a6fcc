import type { DbOrTx } from '../../db/database.js';

/** Whether the payment provider's event was recorded already (the record of each event applied once). */
export async function paymentEventSeen(db: DbOrTx, eventId: string): Promise<boolean> {
  const seen = await db.selectFrom('stripe_events').select('id').where('id', '=', eventId).executeTakeFirst();
  return seen !== undefined;
}

export async function insertPaymentEvent(
  db: DbOrTx,
  event: { id: string; type: string; orderId: string | null; outcome: string; receivedAt: Date },
): Promise<void> {
  await db
    .insertInto('stripe_events')
    .values({
      id: event.id,
      type: event.type,
      order_id: event.orderId,
      outcome: event.outcome,
      received_at: event.receivedAt.toISOString(),
    })
    .execute();
}
