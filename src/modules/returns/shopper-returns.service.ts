import { randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { Clock } from '../../core/clock.js';
import type { Db, DbOrTx } from '../../db/database.js';
import { durableTransaction } from '../../db/durable.js';
import { ALL_COLOURS, colourKey, variantLabel } from '../../shared/colours.js';
import {
  type CustomerReturnView,
  RETURN_LIMITS,
  RETURN_REASON_LABEL,
  type ReturnOptionsView,
} from '../../shared/returns.js';
import { sizeKey } from '../../shared/sizes.js';
import { recordOrderEvent } from '../orders/order-events.repository.js';
import { StockShortage } from '../stock/reservations.js';
import { holdExchangeUnits, releaseExchangeHolds } from './exchange-holds.js';
import { openOrderPage } from './order-page-access.js';
import { colourNameOf } from './return-colours.js';
import { canPayDifference, endDifference } from './return-differences.js';
import {
  CONTACT,
  orderWindow,
  replacementOptions,
  returnableLines,
  unitDifference,
} from './return-eligibility.js';
import type { RequestReturnInput } from './return-input.js';
import { queueReturnStepEmail } from './return-mail.js';
import { loadReturnSettings } from './return-settings.js';

export type ShopperReturnDeps = { db: Db; clock: Clock; publicUrl: string };

const bad = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });

function newReturnId(): string {
  return `ret_${randomBytes(12).toString('base64url')}`;
}

/** What the order page offers: whether the order may be returned, and each line's returnable units and sizes. */
export async function returnOptions(
  deps: ShopperReturnDeps,
  input: { orderId: string; token: string },
): Promise<ReturnOptionsView> {
  const order = await openOrderPage(deps.db, input.orderId, input.token);
  const settings = await loadReturnSettings(deps.db);
  const window = orderWindow(order, settings, deps.clock.now());
  const lines = await returnableLines(deps.db, order.id, settings);
  const open = window.eligible && lines.some((l) => l.returnable > 0);
  const view: ReturnOptionsView = {
    eligible: open,
    reasonIfNot: window.eligible
      ? open
        ? null
        : 'Nothing on this order can be returned online: final-sale items, or everything is already in a return.'
      : window.reasonIfNot,
    windowEndsAt: window.windowEndsAt,
    settings: {
      postagePaidBy: settings.postagePaidBy,
      instructions: settings.instructions,
      refundReasons: settings.refundReasons,
    },
    lines: [],
  };
  for (const line of lines) {
    const options =
      window.eligible && line.returnable > 0
        ? await replacementOptions(deps.db, line)
        : { nextSizes: { too_small: null, too_big: null }, alternatives: [] };
    view.lines.push({
      lineId: line.lineId,
      title: line.title,
      colour: line.colour,
      size: line.size,
      returnable: window.eligible ? line.returnable : 0,
      finalSale: line.finalSale,
      ...options,
    });
  }
  return view;
}

/**
 * The shopper asks to return or exchange lines of their order (decision 0039). In one transaction that first
 * locks the order's row (a no-op UPDATE, which PostgreSQL serialises on and SQLite's single writer already
 * does), so two requests for one line at once see each other and only one gets it: the window, the final-sale
 * tags, the quantities left, the reason's resolution and the per-order limit are checked, the rows written,
 * the replacements held as checkout holds stock (concurrent exchanges for the last unit give one), the step put
 * on the order's timeline and the email queued.
 */
