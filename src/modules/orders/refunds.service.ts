import { randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Database, Db, DbOrTx, RefundStatus } from '../../db/database.js';
import { variantLabel } from '../../shared/colours.js';
import { refundableForUnits } from '../../shared/discounts.js';
import { formatMoney } from '../../shared/money.js';
import type { refundOrderInput } from '../../shared/order-admin-input.js';
import { chargedLineTotals } from '../../shared/order-charges.js';
import { DemoGateway } from '../payments/demo-gateway.js';
import {
  type PaymentGateway,
  PaymentProviderError,
  type RefundOutcome,
  RefundRefusedError,
  type RefundRequest,
} from '../payments/payment-gateway.js';
import { recordOrderEvent } from './order-events.repository.js';
import { queueOrderEmail, refundLines } from './order-mail.js';

export type RefundDeps = {
  db: Db;
  clock: Clock;
  payments: PaymentGateway;
  publicUrl: string;
  log: FastifyBaseLogger;
};

function newRefundId(): string {
  return `rf_${randomBytes(12).toString('base64url')}`;
}

export type Reserved = {
  refundId: string;
  request: RefundRequest;
  number: number;
  provider: 'stripe' | 'demo';
  /** Paid back by hand (cash on delivery, bank transfer): recorded as done, never sent to a provider. */
  manual: boolean;
  /** The request names the order's own payment (not a difference's), which the provider's answer may fill in. */
  orderPayment: boolean;
};

/**
 * What a refund may give back in all (decision 0038): the cash collected at the door for cash on delivery
 * (which may differ from the total), the total for a card or a transfer.
 */
function paidBackCap(eb: ExpressionBuilder<Database, 'orders'>) {
  return eb
    .case()
    .when('payment_method', '=', 'cash_on_delivery')
    .then(eb.fn.coalesce('collected_minor', eb.lit(0)))
    .else(eb.fn.coalesce('total_minor', 'subtotal_minor'))
    .end();
}

/**
 * Money the shop took besides the order's total (an exchange's price difference the shopper paid, decision
 * 0039) goes back to the payment that took it: its own Checkout session's, or by hand ('manual', whatever
 * the order's method). The order's refunded amount does not hold such a refund (its CHECK keeps it within
 * the order's total), so it never takes from what the order's own lines may still give back; the caller
 * bounds it (the return's difference, refunded once).
 */
export type RefundPayment =
  | { provider: 'stripe' | 'demo'; paymentIntentId: string | null; sessionId: string | null }
  | 'manual';

/**
 * Promises the money back in one transaction before anyone is asked for it: the order's refunded amount
 * and each line's refunded quantity grow only where they stay within what was paid and sold (the UPDATEs'
 * conditions, backed by CHECKs). Two admins refunding at once: the second UPDATE waits for the first's row
 * and then finds nothing left, so it refunds nothing.
 */
async function reserveRefund(
  deps: RefundDeps,
  admin: string,
  input: z.output<typeof refundOrderInput>,
): Promise<Reserved> {
  return deps.db.transaction().execute((trx) => reserveRefundIn(trx, deps, admin, input));
}

/**
 * The reservation above in the caller's transaction, for a step that must close together with the refund it
 * promises (a return closed with a refund): the caller then hands the result to sendReservedRefund.
 */
