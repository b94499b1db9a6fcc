import { TRPCError } from '@trpc/server';
import type { Clock } from '../../core/clock.js';
import type { Db, DbOrTx, ReturnDifferenceStatus, ReturnStatus } from '../../db/database.js';
import { durableTransaction } from '../../db/durable.js';
import { recordOrderEvent } from '../orders/order-events.repository.js';
import { DEMO_DIFFERENCE_PREFIX } from '../payments/demo-gateway.js';
import type { PaymentGateway, SessionOutcome } from '../payments/payment-gateway.js';
import { openOrderPage } from './order-page-access.js';
import { queueReturnStepEmail } from './return-mail.js';

/**
 * Paying an exchange's price difference (decision 0039): a Checkout session (Stripe's, or the demo's) opened
 * from the order page, whose payment is applied to the return, never to the order.
 */

export type DifferencePayDeps = { db: Db; clock: Clock; publicUrl: string; payments: PaymentGateway };

/** Whether the shopper may pay the difference online now: a card order, the exchange approved or received. */
export function canPayDifference(r: {
  status: ReturnStatus;
  difference_status: ReturnDifferenceStatus;
  difference_minor: number;
  payment_method: string | null;
}): boolean {
  return (
    r.payment_method === 'card' &&
    (r.status === 'approved' || r.status === 'received') &&
    r.difference_status === 'due' &&
    r.difference_minor > 0
  );
}

const NOT_FOUND = () => new TRPCError({ code: 'NOT_FOUND', message: 'Return not found' });

/** The session that pays a return's difference, opened with the same guard as the order page. */
export async function payReturnDifference(
  deps: DifferencePayDeps,
  input: { orderId: string; token: string; returnId: string },
): Promise<{ url: string }> {
  const order = await openOrderPage(deps.db, input.orderId, input.token);
  const ret = await deps.db
    .selectFrom('returns as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select([
      'r.id',
      'r.status',
      'r.difference_minor',
      'r.difference_status',
      'o.payment_method',
      'o.customer_email',
    ])
    .where('r.id', '=', input.returnId)
    .where('r.order_id', '=', order.id)
    .executeTakeFirst();
  if (!ret) throw NOT_FOUND();
  if (!canPayDifference(ret))
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message:
        ret.difference_status !== 'due'
          ? 'This exchange has no price difference left to pay.'
          : ret.payment_method !== 'card'
            ? 'The price difference of this exchange is paid as the shop tells you, not online.'
            : 'The price difference can be paid once the shop approves your exchange.',
    });
  const session = await deps.payments.createDifferenceSession({
    orderId: order.id,
    orderNumber: order.number,
    returnId: ret.id,
    token: input.token,
    amountMinor: ret.difference_minor,
    currency: order.currency,
    customerEmail: ret.customer_email,
    publicUrl: deps.publicUrl,
  });
  // The last session opened is the one the demo page can complete; Stripe's name the return themselves.
  await deps.db
    .updateTable('returns')
    .set({ difference_session_id: session.id, updated_at: deps.clock.now().toISOString() })
    .where('id', '=', ret.id)
    .where('difference_status', '=', 'due')
    .execute();
  return { url: session.url };
}

/**
 * What a difference session's payment does (the webhook's and the demo page's one path): one conditional
 * UPDATE from 'due' to 'paid', an order event and the shopper's email. A second session paid for a
 * difference already paid (two tabs, or the owner recorded it paid another way) changes nothing but is put on
 * the order's timeline for the owner to refund; a later event of the session that paid is nothing new.
 */
export async function applyDifferenceOutcome(
  trx: DbOrTx,
  outcome: SessionOutcome,
  now: Date,
  publicUrl: string,
): Promise<{ orderId: string | null; outcome: string }> {
  // Take the return's row first (a no-op UPDATE, as requestReturn takes the order's): two events of one
  // return at once read it one after the other on PostgreSQL too, each seeing what the other did.
  if (outcome.returnId)
    await trx
      .updateTable('returns')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', outcome.returnId)
      .execute();
  const ret = outcome.returnId
    ? await trx
        .selectFrom('returns')
        .select([
          'id',
          'order_id',
          'currency',
          'difference_minor',
          'difference_status',
          'difference_session_id',
          'difference_paid_via',
        ])
        .where('id', '=', outcome.returnId)
        .executeTakeFirst()
    : undefined;
  // A session whose order is not the return's is nobody's.
  if (!ret || (outcome.orderId !== null && outcome.orderId !== ret.order_id))
    return { orderId: null, outcome: 'unknown-session' };
  if (outcome.status !== 'paid') return { orderId: ret.order_id, outcome: `difference ${outcome.status}` };
  const iso = now.toISOString();
  const actor = outcome.sessionId.startsWith(DEMO_DIFFERENCE_PREFIX) ? 'shopper (demo payment)' : 'Stripe';
  // A return that ended (declined, cancelled) while its page was open takes the payment as owed back.
  const moved = await trx
    .updateTable('returns')
    .set((eb) => ({
      difference_status: eb
        .case()
        .when('status', 'in', ['declined', 'cancelled'])
        .then(eb.val<ReturnDifferenceStatus>('to_refund'))
        .else(eb.val<ReturnDifferenceStatus>('paid'))
        .end(),
      difference_paid_via: 'card',
      difference_paid_at: iso,
      difference_payment_intent_id: outcome.paymentIntentId,
      difference_session_id: outcome.sessionId,
      updated_at: iso,
    }))
    .where('id', '=', ret.id)
    .where('difference_status', '=', 'due')
    .returning(['difference_status'])
    .executeTakeFirst();
  const money = { amountMinor: outcome.amountTotalMinor ?? ret.difference_minor, currency: ret.currency };
  if (moved) {
    await recordOrderEvent(trx, {
      orderId: ret.order_id,
      kind: 'return_difference_paid',
      actor,
      detail: { returnId: ret.id, ...money, paidVia: 'card', sessionId: outcome.sessionId },
      at: now,
    });
    if (moved.difference_status === 'to_refund')
      await recordOrderEvent(trx, {
        orderId: ret.order_id,
        kind: 'return_difference_to_refund',
        actor,
        detail: { returnId: ret.id, ...money, paidVia: 'card' },
        at: now,
      });
    await queueReturnStepEmail(trx, { publicUrl, now }, ret.id, 'difference_paid');
    return { orderId: ret.order_id, outcome: `difference due->${moved.difference_status}` };
  }
  if (ret.difference_paid_via === 'card' && ret.difference_session_id === outcome.sessionId)
    return { orderId: ret.order_id, outcome: 'difference unchanged (paid)' };
  await recordOrderEvent(trx, {
    orderId: ret.order_id,
    kind: 'return_difference_paid_again',
    actor,
    detail: {
      returnId: ret.id,
      ...money,
      sessionId: outcome.sessionId,
      paymentIntentId: outcome.paymentIntentId,
      status: ret.difference_status,
    },
    at: now,
  });
  return { orderId: ret.order_id, outcome: `difference paid again (${ret.difference_status}): refund it` };
}

