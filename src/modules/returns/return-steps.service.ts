import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { DbOrTx, ReturnStatus } from '../../db/database.js';
import { FRESH_PROOF_MESSAGE } from '../../shared/auth.js';
import { ALL_COLOURS, colourKey, variantLabel } from '../../shared/colours.js';
import { formatMoney } from '../../shared/money.js';
import type { refundOrderInput } from '../../shared/order-admin-input.js';
import type {
  closeExchangeInput,
  closeRefundInput,
  declineReturnInput,
  receiveReturnInput,
} from '../../shared/return-admin-input.js';
import { recordOrderEvent } from '../orders/order-events.repository.js';
import {
  type RefundDeps,
  type RefundPayment,
  reserveRefundIn,
  sendReservedRefund,
} from '../orders/refunds.service.js';
import { releaseExchangeHolds, sellExchangeHolds } from './exchange-holds.js';
import { endDifference } from './return-differences.js';
import { queueReturnStepEmail } from './return-mail.js';

export type ReturnStepDeps = Pick<RefundDeps, 'db' | 'clock' | 'publicUrl'>;

const STATUS_WORDS: Record<ReturnStatus, string> = {
  requested: 'waiting for approval',
  approved: 'approved',
  declined: 'declined',
  received: 'received',
  closed: 'closed',
  cancelled: 'cancelled by the shopper',
};

/** The return and its order's number, for the refusals below; NOT_FOUND when there is none. */
export async function returnOf(trx: DbOrTx, id: string) {
  const row = await trx
    .selectFrom('returns as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select([
      'r.id',
      'r.order_id',
      'r.status',
      'r.resolution',
      'r.currency',
      'r.difference_minor',
      'r.difference_status',
      'o.number',
      'o.payment_method',
    ])
    .where('r.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'Return not found' });
  return row;
}

/** Said when the conditional UPDATE found the return elsewhere: another admin moved it first. */
export async function notAt(trx: DbOrTx, id: string, wanted: string): Promise<TRPCError> {
  const now = await returnOf(trx, id);
  return new TRPCError({
    code: 'CONFLICT',
    message: `This return of order #${now.number} is ${STATUS_WORDS[now.status]}: it cannot be ${wanted} now.`,
  });
}

/** One step's record in the order's story, and the shopper's email of it. */
async function told(
  trx: DbOrTx,
  deps: ReturnStepDeps,
  admin: string,
  step: {
    orderId: string;
    returnId: string;
    kind: 'return_approved' | 'return_declined' | 'return_received' | 'return_closed';
    mail: 'approved' | 'declined' | 'received' | 'exchange_shipped';
    detail?: Record<string, unknown>;
    now: Date;
  },
): Promise<void> {
  await recordOrderEvent(trx, {
    orderId: step.orderId,
    kind: step.kind,
    actor: admin,
    detail: { returnId: step.returnId, ...step.detail },
    at: step.now,
  });
  await queueReturnStepEmail(trx, { publicUrl: deps.publicUrl, now: step.now }, step.returnId, step.mail);
}

export async function approveReturn(deps: ReturnStepDeps, admin: string, id: string) {
  const now = deps.clock.now();
  const iso = now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('returns')
      .set({ status: 'approved', approved_at: iso, updated_at: iso })
      .where('id', '=', id)
      .where('status', '=', 'requested')
      .returning(['order_id'])
      .executeTakeFirst();
    if (!moved) throw await notAt(trx, id, 'approved');
    await told(trx, deps, admin, {
      orderId: moved.order_id,
      returnId: id,
      kind: 'return_approved',
      mail: 'approved',
      now,
    });
    return { id, status: 'approved' as const };
  });
}

/**
 * Declined while requested or approved (a parcel that never came): the held replacement goes back, and a
 * price difference the shopper paid is owed back (endDifference).
 */