export async function reserveRefundIn(
  trx: DbOrTx,
  deps: Pick<RefundDeps, 'clock' | 'publicUrl'>,
  admin: string,
  input: z.output<typeof refundOrderInput>,
  /**
   * The return this refund belongs to (a return's refund, an exchange's price difference): the return's
   * email tells the shopper of it, so the order's refund email is not sent as well. besides: money taken
   * besides the order's total, and the payment it goes back to (RefundPayment); an amount, never lines.
   */
  opts: { returnId?: string; besides?: RefundPayment } = {},
): Promise<Reserved> {
  const now = deps.clock.now();
  const iso = now.toISOString();
  const order = await trx
    .selectFrom('orders')
    .select([
      'id',
      'number',
      'status',
      'currency',
      'payment_mode',
      'payment_intent_id',
      'stripe_session_id',
      'refunded_minor',
      'total_minor',
      'subtotal_minor',
      'discount_minor',
      'payment_method',
    ])
    .where('id', '=', input.id)
    .executeTakeFirst();
  if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });
  const payment = opts.besides;
  const manual = payment === undefined ? order.payment_method !== 'card' : payment === 'manual';
  if (manual && !input.paidVia)
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message:
        payment === 'manual'
          ? `This was paid to the shop by hand on order #${order.number}: say how the money went back.`
          : `Order #${order.number} was paid ${order.payment_method === 'bank_transfer' ? 'by bank transfer' : 'in cash'}: say how the money went back.`,
    });
  const provider = typeof payment === 'object' ? payment.provider : order.payment_mode;
  if (order.status !== 'paid')
    throw new TRPCError({
      code: 'CONFLICT',
      message: `Order #${order.number} is not paid: there is nothing to refund.`,
    });
  const wanted = payment === undefined ? (input.lines ?? []) : [];
  // A line's next units' shares depend on how many were refunded before: take the order's row first, so
  // two refunds of one line read its refunded quantity one after the other, never both the same.
  if (wanted.length)
    await trx.updateTable('orders').set({ updated_at: iso }).where('id', '=', order.id).execute();
  // Every line of the order: a discount only the order carries is shared over all of them.
  const all = wanted.length
    ? await trx
        .selectFrom('order_lines')
        .select([
          'id',
          'title',
          'colour',
          'size',
          'quantity',
          'refunded_quantity',
          'line_total_minor',
          'discount_minor',
        ])
        .where('order_id', '=', order.id)
        .orderBy('id')
        .execute()
    : [];
  const charged = chargedLineTotals(
    order.discount_minor,
    all.map((l) => ({ lineTotalMinor: l.line_total_minor, discountMinor: l.discount_minor })),
  );
  const sold = all
    .map((l, i) => ({ ...l, charged: charged[i] ?? l.line_total_minor }))
    .filter((l) => wanted.some((w) => w.lineId === l.id));
  if (sold.length !== wanted.length)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'A line to refund is not part of this order.' });
  const tooMany = (w: { lineId: number; quantity: number }) => {
    const line = sold.find((l) => l.id === w.lineId);
    return new TRPCError({
      code: 'CONFLICT',
      message: `${line?.title ?? 'A line'}${line && (line.colour || line.size) ? ` (${variantLabel(line.colour, line.size)})` : ''}: fewer are left to refund than that.`,
    });
  };
  // Told before the amount, which follows from the lines; the UPDATE below still decides under the lock.
  for (const w of wanted) {
    const line = sold.find((l) => l.id === w.lineId);
    if (line && line.refunded_quantity + w.quantity > line.quantity) throw tooMany(w);
  }
  // A line gives back what it was charged, never more (decision 0037): its charged total (after a sale
  // and its share of the discount) shared per unit by largest remainder, for the units not refunded yet; so
  // refunding every unit of every line gives back exactly the lines' charged totals.
  const amount =
    input.amountMinor ??
    wanted.reduce((sum, w) => {
      const line = sold.find((l) => l.id === w.lineId);
      if (!line) return sum;
      return (
        sum +
        refundableForUnits(
          {
            quantity: line.quantity,
            lineTotalMinor: line.charged,
            refundedQuantity: line.refunded_quantity,
          },
          w.quantity,
        )
      );
    }, 0);
  if (amount <= 0)
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'These lines were free: there is nothing to refund.',
    });
  // The order's row first, so that refunds of one order queue up behind each other here. Money taken
  // besides the order's total is not the order's to hold.
  const reserved =
    payment !== undefined
      ? { refunded_minor: order.refunded_minor }
      : await trx
          .updateTable('orders')
          .set((eb) => ({ refunded_minor: eb('refunded_minor', '+', amount), updated_at: iso }))
          .where('id', '=', order.id)
          .where('status', '=', 'paid')
          .where((eb) => eb(eb('refunded_minor', '+', amount), '<=', paidBackCap(eb)))
          .returning('refunded_minor')
          .executeTakeFirst();
  if (!reserved) {
    const now = await trx
      .selectFrom('orders')
      .select((eb) => ['refunded_minor', paidBackCap(eb).as('cap')])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    const left = Number(now.cap) - now.refunded_minor;
    throw new TRPCError({
      code: 'CONFLICT',
      message:
        left <= 0
          ? `Order #${order.number} has already been refunded in full.`
          : `Only ${formatMoney(left, order.currency)} is left to refund on order #${order.number}.`,
    });
  }
  for (const w of wanted) {
    const moved = await trx
      .updateTable('order_lines')
      .set((eb) => ({ refunded_quantity: eb('refunded_quantity', '+', w.quantity) }))
      .where('id', '=', w.lineId)
      .where('order_id', '=', order.id)
      .where((eb) => eb(eb('refunded_quantity', '+', w.quantity), '<=', eb.ref('quantity')))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw tooMany(w);
  }
  const refundId = newRefundId();
  await trx
    .insertInto('refunds')
    .values({
      id: refundId,
      order_id: order.id,
      amount_minor: amount,
      currency: order.currency,
      reason: input.reason,
      lines: JSON.stringify(wanted),
      // A manual refund was paid back before it is recorded: it is done at once.
      status: manual ? 'succeeded' : 'pending',
      provider,
      provider_refund_id: null,
      failure: null,
      admin_email: admin,
      created_at: iso,
      updated_at: iso,
      method: manual ? 'manual' : 'provider',
      paid_via: manual ? (input.paidVia ?? null) : null,
      note: input.note ?? null,
      return_id: opts.returnId ?? null,
    })
    .execute();
  await recordOrderEvent(trx, {
    orderId: order.id,
    kind: manual ? 'refund_succeeded' : 'refund_requested',
    actor: admin,
    detail: {
      refundId,
      amountMinor: amount,
      currency: order.currency,
      reason: input.reason,
      lines: wanted,
      ...(manual ? { manual: true, paidVia: input.paidVia, note: input.note ?? null } : {}),
    },
    at: now,
  });
  if (manual && !opts.returnId)
    await queueOrderEmail(trx, {
      kind: 'order_refund',
      orderId: order.id,
      refundId,
      publicUrl: deps.publicUrl,
      now,
    });
  return {
    refundId,
    manual,
    number: order.number,
    provider,
    orderPayment: typeof payment !== 'object',
    request: {
      refundId,
      orderId: order.id,
      paymentIntentId: typeof payment === 'object' ? payment.paymentIntentId : order.payment_intent_id,
      sessionId: typeof payment === 'object' ? payment.sessionId : order.stripe_session_id,
      amountMinor: amount,
      currency: order.currency,
    },
  };
}

