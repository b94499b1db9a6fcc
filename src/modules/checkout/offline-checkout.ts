import { randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { FastifyBaseLogger } from 'fastify';
import { ZodRealError, type z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { durableTransaction } from '../../db/durable.js';
import { oneAtATime } from '../../db/engine-sql.js';
import { colourKey } from '../../shared/colours.js';
import { CODE_REFUSAL_TEXT } from '../../shared/discounts.js';
import type { PlacedOfflineOrder, placeOfflineOrderInput } from '../../shared/payment-methods.js';
import { holdCodeUse } from '../discounts/redemptions.repository.js';
import { queueOfflineOrderEmail } from '../orders/offline-order-mail.js';
import { confirmTokenHash, orderPagePath } from '../orders/order-access.js';
import { insertPendingOrder, newOrderId } from '../orders/orders.repository.js';
import { stripeShippingOf } from '../orders/postal-address.js';
import { paymentMethodOf } from '../payments/payment-method.js';
import { reserveLines, StockShortage } from '../stock/reservations.js';
import { orderLinesOf, refuseUnbuyable } from './cart-checks.js';
import { codRefusal } from './cod-abuse.js';
import { offerPaymentMethods } from './payment-offers.js';
import { countryName, phoneForCountry } from './phone-number.js';

export type OfflineCheckoutDeps = {
  db: Db;
  clock: Clock;
  payments: { mode: 'stripe' | 'demo' };
  config: { publicUrl: string };
  log: FastifyBaseLogger;
};

/** A field's error, as the input's own validation reports it (the form shows it beside the field). */
function fieldError(path: Array<string | number>, message: string, input: unknown): TRPCError {
  return new TRPCError({
    code: 'BAD_REQUEST',
    message,
    // ZodRealError: the ZodError that is an Error (tRPC keeps only an Error as the cause).
    cause: new ZodRealError([{ code: 'custom', path, message, input }]),
  });
}

/**
 * Places a cash-on-delivery or bank-transfer order (decision 0038): the method is checked as it was offered,
 * the phone for the shipping country, the abuse limits for cash on delivery; then, in one durable
 * transaction, the pending order with the shopper's details, its code use and its stock held until the
 * method's deadline, and the email that tells the shopper what comes next.
 */
export async function placeOfflineOrder(
  ctx: OfflineCheckoutDeps,
  input: z.output<typeof placeOfflineOrderInput>,
): Promise<PlacedOfflineOrder> {
  const { customer } = input;
  const country = customer.address.country;
  const now = ctx.clock.now();
  const offers = await offerPaymentMethods(ctx.db, input, country, now);
  const email = customer.email.trim().toLowerCase();
  const currency = refuseUnbuyable(offers.priced, email);
  const offered = offers.methods.find((m) => m.id === input.method);
  if (!offered?.available) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: offered?.reason ?? 'This way to pay is not available. Please choose another.',
    });
  }
  const phone = phoneForCountry(customer.phone, country);
  if (!phone)
    throw fieldError(
      ['customer', 'phone'],
      `Enter a valid phone number for ${countryName(country)}`,
      customer.phone,
    );

  const method = paymentMethodOf(input.method);
  const terms = method.pendingTerms(offers.settings, now);
  if (!terms) throw new Error(`${input.method} is not an offline method`);
  const { quote } = offers.priced;
  const code = offers.priced.code;
  const orderLines = orderLinesOf(offers.priced);
  const orderId = newOrderId();
  const confirmToken = terms.confirmBy ? randomBytes(32).toString('base64url') : null;
  let placed: { number: number; accessToken: string };
  try {
    placed = await durableTransaction(ctx.db, async (trx) => {
      if (input.method === 'cash_on_delivery') {
        // The counts and the new order are one step: two placements at once see each other.
        await oneAtATime(trx, 'cod-limits');
        const refused = await codRefusal(trx, offers.settings, {
          phone,
          email,
          address: customer.address,
        });
        if (refused) throw new OfflineRefused(refused);
      }
      const { number } = await insertPendingOrder(trx, {
        id: orderId,
        currency,
        paymentMode: ctx.payments.mode,
        lines: orderLines,
        now,
        discounts: {
          discountMinor: quote.discountMinor,
          salesMinor: quote.salesMinor,
          code: code ? (code.code ?? null) : null,
          discountId: code?.id ?? null,
        },
      });
      const row = await trx
        .updateTable('orders')
        .set({
          payment_method: input.method,
          method_fee_minor: offered.feeMinor,
          // Lines less the code, plus shipping and the fee: what the shopper pays (offered.totalMinor).
          total_minor: offered.totalMinor,
          phone,
          customer_email: customer.email,
          customer_name: customer.name,
          shipping_address: JSON.stringify(
            stripeShippingOf(customer.name, {
              line1: customer.address.line1,
              line2: customer.address.line2,
              city: customer.address.city,
              postalCode: customer.address.postalCode ?? '',
              country,
            }),
          ),
          confirm_token_hash: confirmToken ? confirmTokenHash(confirmToken) : null,
          confirm_by: terms.confirmBy?.toISOString() ?? null,
        })
        .where('id', '=', orderId)
        .returning('access_token')
        .executeTakeFirstOrThrow();
      if (code) {
        const refused = await holdCodeUse(trx, {
          discountId: code.id,
          orderId,
          email,
          maxUsesPerEmail: code.maxUsesPerEmail,
          amountMinor: quote.discountMinor,
          now,
        });
        if (refused) throw new OfflineRefused(CODE_REFUSAL_TEXT[refused]);
      }
      await reserveLines(trx, {
        id: orderId,
        lines: orderLines.map((l) => ({
          ...l,
          colour: l.colour === null ? null : { key: colourKey(l.colour), name: l.colour },
        })),
        // Held while the shopper may still confirm or transfer; the sweep expires the order then.
        expiresAt: terms.holdUntil,
        now,
      });
      const base = { orderId, publicUrl: ctx.config.publicUrl, now };
      await queueOfflineOrderEmail(
        trx,
        confirmToken ? { ...base, kind: 'cod_placed', confirmToken } : { ...base, kind: 'bank_placed' },
      );
      if (!row.access_token) throw new Error('order without an access token');
      return { number, accessToken: row.access_token };
    });
  } catch (error) {
    if (error instanceof StockShortage || error instanceof OfflineRefused)
      throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
    throw error;
  }
  ctx.log.info(
    { event: 'checkout.offline.placed', order: placed.number, method: input.method },
    `order ${placed.number} placed (${input.method})`,
  );
  return { orderId, number: placed.number, orderPath: orderPagePath(orderId, placed.accessToken) };
}

/** A limit or a code's last use refused the order; the message is the shopper's. */
class OfflineRefused extends Error {
  override name = 'OfflineRefused';
}
