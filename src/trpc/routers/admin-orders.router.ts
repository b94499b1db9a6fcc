import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { liftPhoneRefusal } from '../../modules/checkout/cod-abuse.js';
import { adminOrderDetail } from '../../modules/orders/admin-order-detail.js';
import { confirmCashOnDelivery } from '../../modules/orders/cod-confirmation.js';
import { cancelOrder, markDelivered, shipOrder } from '../../modules/orders/fulfilment.service.js';
import { codSummary, stepCondition } from '../../modules/orders/payment-step-filter.js';
import {
  recordCashCollected,
  recordTransfer,
  returnedToOrigin,
} from '../../modules/orders/payment-steps.service.js';
import { reconcilePendingOrders } from '../../modules/orders/reconcile.js';
import { refundOrder } from '../../modules/orders/refunds.service.js';
import { orderIdInput, orderListInput } from '../../shared/checkout-input.js';
import { codeKey } from '../../shared/discounts.js';
import { cancelOrderInput, refundOrderInput, shipOrderInput } from '../../shared/order-admin-input.js';
import {
  liftPhoneRefusalInput,
  paymentStep,
  paymentStepLabel,
  recordCashCollectedInput,
  recordTransferInput,
  returnedToOriginInput,
} from '../../shared/payment-methods.js';
import { adminProcedure, ownerProcedure, router } from '../init.js';

function fulfilmentDeps(ctx: { db: Db; clock: Clock; config: { publicUrl: string } }) {
  return { db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl };
}