/**
 * Moves a refund to what the provider says, once: a refund only leaves pending (or, rarely, a succeeded
 * one fails later), so the admin's request and Stripe's webhook settling it at the same moment record one
 * outcome and send one email. A failed refund gives its reservation back. True when it changed.
 */
export async function settleRefund(
  trx: DbOrTx,
  settle: {
    refundId: string;
    status: RefundStatus;
    providerRefundId: string | null;
    failure: string | null;
    actor: string;
    now: Date;
    publicUrl: string;
  },
): Promise<boolean> {
  const iso = settle.now.toISOString();
  if (settle.status === 'pending') {
    if (settle.providerRefundId) {
      await trx
        .updateTable('refunds')
        .set({ provider_refund_id: settle.providerRefundId, updated_at: iso })
        .where('id', '=', settle.refundId)
        .where('provider_refund_id', 'is', null)
        .execute();
    }
    return false;
  }
  const from: RefundStatus[] = settle.status === 'failed' ? ['pending', 'succeeded'] : ['pending'];
  const moved = await trx
    .updateTable('refunds')
    .set((eb) => ({
      status: settle.status,
      provider_refund_id: eb.fn.coalesce(eb.val(settle.providerRefundId), eb.ref('provider_refund_id')),
      failure: settle.status === 'failed' ? (settle.failure ?? 'refused').slice(0, 500) : null,
      updated_at: iso,
    }))
    .where('id', '=', settle.refundId)
    .where('status', 'in', from)
    .returning(['order_id', 'amount_minor', 'currency', 'lines', 'return_id'])
    .executeTakeFirst();
  if (!moved) return false;
  if (settle.status === 'failed') {
    // A paid difference's refund was never held by the order's refunded amount (RefundPayment).
    const besides = await trx
      .selectFrom('returns')
      .select('id')
      .where('difference_refund_id', '=', settle.refundId)
      .where('difference_minor', '>', 0)
      .executeTakeFirst();
    // An exchange's price difference that did not go back is the owner's to refund again (decision 0039).
    await trx
      .updateTable('returns')
      .set({ difference_status: 'to_refund', difference_refund_id: null, updated_at: iso })
      .where('difference_refund_id', '=', settle.refundId)
      .where('difference_status', '=', 'refunded')
      .execute();
    if (!besides)
      await trx
        .updateTable('orders')
        .set((eb) => ({ refunded_minor: eb('refunded_minor', '-', moved.amount_minor), updated_at: iso }))
        .where('id', '=', moved.order_id)
        .execute();
    for (const line of refundLines(moved.lines)) {
      await trx
        .updateTable('order_lines')
        .set((eb) => ({ refunded_quantity: eb('refunded_quantity', '-', line.quantity) }))
        .where('id', '=', line.lineId)
        .where('order_id', '=', moved.order_id)
        .execute();
    }
  }
  await recordOrderEvent(trx, {
    orderId: moved.order_id,
    kind: settle.status === 'succeeded' ? 'refund_succeeded' : 'refund_failed',
    actor: settle.actor,
    detail: {
      refundId: settle.refundId,
      amountMinor: moved.amount_minor,
      currency: moved.currency,
      ...(settle.status === 'failed' ? { failure: settle.failure } : {}),
    },
    at: settle.now,
  });
  // A return's refund is told by the return's own email (return-steps.service.ts), once.
  if (settle.status === 'succeeded' && moved.return_id === null) {
    await queueOrderEmail(trx, {
      kind: 'order_refund',
      orderId: moved.order_id,
      refundId: settle.refundId,
      publicUrl: settle.publicUrl,
      now: settle.now,
    });
  }
  return true;
}