export async function requestReturn(
  deps: ShopperReturnDeps,
  input: RequestReturnInput,
): Promise<{ returnId: string }> {
  const order = await openOrderPage(deps.db, input.orderId, input.token);
  const now = deps.clock.now();
  const iso = now.toISOString();
  const resolution = input.lines.some((l) => l.exchange) ? 'exchange' : 'refund';
  const returnId = newReturnId();
  try {
    await durableTransaction(deps.db, async (trx) => {
      await trx
        .updateTable('orders')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', order.id)
        .execute();
      const settings = await loadReturnSettings(trx);
      const window = orderWindow(order, settings, now);
      if (!window.eligible)
        throw bad(`${window.reasonIfNot ?? 'This order cannot be returned online.'} ${CONTACT}`);
      if (resolution === 'refund' && !settings.refundReasons.includes(input.reason))
        throw bad(
          `For “${RETURN_REASON_LABEL[input.reason]}” this shop offers an exchange: choose a replacement size or colour.`,
        );
      const asked = await trx
        .selectFrom('returns')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', order.id)
        .executeTakeFirstOrThrow();
      if (Number(asked.n) >= RETURN_LIMITS.maxRequestsPerOrder)
        throw new TRPCError({
          code: 'TOO_MANY_REQUESTS',
          message: `This order already has ${RETURN_LIMITS.maxRequestsPerOrder} return requests. Please contact the shop.`,
        });
      const lines = await returnableLines(trx, order.id, settings);
      const rows: Array<{
        order_line_id: number;
        quantity: number;
        exchange_colour: string | null;
        exchange_size: string | null;
        difference_minor: number;
      }> = [];
      for (const want of input.lines) {
        const line = lines.find((l) => l.lineId === want.lineId);
        if (!line) throw bad('One of the items is not on this order.');
        const name = `${line.title}${line.size || line.colour ? ` (${variantLabel(line.colour, line.size)})` : ''}`;
        if (line.finalSale)
          throw bad(`${name} is final sale and cannot be returned online. Please contact the shop.`);
        if (want.quantity > line.returnable)
          throw bad(
            line.returnable === 0
              ? `${name}: all of it is already in a return or refunded.`
              : `${name}: at most ${line.returnable} can be returned.`,
          );
        let exchangeColour: string | null = null;
        let exchangeSize: string | null = null;
        let difference = 0;
        if (want.exchange) {
          const product = line.product;
          if (!product)
            throw bad(`${name} is no longer sold, so it cannot be exchanged. Choose a refund instead.`);
          const size = product.sizes.find((s) => sizeKey(s) === sizeKey(want.exchange?.size ?? ''));
          if (!size) throw bad(`${name} does not come in size ${want.exchange.size.slice(0, 50)}.`);
          if (product.colours.length === 0) {
            if (want.exchange.colour) throw bad(`${name} comes in one colour only.`);
            exchangeColour = ALL_COLOURS;
          } else {
            const askedKey = want.exchange.colour
              ? colourKey(want.exchange.colour)
              : line.colour
                ? colourKey(line.colour)
                : '';
            const colour = product.colours.find((c) => c.key === askedKey);
            if (!colour) throw bad(`${name} does not come in that colour.`);
            exchangeColour = colour.key;
          }
          exchangeSize = size;
          // Fixed now, at the prices the shopper is shown: a later price change does not move it.
          const unit = unitDifference(line, exchangeColour);
          if (unit === null)
            throw bad(
              `${name} is now sold in another currency than your order was paid in, so it cannot be exchanged online. Choose a refund, or contact the shop.`,
            );
          difference = unit * want.quantity;
        }
        rows.push({
          order_line_id: line.lineId,
          quantity: want.quantity,
          exchange_colour: exchangeColour,
          exchange_size: exchangeSize,
          difference_minor: difference,
        });
      }
      const differenceMinor = rows.reduce((sum, r) => sum + r.difference_minor, 0);
      await trx
        .insertInto('returns')
        .values({
          id: returnId,
          order_id: order.id,
          status: 'requested',
          reason: input.reason,
          reason_text: input.reasonText || null,
          resolution,
          decline_reason: null,
          condition_note: null,
          exchange_carrier: null,
          exchange_tracking: null,
          refunded_minor: null,
          currency: order.currency,
          created_at: iso,
          updated_at: iso,
          approved_at: null,
          received_at: null,
          closed_at: null,
          difference_minor: differenceMinor,
          difference_status: differenceMinor > 0 ? 'due' : differenceMinor < 0 ? 'to_refund' : 'none',
        })
        .execute();
      await trx
        .insertInto('return_lines')
        .values(rows.map((r) => ({ return_id: returnId, ...r })))
        .execute();
      await holdExchangeUnits(trx, returnId);
      await recordOrderEvent(trx, {
        orderId: order.id,
        kind: 'return_requested',
        actor: 'shopper',
        detail: {
          returnId,
          resolution,
          reason: RETURN_REASON_LABEL[input.reason],
          summary: `${rows.reduce((s, r) => s + r.quantity, 0)} item(s)`,
          ...(differenceMinor !== 0 ? { differenceMinor, currency: order.currency } : {}),
        },
        at: now,
      });
      await queueReturnStepEmail(trx, { publicUrl: deps.publicUrl, now }, returnId, 'requested');
    });
  } catch (error) {
    if (error instanceof StockShortage) throw bad(`${error.message} Choose another size, or a refund.`);
    throw error;
  }
  return { returnId };
}

