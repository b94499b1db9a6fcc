import type { Insertable } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { queueOrderEmail } from '../modules/orders/order-mail.js';
import { SESSION_FACTS } from './test-store.js';

/** The store owner's session as the order tests hand it to the admin procedures (no sign-in needed). */
export const ownerSession = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T09:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

type OrderRow = Insertable<Database['orders']>;

/**
 * An order row written straight to the table, for tests that need an order checkout would not make (one
 * from before a feature, one Stripe has not answered for). A paid demo order unless `fields` say otherwise.
 */
export async function insertOrderRow(
  db: Db,
  fields: Pick<OrderRow, 'id' | 'number' | 'created_at'> & Partial<OrderRow>,
): Promise<void> {
  const status = fields.status ?? 'paid';
  await db
    .insertInto('orders')
    .values({
      status,
      payment_mode: 'demo',
      currency: 'usd',
      subtotal_minor: 0,
      total_minor: 0,
      customer_email: null,
      customer_name: null,
      shipping_address: null,
      billing_address: null,
      stripe_session_id: `demo_${fields.id}`,
      updated_at: fields.created_at,
      paid_at: status === 'paid' ? fields.created_at : null,
      ...fields,
    })
    .execute();
}

/** Queues the order's confirmation email as payment does and reads back what it says. */
export async function confirmationEmailOf(
  db: Db,
  orderId: string,
  now: Date,
): Promise<{ html: string; text_body: string }> {
  await db
    .transaction()
    .execute((trx) =>
      queueOrderEmail(trx, { kind: 'order_confirmation', orderId, publicUrl: 'https://shop.example', now }),
    );
  return db
    .selectFrom('email_outbox')
    .select(['html', 'text_body'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
}