/**
 * Refunds an order, fully or partly (lines or an amount): reserve, ask the provider (Stripe's Refunds API
 * with an idempotency key, or the demo), record its answer. When the provider cannot be reached the refund
 * stays pending: Stripe's webhook or the background retry settles it, never a second refund.
 */
export async function refundOrder(deps: RefundDeps, admin: string, input: z.output<typeof refundOrderInput>) {
  return sendReservedRefund(deps, admin, await reserveRefund(deps, admin, input));
}

/** Asks the provider for a refund already reserved (a manual one is done already) and records its answer. */
export async function sendReservedRefund(deps: RefundDeps, admin: string, reserved: Reserved) {
  const { refundId, request } = reserved;
  if (reserved.manual) {
    deps.log.info(
      {
        event: 'orders.refund.manual',
        order: reserved.number,
        refund: refundId,
        amountMinor: request.amountMinor,
        currency: request.currency,
        account: admin,
      },
      `manual refund of order ${reserved.number} recorded`,
    );
    return {
      refundId,
      number: reserved.number,
      amountMinor: request.amountMinor,
      status: 'succeeded' as const,
    };
  }
  const settle = (
    outcome: { status: RefundStatus; providerRefundId: string | null; failure: string | null },
    actor: string,
  ) =>
    deps.db
      .transaction()
      .execute((trx) =>
        settleRefund(trx, { refundId, ...outcome, actor, now: deps.clock.now(), publicUrl: deps.publicUrl }),
      );
  let outcome: { status: RefundStatus; providerRefundId: string | null; failure: string | null };
  if (reserved.provider === 'stripe' && deps.payments.mode !== 'stripe') {
    outcome = {
      status: 'failed',
      providerRefundId: null,
      failure: 'This order was paid through Stripe, and Stripe is not configured on this store now.',
    };
  } else {
    try {
      // A demo order's refund is a demo refund, whatever the store takes today: no money moved.
      const answer =
        reserved.provider === 'stripe'
          ? await deps.payments.refund(request)
          : await new DemoGateway().refund(request);
      outcome = { status: answer.status, providerRefundId: answer.providerRefundId, failure: answer.failure };
      if (answer.paymentIntentId && reserved.orderPayment)
        await rememberPaymentIntent(deps.db, request.orderId, answer.paymentIntentId);
    } catch (error) {
      if (!(error instanceof RefundRefusedError)) {
        const reason = error instanceof PaymentProviderError ? error.message : String(error);
        deps.log.warn(
          { event: 'orders.refund.unanswered', refund: refundId, reason },
          'refund sent, no answer yet',
        );
        return {
          refundId,
          number: reserved.number,
          amountMinor: request.amountMinor,
          status: 'pending' as const,
        };
      }
      outcome = { status: 'failed', providerRefundId: null, failure: error.message };
    }
  }
  await settle(outcome, reserved.provider === 'stripe' ? 'Stripe' : admin);
  deps.log.info(
    {
      event: `orders.refund.${outcome.status}`,
      order: reserved.number,
      refund: refundId,
      amountMinor: request.amountMinor,
      currency: request.currency,
      account: admin,
    },
    `refund of order ${reserved.number}: ${outcome.status}`,
  );
  if (outcome.status === 'failed') {
    throw new TRPCError({
      code: 'BAD_GATEWAY',
      message: `The refund was refused: ${outcome.failure ?? 'no reason given'}`,
    });
  }
  return { refundId, number: reserved.number, amountMinor: request.amountMinor, status: outcome.status };
}

