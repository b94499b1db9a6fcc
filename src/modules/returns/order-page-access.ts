import { TRPCError } from '@trpc/server';
import type { DbOrTx } from '../../db/database.js';
import { tokenMatches } from '../orders/order-access.js';

/** The order page's one answer to a wrong id, a wrong token and an unpaid card order alike. */
export const ORDER_NOT_FOUND = () => new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });

/**
 * The order behind an order page link, guarded exactly as orderPage.view is: the token compared in constant
 * time, and an unpaid card checkout (whose link was never sent) not found.
 */
export async function openOrderPage(db: DbOrTx, orderId: string, token: string) {
  const order = await db
    .selectFrom('orders')
    .select([
      'id',
      'number',
      'status',
      'currency',
      'payment_method',
      'paid_at',
      'fulfilment',
      'shipped_at',
      'delivered_at',
      'access_token',
    ])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order || !tokenMatches(order.access_token, token)) throw ORDER_NOT_FOUND();
  if (order.paid_at === null && order.payment_method === 'card') throw ORDER_NOT_FOUND();
  return order;
}

export type OrderPageOrder = Awaited<ReturnType<typeof openOrderPage>>;