/** The order as admin.orders.byId shows it to this admin: staff are not offered the money (decision 0030). */
async function orderDetailFor(
  ctx: { db: Db; config: { publicUrl: string }; admin: { role: string } },
  id: string,
) {
  const order = await adminOrderDetail(ctx.db, id, ctx.config.publicUrl);
  if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });
  if (ctx.admin.role === 'owner') return order;
  return { ...order, can: { ...order.can, cancel: false, refund: false, recordTransfer: false } };
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
        'fulfilment',
        'refunded_minor',
        'stock_problem',
        'discount_code',
        'payment_method',
      ]);
    // Checkouts that were never paid expire (Stripe's word, or the demo sweep): they leave the default list,
    // so a flood of abandoned sessions cannot bury the real orders. Asking for a step shows that step's
    // orders, expired ones included when that is the step asked for.
    if (input.status) query = query.where('status', '=', input.status);
    else if (!input.step) query = query.where('status', '!=', 'expired');
    if (input.method) query = query.where('payment_method', '=', input.method);
    const step = input.step;
    if (step) query = query.where((eb) => stepCondition(eb, step));
    // Codes are kept as the shopper typed them: compared as codeKey does, upper-cased on both engines, among
    // the orders with a code (the partial index's rows).
    if (input.code)
      query = query
        .where('discount_code', 'is not', null)
        .where(sql<string>`upper(discount_code)`, '=', codeKey(input.code));
    const [rows, summary] = await Promise.all([
      query
        .orderBy('created_at', 'desc')
        .orderBy('number', 'desc')
        .limit(input.limit + 1)
        .offset(offset)
        .execute(),
      codSummary(ctx.db),
    ]);
    const items = rows.slice(0, input.limit).map((o) => ({
      id: o.id,
      number: o.number,
      status: o.status,
      paymentMode: o.payment_mode,
      currency: o.currency,
      totalMinor: o.total_minor ?? o.subtotal_minor,
      customerEmail: o.customer_email,
      createdAt: o.created_at,
      fulfilment: o.fulfilment,
      stockProblem: o.stock_problem !== null,
      discountCode: o.discount_code,
      paymentMethod: o.payment_method,
      step: paymentStep(o.payment_method, o.status, o.fulfilment),
      stage: paymentStepLabel(o.payment_method, o.status, o.fulfilment),
      // Pending refunds count: the money is promised back.
      refund:
        o.refunded_minor === 0
          ? ('none' as const)
          : o.refunded_minor >= (o.total_minor ?? o.subtotal_minor)
            ? ('full' as const)
            : ('partial' as const),
    }));
    return { items, nextCursor: rows.length > input.limit ? offset + input.limit : null, summary };
  }),

  byId: adminProcedure.input(orderIdInput).query(async ({ ctx, input }) => orderDetailFor(ctx, input.id)),
  /** Hands a paid order to the carrier: its tracking goes on the order page and into the shipping email. */
  ship: adminProcedure.input(shipOrderInput).mutation(async ({ ctx, input }) => {
    const shipped = await shipOrder(fulfilmentDeps(ctx), ctx.admin.email, input);
    ctx.mail.nudge();
    ctx.log.info(
      { event: 'orders.shipped', order: shipped.number, carrier: input.carrier, account: ctx.admin.email },
      `order ${shipped.number} shipped`,
    );
    return shipped;
  }),
  markDelivered: adminProcedure.input(orderIdInput).mutation(async ({ ctx, input }) => {
    const done = await markDelivered(fulfilmentDeps(ctx), ctx.admin.email, input.id);
    ctx.log.info(
      { event: 'orders.delivered', order: done.number, account: ctx.admin.email },
      `order ${done.number} delivered`,
    );
    return done;
  }),
  cancel: ownerProcedure.input(cancelOrderInput).mutation(async ({ ctx, input }) => {
    const done = await cancelOrder(fulfilmentDeps(ctx), ctx.admin.email, input);
    // An unpaid cash-on-delivery or transfer order gave its units back.
    if (done.restockedUnits > 0) ctx.backInStock.nudge();
    ctx.log.info(
      { event: 'orders.cancelled', order: done.number, account: ctx.admin.email },
      `order ${done.number} cancelled`,
    );
    return { number: done.number };
  }),
  /** A confirmed cash-on-delivery parcel was delivered and its cash collected (decision 0038). */
  recordCashCollected: adminProcedure.input(recordCashCollectedInput).mutation(async ({ ctx, input }) => {
    const done = await recordCashCollected(fulfilmentDeps(ctx), ctx.admin.email, input);
    ctx.audit.changes = [
      { field: 'status', from: 'processing', to: 'paid' },
      { field: 'collectedMinor', from: null, to: done.collectedMinor },
    ];
    ctx.mail.nudge();
    ctx.log.info(
      {
        event: 'orders.cash_collected',
        order: done.number,
        amountMinor: done.collectedMinor,
        differenceMinor: done.differenceMinor,
        account: ctx.admin.email,
      },
      `order ${done.number}: cash collected`,
    );
    return orderDetailFor(ctx, input.id);
  }),
  /** A cash-on-delivery parcel came back unpaid; its units go back on the shelf when the owner says so. */
  returnedToOrigin: adminProcedure.input(returnedToOriginInput).mutation(async ({ ctx, input }) => {
    const done = await returnedToOrigin(fulfilmentDeps(ctx), ctx.admin.email, input);
    ctx.audit.changes = [
      { field: 'status', from: 'processing', to: 'payment_failed' },
      { field: 'restockedUnits', from: 0, to: done.restockedUnits },
    ];
    ctx.mail.nudge();
    if (done.restockedUnits > 0) ctx.backInStock.nudge();
    ctx.log.info(
      {
        event: 'orders.returned_to_origin',
        order: done.number,
        restock: input.restock,
        account: ctx.admin.email,
      },
      `order ${done.number}: returned to origin`,
    );
    return orderDetailFor(ctx, input.id);
  }),
  /** The bank transfer arrived: money, so the owner's (decision 0030). */
  recordTransfer: ownerProcedure.input(recordTransferInput).mutation(async ({ ctx, input }) => {
    const done = await recordTransfer(fulfilmentDeps(ctx), ctx.admin.email, input);
    ctx.audit.changes = [{ field: 'status', from: 'pending', to: 'paid' }];
    ctx.mail.nudge();
    ctx.log.info(
      { event: 'orders.transfer_received', order: done.number, account: ctx.admin.email },
      `order ${done.number}: transfer received`,
    );
    return orderDetailFor(ctx, input.id);
  }),
  /** Gives money back: whole lines or an amount, never more than was paid, never twice. */
  refund: ownerProcedure
    .meta({ freshCode: true })
    .input(refundOrderInput)
    .mutation(async ({ ctx, input }) => {
      const result = await refundOrder(
        {
          db: ctx.db,
          clock: ctx.clock,
          payments: ctx.payments,
          publicUrl: ctx.config.publicUrl,
          log: ctx.log,
        },
        ctx.admin.email,
        input,
      );
      ctx.mail.nudge();
      return result;
    }),
  /** Asks Stripe about every order still waiting, for webhooks that never arrived. */
  reconcile: adminProcedure.mutation(async ({ ctx }) => {
    const result = await reconcilePendingOrders({
      db: ctx.db,
      payments: ctx.payments,
      clock: ctx.clock,
      publicUrl: ctx.config.publicUrl,
    });
    // An expired or failed checkout gives back the units it held.
    ctx.backInStock.nudge();
    ctx.log.info({ event: 'orders.reconcile', ...result, account: ctx.admin.email }, 'orders reconciled');
    return result;
  }),
  /** Confirms a cash-on-delivery order after calling the shopper (owner or staff); twice is once. */
  confirmCashOnDelivery: adminProcedure.input(orderIdInput).mutation(async ({ ctx, input }) => {
    const result = await confirmCashOnDelivery(
      { db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl },
      input.id,
      { kind: 'admin', email: ctx.admin.email },
    );
    if (result.outcome === 'confirmed') {
      ctx.mail.nudge();
      ctx.log.info(
        { event: 'orders.cod_confirmed', order: result.number, account: ctx.admin.email },
        'order confirmed',
      );
    }
    return result;
  }),
  /** The owner trusts a phone again whose cash-on-delivery parcels were returned (decision 0038). */
  liftPhoneRefusal: ownerProcedure.input(liftPhoneRefusalInput).mutation(async ({ ctx, input }) => {
    // Kept as orders keep it (E.164), however the owner typed it.
    const phone = parsePhoneNumberFromString(input.phone)?.number ?? input.phone;
    await liftPhoneRefusal(ctx.db, { phone, by: ctx.admin.email, now: ctx.clock.now() });
    return { ok: true as const, phone };
  }),
});