async function rememberPaymentIntent(db: Db, orderId: string, paymentIntentId: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ payment_intent_id: paymentIntentId })
    .where('id', '=', orderId)
    .where('payment_intent_id', 'is', null)
    .execute();
}

/**
 * What a refund webhook says, applied once (the caller records the event in the same transaction). A
 * refund the store asked for is settled; one made in Stripe's Dashboard is recorded as a refund of its order,
 * so the order and its emails tell the truth either way.
 */
export async function applyProviderRefund(
  trx: DbOrTx,
  refund: RefundOutcome,
  now: Date,
  publicUrl: string,
): Promise<{ orderId: string | null; outcome: string }> {
  let local = await trx
    .selectFrom('refunds')
    .select(['id', 'order_id', 'status'])
    .where((eb) =>
      eb.or([
        eb('provider_refund_id', '=', refund.providerRefundId),
        ...(refund.localRefundId ? [eb('id', '=', refund.localRefundId)] : []),
      ]),
    )
    .executeTakeFirst();
  if (!local) {
    const order = refund.paymentIntentId
      ? await trx
          .selectFrom('orders')
          .select(['id', 'currency', 'refunded_minor', 'total_minor', 'subtotal_minor'])
          .where('payment_intent_id', '=', refund.paymentIntentId)
          .executeTakeFirst()
      : undefined;
    if (!order) return { orderId: null, outcome: 'unknown-refund' };
    const left = (order.total_minor ?? order.subtotal_minor) - order.refunded_minor;
    const amount = Math.min(refund.amountMinor, left);
    if (amount <= 0) return { orderId: order.id, outcome: 'refund beyond what was paid (not recorded)' };
    const id = newRefundId();
    const iso = now.toISOString();
    await trx
      .updateTable('orders')
      .set((eb) => ({ refunded_minor: eb('refunded_minor', '+', amount), updated_at: iso }))
      .where('id', '=', order.id)
      .execute();
    await trx
      .insertInto('refunds')
      .values({
        id,
        order_id: order.id,
        amount_minor: amount,
        currency: order.currency,
        reason: 'Refunded in the Stripe Dashboard',
        status: 'pending',
        provider: 'stripe',
        provider_refund_id: refund.providerRefundId,
        failure: null,
        admin_email: 'Stripe Dashboard',
        created_at: iso,
        updated_at: iso,
      })
      .execute();
    await recordOrderEvent(trx, {
      orderId: order.id,
      kind: 'refund_requested',
      actor: 'Stripe Dashboard',
      detail: { refundId: id, amountMinor: amount, currency: order.currency },
      at: now,
    });
    local = { id, order_id: order.id, status: 'pending' };
  }
  const changed = await settleRefund(trx, {
    refundId: local.id,
    status: refund.status,
    providerRefundId: refund.providerRefundId,
    failure: refund.failure,
    actor: 'Stripe',
    now,
    publicUrl,
  });
  return {
    orderId: local.order_id,
    outcome: changed ? `refund ${refund.status}` : `refund unchanged (${local.status})`,
  };
}