/**
 * A return ending without its exchange shipping (declined, cancelled) settles its price difference in the
 * transaction that ends it, before the step's email is queued: one the shopper paid is owed back
 * ('to_refund', refunded by the owner with refundDifference, to the payment that took it); one the shop
 * was to give back when shipping is owed no more ('none'); one still due stays 'due' but can no longer be
 * paid (a payment that arrives after all is owed back, applyDifferenceOutcome).
 */
export async function endDifference(
  trx: DbOrTx,
  ended: { returnId: string; orderId: string; actor: string; now: Date },
): Promise<ReturnDifferenceStatus | null> {
  const iso = ended.now.toISOString();
  const owed = await trx
    .updateTable('returns')
    .set({ difference_status: 'to_refund', updated_at: iso })
    .where('id', '=', ended.returnId)
    .where('status', 'in', ['declined', 'cancelled'])
    .where('difference_status', '=', 'paid')
    .where('difference_minor', '>', 0)
    .returning(['difference_minor', 'currency', 'difference_paid_via'])
    .executeTakeFirst();
  if (owed) {
    await recordOrderEvent(trx, {
      orderId: ended.orderId,
      kind: 'return_difference_to_refund',
      actor: ended.actor,
      detail: {
        returnId: ended.returnId,
        amountMinor: owed.difference_minor,
        currency: owed.currency,
        paidVia: owed.difference_paid_via,
      },
      at: ended.now,
    });
    return 'to_refund';
  }
  const dropped = await trx
    .updateTable('returns')
    .set({ difference_status: 'none', updated_at: iso })
    .where('id', '=', ended.returnId)
    .where('status', 'in', ['declined', 'cancelled'])
    .where('difference_status', '=', 'to_refund')
    .where('difference_minor', '<', 0)
    .where('difference_refund_id', 'is', null)
    .executeTakeFirst();
  return Number(dropped.numUpdatedRows) > 0 ? 'none' : null;
}

/** The return whose demo difference session this is; null for any other id. */
async function demoSessionReturn(db: DbOrTx, sessionId: string) {
  if (!sessionId.startsWith(DEMO_DIFFERENCE_PREFIX)) return null;
  const found = await db
    .selectFrom('returns as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.id', 'r.order_id', 'r.currency', 'r.difference_minor', 'o.number'])
    .where('r.difference_session_id', '=', sessionId)
    .executeTakeFirst();
  return found ?? null;
}

/** What the demo payment page shows of a difference session. */
export async function demoDifferenceSummary(db: DbOrTx, sessionId: string) {
  const ret = await demoSessionReturn(db, sessionId);
  if (!ret) throw NOT_FOUND();
  return {
    orderNumber: ret.number,
    amountMinor: ret.difference_minor,
    currency: ret.currency,
    title: `Exchange on order #${ret.number}: price difference`,
  };
}

/** The demo page's Pay: the outcome a Stripe webhook would bring, applied the same way. */
export async function completeDemoDifference(
  deps: Omit<DifferencePayDeps, 'payments'>,
  sessionId: string,
): Promise<{ outcome: string }> {
  const ret = await demoSessionReturn(deps.db, sessionId);
  if (!ret) throw NOT_FOUND();
  return durableTransaction(deps.db, (trx) =>
    applyDifferenceOutcome(
      trx,
      {
        sessionId,
        orderId: ret.order_id,
        returnId: ret.id,
        purpose: 'return_difference',
        status: 'paid',
        amountTotalMinor: ret.difference_minor,
        currency: ret.currency,
        customerEmail: null,
        customerName: null,
        shippingAddress: null,
        billingAddress: null,
        paymentIntentId: null,
      },
      deps.clock.now(),
      deps.publicUrl,
    ),
  );
}