export async function declineReturn(
  deps: ReturnStepDeps,
  admin: string,
  input: z.output<typeof declineReturnInput>,
) {
  const now = deps.clock.now();
  const iso = now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    // One conditional UPDATE per status it may leave, so the audit's `from` is the status it really left,
    // even when another admin approved it a moment before.
    let moved: { order_id: string; from: 'requested' | 'approved' } | undefined;
    for (const from of ['requested', 'approved'] as const) {
      const row = await trx
        .updateTable('returns')
        .set({ status: 'declined', decline_reason: input.reason, closed_at: iso, updated_at: iso })
        .where('id', '=', input.id)
        .where('status', '=', from)
        .returning(['order_id'])
        .executeTakeFirst();
      if (row) {
        moved = { order_id: row.order_id, from };
        break;
      }
    }
    if (!moved) throw await notAt(trx, input.id, 'declined');
    await releaseExchangeHolds(trx, input.id);
    await recordOrderEvent(trx, {
      orderId: moved.order_id,
      kind: 'return_declined',
      actor: admin,
      detail: { returnId: input.id, reason: input.reason },
      at: now,
    });
    // Settled before the email is queued, so the email says what became of it.
    const difference = await endDifference(trx, {
      returnId: input.id,
      orderId: moved.order_id,
      actor: admin,
      now,
    });
    await queueReturnStepEmail(trx, { publicUrl: deps.publicUrl, now }, input.id, 'declined');
    return { id: input.id, status: 'declined' as const, from: moved.from, differenceStatus: difference };
  });
}

/**
 * The parcel came back: its condition is kept and the units the owner names go back on the shelf of the
 * colour and size they were sold from. The step moves once, so its units are put back once; a line never
 * gives back more units than it returns.
 */
export async function receiveReturn(
  deps: ReturnStepDeps,
  admin: string,
  input: z.output<typeof receiveReturnInput>,
) {
  const now = deps.clock.now();
  const iso = now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('returns')
      .set({ status: 'received', condition_note: input.condition || null, received_at: iso, updated_at: iso })
      .where('id', '=', input.id)
      .where('status', '=', 'approved')
      .returning(['order_id'])
      .executeTakeFirst();
    if (!moved) throw await notAt(trx, input.id, 'marked received');
    const lines = await trx
      .selectFrom('return_lines as rl')
      .innerJoin('order_lines as ol', 'ol.id', 'rl.order_line_id')
      .select(['rl.order_line_id', 'rl.quantity', 'ol.product_id', 'ol.colour', 'ol.size', 'ol.title'])
      .where('rl.return_id', '=', input.id)
      .execute();
    let restocked = 0;
    for (const want of input.restock) {
      if (want.quantity === 0) continue;
      const line = lines.find((l) => l.order_line_id === want.lineId);
      if (!line)
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: 'A line to restock is not part of this return.',
        });
      const put = await trx
        .updateTable('return_lines')
        .set((eb) => ({ restocked: eb('restocked', '+', want.quantity) }))
        .where('return_id', '=', input.id)
        .where('order_line_id', '=', want.lineId)
        .where((eb) => eb(eb('restocked', '+', want.quantity), '<=', eb.ref('quantity')))
        .executeTakeFirst();
      if (Number(put.numUpdatedRows) === 0)
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: `${line.title} (${variantLabel(line.colour, line.size)}): only ${line.quantity} came back.`,
        });
      if (line.size !== null) await putBackUnits(trx, line.product_id, line.colour, line.size, want.quantity);
      restocked += want.quantity;
    }
    await told(trx, deps, admin, {
      orderId: moved.order_id,
      returnId: input.id,
      kind: 'return_received',
      mail: 'received',
      detail: { condition: input.condition || null, restock: input.restock.filter((r) => r.quantity > 0) },
      now,
    });
    return { id: input.id, status: 'received' as const, restockedUnits: restocked };
  });
}

/** On hand up on the colour's own count, else every colour's, as a sale takes them; an untracked size has none. */
async function putBackUnits(
  trx: DbOrTx,
  productId: string,
  colour: string | null,
  size: string,
  units: number,
): Promise<void> {
  const key = colour ? colourKey(colour) : ALL_COLOURS;
  for (const pool of [...new Set([key, ALL_COLOURS])]) {
    const put = await trx
      .updateTable('size_stock')
      .set((eb) => ({ on_hand: eb('on_hand', '+', units) }))
      .where('product_id', '=', productId)
      .where('colour', '=', pool)
      .where('size', '=', size)
      .executeTakeFirst();
    if (Number(put.numUpdatedRows) > 0) return;
  }
}

/** Who closes an exchange: the owner with a fresh confirmation may refund its price difference (decision 0039). */
export type Closer = { email: string; owner: boolean; freshlyConfirmed: boolean };

/**
 * The replacement leaves with its tracking and the held units are sold. Its price difference, fixed at the
 * request (decision 0039), is settled here: one the shopper owes must be paid first, except on a
 * cash-on-delivery order, where the courier collects it with the replacement; one the shop owes goes back
 * through the order's refund, promised in the transaction that closes (the owner's, freshly confirmed). A
 * provider that refuses leaves the exchange closed and its difference 'to_refund', for refundDifference.
 */