/**
 * Settles Stripe refunds whose answer was lost (the store stopped, Stripe timed out): asks Stripe whether
 * the refund exists, and sends it again under the same idempotency key only when it does not, so a lost
 * answer never turns into a second refund. Run by the background housekeeping.
 */
export async function settlePendingRefunds(
  deps: Omit<RefundDeps, 'log'>,
  opts: { olderThan: Date },
): Promise<{ settled: number; failed: number }> {
  if (deps.payments.mode !== 'stripe') return { settled: 0, failed: 0 };
  const pending = await deps.db
    .selectFrom('refunds')
    .innerJoin('orders', 'orders.id', 'refunds.order_id')
    // A paid price difference goes back to the session that took it, not to the order's payment.
    .leftJoin('returns as paidDifference', (join) =>
      join
        .onRef('paidDifference.difference_refund_id', '=', 'refunds.id')
        .on('paidDifference.difference_minor', '>', 0),
    )
    .select([
      'refunds.id',
      'refunds.order_id',
      'refunds.amount_minor',
      'refunds.currency',
      'orders.payment_intent_id',
      'orders.stripe_session_id',
      'paidDifference.id as difference_of',
      'paidDifference.difference_payment_intent_id',
      'paidDifference.difference_session_id',
    ])
    .where('refunds.status', '=', 'pending')
    .where('refunds.provider', '=', 'stripe')
    .where('refunds.updated_at', '<', opts.olderThan.toISOString())
    .orderBy('refunds.created_at')
    .limit(100)
    .execute();
  let settled = 0;
  let failed = 0;
  for (const r of pending) {
    const request: RefundRequest = {
      refundId: r.id,
      orderId: r.order_id,
      paymentIntentId: r.difference_of ? r.difference_payment_intent_id : r.payment_intent_id,
      sessionId: r.difference_of ? r.difference_session_id : r.stripe_session_id,
      amountMinor: r.amount_minor,
      currency: r.currency,
    };
    try {
      let answer: { status: RefundStatus; providerRefundId: string | null; failure: string | null };
      try {
        answer = (await deps.payments.findRefund(request)) ?? (await deps.payments.refund(request));
      } catch (error) {
        if (!(error instanceof RefundRefusedError)) throw error;
        answer = { status: 'failed', providerRefundId: null, failure: error.message };
      }
      const changed = await deps.db.transaction().execute(async (trx) => {
        const moved = await settleRefund(trx, {
          refundId: r.id,
          ...answer,
          actor: 'Stripe',
          now: deps.clock.now(),
          publicUrl: deps.publicUrl,
        });
        // Still pending at Stripe: look again next round, not at once.
        if (!moved)
          await trx
            .updateTable('refunds')
            .set({ updated_at: deps.clock.now().toISOString() })
            .where('id', '=', r.id)
            .execute();
        return moved;
      });
      if (changed) settled += 1;
    } catch {
      failed += 1;
    }
  }
  return { settled, failed };
}