/**
 * The shopper withdraws a return not yet received: one conditional UPDATE, the replacements go back on the
 * shelf, and a price difference already paid is owed back (endDifference).
 */
export async function cancelReturn(
  deps: ShopperReturnDeps,
  input: { orderId: string; token: string; returnId: string },
): Promise<{ ok: true }> {
  const order = await openOrderPage(deps.db, input.orderId, input.token);
  const now = deps.clock.now();
  const iso = now.toISOString();
  const outcome = await durableTransaction(deps.db, async (trx) => {
    const moved = await trx
      .updateTable('returns')
      .set({ status: 'cancelled', updated_at: iso, closed_at: iso })
      .where('id', '=', input.returnId)
      .where('order_id', '=', order.id)
      .where('status', 'in', ['requested', 'approved'])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return 'unmoved' as const;
    await releaseExchangeHolds(trx, input.returnId);
    await recordOrderEvent(trx, {
      orderId: order.id,
      kind: 'return_cancelled',
      actor: 'shopper',
      detail: { returnId: input.returnId },
      at: now,
    });
    await endDifference(trx, { returnId: input.returnId, orderId: order.id, actor: 'shopper', now });
    await queueReturnStepEmail(trx, { publicUrl: deps.publicUrl, now }, input.returnId, 'cancelled');
    return 'cancelled' as const;
  });
  if (outcome === 'cancelled') return { ok: true };
  const found = await deps.db
    .selectFrom('returns')
    .select('status')
    .where('id', '=', input.returnId)
    .where('order_id', '=', order.id)
    .executeTakeFirst();
  if (!found) throw new TRPCError({ code: 'NOT_FOUND', message: 'Return not found' });
  throw bad(
    found.status === 'cancelled'
      ? 'This return is already cancelled.'
      : 'This return can no longer be cancelled: the shop has already received it or finished it.',
  );
}

/** The order's returns as its page shows them, oldest first. */
export async function customerReturns(db: DbOrTx, orderId: string): Promise<CustomerReturnView[]> {
  const order = await db
    .selectFrom('orders')
    .select(['payment_method'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  const returns = await db
    .selectFrom('returns')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (returns.length === 0) return [];
  const lines = await db
    .selectFrom('return_lines as rl')
    .innerJoin('order_lines as ol', 'ol.id', 'rl.order_line_id')
    .select([
      'rl.return_id',
      'rl.order_line_id',
      'ol.product_id',
      'ol.title',
      'rl.quantity',
      'rl.exchange_size',
      'rl.exchange_colour',
      'rl.difference_minor',
    ])
    .where(
      'rl.return_id',
      'in',
      returns.map((r) => r.id),
    )
    .orderBy('rl.order_line_id')
    .execute();
  const views: CustomerReturnView[] = [];
  for (const r of returns) {
    const mine = lines.filter((l) => l.return_id === r.id);
    const shown: CustomerReturnView['lines'] = [];
    for (const l of mine)
      shown.push({
        lineId: l.order_line_id,
        title: l.title,
        quantity: l.quantity,
        exchangeSize: l.exchange_size,
        exchangeColour: l.exchange_colour ? await colourNameOf(db, l.product_id, l.exchange_colour) : null,
        differenceMinor: l.difference_minor,
      });
    views.push({
      id: r.id,
      status: r.status,
      reason: r.reason,
      resolution: r.resolution,
      createdAt: r.created_at,
      lines: shown,
      difference:
        r.difference_minor === 0
          ? null
          : {
              amountMinor: r.difference_minor,
              status: r.difference_status,
              canPay: canPayDifference({ ...r, payment_method: order?.payment_method ?? null }),
            },
      exchangeTracking:
        r.exchange_carrier && r.exchange_tracking
          ? { carrier: r.exchange_carrier, number: r.exchange_tracking }
          : null,
      refundedMinor: r.refunded_minor,
      declineReason: r.decline_reason,
    });
  }
  return views;
}