export async function closeExchange(
  deps: RefundDeps,
  closer: Closer,
  input: z.output<typeof closeExchangeInput>,
) {
  const now = deps.clock.now();
  const iso = now.toISOString();
  const admin = closer.email;
  const closed = await deps.db.transaction().execute(async (trx) => {
    const ret = await returnOf(trx, input.id);
    if (ret.resolution !== 'exchange')
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'This return asks for a refund, not an exchange: close it with the refund.',
      });
    if (ret.status !== 'received') throw await notAt(trx, input.id, 'closed with a shipment');
    const amount = formatMoney(Math.abs(ret.difference_minor), ret.currency);
    const cod = ret.payment_method === 'cash_on_delivery';
    if (ret.difference_status === 'due' && !cod)
      throw new TRPCError({
        code: 'CONFLICT',
        message: `The shopper has not paid the difference${closer.owner ? ` (${amount})` : ''} yet: it is paid from the order page, or record it paid if it came another way.`,
      });
    const refunding = ret.difference_status === 'to_refund';
    if (refunding && !closer.owner)
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'This exchange gives a price difference back to the shopper: the owner must close it.',
      });
    if (refunding && !closer.freshlyConfirmed)
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: FRESH_PROOF_MESSAGE });
    const differenceStatus =
      ret.difference_status === 'due'
        ? 'collect_on_delivery'
        : refunding
          ? 'refunded'
          : ret.difference_status;
    const moved = await trx
      .updateTable('returns')
      .set({
        status: 'closed',
        exchange_carrier: input.carrier,
        exchange_tracking: input.trackingNumber,
        closed_at: iso,
        updated_at: iso,
        difference_status: differenceStatus,
      })
      .where('id', '=', input.id)
      .where('status', '=', 'received')
      .where('resolution', '=', 'exchange')
      .where('difference_status', '=', ret.difference_status)
      .returning(['order_id'])
      .executeTakeFirst();
    if (!moved) throw await notAt(trx, input.id, 'closed with a shipment');
    await sellExchangeHolds(trx, input.id);
    const reserved = refunding
      ? await reserveDifferenceRefund(
          trx,
          deps,
          admin,
          { id: input.id, orderId: moved.order_id, number: ret.number },
          { amountMinor: -ret.difference_minor, paidVia: input.paidVia, note: input.note },
        )
      : null;
    await recordOrderEvent(trx, {
      orderId: moved.order_id,
      kind: 'return_closed',
      actor: admin,
      detail: {
        returnId: input.id,
        resolution: 'exchange',
        carrier: input.carrier,
        trackingNumber: input.trackingNumber,
        ...(ret.difference_minor !== 0 ? { differenceStatus } : {}),
        ...(reserved ? { refundId: reserved.refundId } : {}),
      },
      at: now,
    });
    // A provider's refund is told with the shipment once the provider answered, so the email says which.
    if (!reserved || reserved.manual) await queueShippedEmail(trx, deps, input.id, now);
    return { orderId: moved.order_id, reserved, differenceStatus };
  });
  const done = {
    id: input.id,
    status: 'closed' as const,
    differenceStatus: closed.differenceStatus,
    refund: null as Awaited<ReturnType<typeof sendReservedRefund>> | null,
    refundRefused: null as string | null,
  };
  if (!closed.reserved) return done;
  if (closed.reserved.manual) {
    done.refund = await sendReservedRefund(deps, admin, closed.reserved);
    return done;
  }
  try {
    done.refund = await sendReservedRefund(deps, admin, closed.reserved);
  } catch (error) {
    // settleRefund put the difference back to 'to_refund' with the refund's failure on the timeline.
    done.refundRefused = error instanceof Error ? error.message : String(error);
    done.differenceStatus = 'to_refund';
  }
  await deps.db.transaction().execute((trx) => queueShippedEmail(trx, deps, input.id, deps.clock.now()));
  return done;
}

function queueShippedEmail(trx: DbOrTx, deps: ReturnStepDeps, returnId: string, now: Date) {
  return queueReturnStepEmail(trx, { publicUrl: deps.publicUrl, now }, returnId, 'exchange_shipped');
}

/**
 * Promises an exchange's price difference back through the order's refunds (reserveRefundIn, in the
 * caller's transaction) and names the refund on the return. `besides`: money the shopper paid besides the
 * order's total, and the payment it goes back to; without it, out of what the order was paid.
 */
