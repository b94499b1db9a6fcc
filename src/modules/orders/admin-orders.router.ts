import { TRPCError } from '@trpc/server';
import { orderIdInput, orderListInput } from '../../shared/checkout-input.js';
import { adminProcedure, router } from '../../trpc/init.js';
import { orderLines } from './orders.repository.js';
import { reconcilePendingOrders } from './reconcile.js';

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** admin.orders.*: what was sold, to whom, and what Stripe said about it. */
export const adminOrdersRouter = router({
  list: adminProcedure.input(orderListInput).query(async ({ ctx, input }) => {
    const offset = input.cursor ?? 0;
    let query = ctx.db
      .selectFrom('orders')
      .select([
        'id',
        'number',
        'status',
        'payment_mode',
        'currency',
        'subtotal_minor',
        'total_minor',
        'customer_email',
        'created_at',
      ]);
    // Checkouts that were never paid expire (Stripe's word, or the demo sweep): they leave the default list,
    // so a flood of abandoned sessions cannot bury the real orders.
    query = input.status ? query.where('status', '=', input.status) : query.where('status', '!=', 'expired');
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('number', 'desc')
      .limit(input.limit + 1)
      .offset(offset)
      .execute();
    const items = rows.slice(0, input.limit).map((o) => ({
      id: o.id,
      number: o.number,
      status: o.status,
      paymentMode: o.payment_mode,
      currency: o.currency,
      totalMinor: o.total_minor ?? o.subtotal_minor,
      customerEmail: o.customer_email,
      createdAt: o.created_at,
    }));
    return { items, nextCursor: rows.length > input.limit ? offset + input.limit : null };
  }),

  byId: adminProcedure.input(orderIdInput).query(async ({ ctx, input }) => {
    const order = await ctx.db.selectFrom('orders').selectAll().where('id', '=', input.id).executeTakeFirst();
    if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });
    const lines = await orderLines(ctx.db, order.id);
    const events = await ctx.db
      .selectFrom('stripe_events')
      .select(['id', 'type', 'outcome', 'received_at'])
      .where('order_id', '=', order.id)
      .orderBy('received_at')
      .execute();
    return {
      id: order.id,
      number: order.number,
      status: order.status,
      paymentMode: order.payment_mode,
      currency: order.currency,
      subtotalMinor: order.subtotal_minor,
      totalMinor: order.total_minor,
      customerEmail: order.customer_email,
      customerName: order.customer_name,
      shippingAddress: parseJson(order.shipping_address),
      billingAddress: parseJson(order.billing_address),
      stripeSessionId: order.stripe_session_id,
      createdAt: order.created_at,
      paidAt: order.paid_at,
      lines,
      events: events.map((e) => ({ id: e.id, type: e.type, outcome: e.outcome, receivedAt: e.received_at })),
    };
  }),

  /** Asks Stripe about every order still waiting, for webhooks that never arrived. */
  reconcile: adminProcedure.mutation(async ({ ctx }) => {
    const result = await reconcilePendingOrders({ db: ctx.db, payments: ctx.payments, clock: ctx.clock });
    ctx.log.info({ event: 'orders.reconcile', ...result, account: ctx.admin.email }, 'orders reconciled');
    return result;
  }),
});