export async function reserveDifferenceRefund(
  trx: DbOrTx,
  deps: Pick<RefundDeps, 'clock' | 'publicUrl'>,
  admin: string,
  ret: { id: string; orderId: string; number: number },
  money: { amountMinor: number; besides?: RefundPayment } & Pick<
    z.output<typeof refundOrderInput>,
    'paidVia' | 'note'
  >,
) {
  const reserved = await reserveRefundIn(
    trx,
    deps,
    admin,
    {
      id: ret.orderId,
      amountMinor: money.amountMinor,
      reason: `Exchange on order #${ret.number}: price difference`,
      paidVia: money.paidVia,
      note: money.note,
    },
    { returnId: ret.id, ...(money.besides ? { besides: money.besides } : {}) },
  );
  await trx
    .updateTable('returns')
    .set({ difference_refund_id: reserved.refundId })
    .where('id', '=', ret.id)
    .execute();
  return reserved;
}

export function queueRefundedEmail(trx: DbOrTx, deps: ReturnStepDeps, returnId: string, now: Date) {
  return queueReturnStepEmail(trx, { publicUrl: deps.publicUrl, now }, returnId, 'refunded');
}

/**
 * The money back for the returned lines, through the order's refund (a card's through its provider, cash
 * on delivery's or a transfer's recorded as paid back by hand): the units' charged prices after sales and
 * codes, never more than is left to refund. The return closes in the same transaction as the refund is
 * promised, so two admins closing it at once refund once. A provider that refuses gives the return back to
 * 'received' so the owner can try again.
 */
export async function closeRefund(deps: RefundDeps, admin: string, input: z.output<typeof closeRefundInput>) {
  const now = deps.clock.now();
  const iso = now.toISOString();
  const reserved = await deps.db.transaction().execute(async (trx) => {
    const ret = await returnOf(trx, input.id);
    if (ret.resolution !== 'refund')
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'This return asks for an exchange, not a refund: close it with the shipment.',
      });
    const moved = await trx
      .updateTable('returns')
      .set({ status: 'closed', closed_at: iso, updated_at: iso })
      .where('id', '=', input.id)
      .where('status', '=', 'received')
      .where('resolution', '=', 'refund')
      .returning(['order_id'])
      .executeTakeFirst();
    if (!moved) throw await notAt(trx, input.id, 'refunded');
    const lines = await trx
      .selectFrom('return_lines')
      .select(['order_line_id', 'quantity'])
      .where('return_id', '=', input.id)
      .orderBy('order_line_id')
      .execute();
    const reserved = await reserveRefundIn(
      trx,
      deps,
      admin,
      {
        id: moved.order_id,
        reason: `Return of order #${ret.number}`,
        lines: lines.map((l) => ({ lineId: l.order_line_id, quantity: l.quantity })),
        paidVia: input.paidVia,
        note: input.note,
      },
      { returnId: input.id },
    );
    await trx
      .updateTable('returns')
      .set({ refunded_minor: reserved.request.amountMinor })
      .where('id', '=', input.id)
      .execute();
    await recordOrderEvent(trx, {
      orderId: moved.order_id,
      kind: 'return_closed',
      actor: admin,
      detail: {
        returnId: input.id,
        resolution: 'refund',
        refundId: reserved.refundId,
        amountMinor: reserved.request.amountMinor,
        currency: reserved.request.currency,
      },
      at: now,
    });
    // Money paid back by hand is back already; a provider's refund is told once the provider took it.
    if (reserved.manual) await queueRefundedEmail(trx, deps, input.id, now);
    return reserved;
  });
  try {
    const refund = await sendReservedRefund(deps, admin, reserved);
    if (!reserved.manual)
      await deps.db.transaction().execute((trx) => queueRefundedEmail(trx, deps, input.id, deps.clock.now()));
    return { id: input.id, status: 'closed' as const, refund };
  } catch (error) {
    await deps.db.transaction().execute(async (trx) => {
      const back = await trx
        .updateTable('returns')
        .set({
          status: 'received',
          closed_at: null,
          refunded_minor: null,
          updated_at: deps.clock.now().toISOString(),
        })
        .where('id', '=', input.id)
        .where('status', '=', 'closed')
        .returning(['order_id'])
        .executeTakeFirst();
      if (back)
        await recordOrderEvent(trx, {
          orderId: back.order_id,
          kind: 'return_received',
          actor: admin,
          detail: { returnId: input.id, refundRefused: reserved.refundId },
          at: deps.clock.now(),
        });
    });
    throw error;
  }
}
