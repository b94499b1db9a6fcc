import { TRPCError } from '@trpc/server';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { durableTransaction } from '../../db/durable.js';
import type { cartLineInput } from '../../shared/checkout-input.js';
import { colourKey } from '../../shared/colours.js';
import { CODE_REFUSAL_TEXT } from '../../shared/discounts.js';
import { holdCodeUse, releaseCodeUse } from '../discounts/redemptions.repository.js';
import { stripePromotionCodesAllowed } from '../discounts/stripe-promotion-codes.js';
import { CHECKOUT_SESSION_LIFETIME_MS } from '../orders/abandoned-orders.js';
import { attachSession, deleteOrder, insertPendingOrder, newOrderId } from '../orders/orders.repository.js';
import { type PaymentGateway, PaymentProviderError } from '../payments/payment-gateway.js';
import { readShipping } from '../settings/settings.repository.js';
import type { BackInStockWatch } from '../stock/back-in-stock-worker.js';
import { releaseReservations, reserveLines, StockShortage } from '../stock/reservations.js';
import { DEMO_RESERVATION_MS } from '../stock/stock.repository.js';
import { orderLinesOf, refuseUnbuyable } from './cart-checks.js';
import { type CartCode, priceCart } from './quote.js';

/** What starting a checkout needs: a procedure's context has all of it. */
export type CheckoutDeps = {
  db: Db;
  clock: Clock;
  payments: PaymentGateway;
  config: { publicUrl: string };
  log: FastifyBaseLogger;
  /** Nudged when a failed start gives its held units back: someone may have asked for them meanwhile. */
  backInStock: BackInStockWatch;
};

/**
 * Turns a cart into a pending order (priced from the database, a snapshot of its lines) and a payment
 * session, and returns where to send the shopper. If the provider fails, the order is removed again: no
 * order exists without a session.
 */
export async function startCheckout(
  ctx: CheckoutDeps,
  lines: Array<z.infer<typeof cartLineInput>>,
  cart: CartCode = {},
): Promise<{ url: string; orderNumber: number }> {
  const priced = await priceCart(ctx.db, lines, ctx.clock.now(), cart);
  const { quote } = priced;
  const email = cart.email ?? null;
  const currency = refuseUnbuyable(priced, email);
  const code = priced.code;

  const now = ctx.clock.now();
  const orderId = newOrderId();
  const orderLines = orderLinesOf(priced);
  const expiresAt = new Date(now.getTime() + CHECKOUT_SESSION_LIFETIME_MS);
  // Durable (synchronous=FULL): the order must outlive a power cut once Stripe may know of it. The units
  // of tracked sizes are held in the same transaction: no order exists for stock it could not hold.
  let number: number;
  try {
    ({ number } = await durableTransaction(ctx.db, async (trx) => {
      const created = await insertPendingOrder(trx, {
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
      if (code) {
        // The use is taken with the order and its stock, or not at all (decision 0037).
        const refused = await holdCodeUse(trx, {
          discountId: code.id,
          orderId,
          email,
          maxUsesPerEmail: code.maxUsesPerEmail,
          amountMinor: quote.discountMinor,
          now,
        });
        if (refused) throw new CodeRefused(CODE_REFUSAL_TEXT[refused]);
      }
      await reserveLines(trx, {
        id: orderId,
        lines: orderLines.map((l) => ({
          ...l,
          colour: l.colour === null ? null : { key: colourKey(l.colour), name: l.colour },
        })),
        // A Stripe checkout holds its units while its session can be paid; a demo one for 30 minutes.
        expiresAt: ctx.payments.mode === 'demo' ? new Date(now.getTime() + DEMO_RESERVATION_MS) : expiresAt,
        now,
      });
      return created;
    }));
  } catch (error) {
    if (error instanceof StockShortage || error instanceof CodeRefused)
      throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
    throw error;
  }

  const shipping = await readShipping(ctx.db);
  const shippingOptions = shipping.options.filter((o) => o.currency === currency);
  try {
    const session = await ctx.payments.createCheckoutSession({
      order: { id: orderId, number, currency, lines: orderLines },
      publicUrl: ctx.config.publicUrl,
      shippingCountries: shipping.countries,
      // A free-shipping code: every option the shop offers, at nothing.
      shippingOptions: quote.code?.freeShipping
        ? shippingOptions.map((o) => ({ ...o, amountMinor: 0 }))
        : shippingOptions,
      expiresAt,
      discount: code ? { amountMinor: quote.discountMinor, code: code.code ?? code.name } : null,
      // Stripe's own promotion codes only when the owner allows them and no store code is used.
      allowPromotionCodes: !code && (await stripePromotionCodesAllowed(ctx.db)),
      customerEmail: email,
    });
    await durableTransaction(ctx.db, (trx) => attachSession(trx, orderId, session.id, ctx.clock.now()));
    ctx.log.info(
      { event: 'checkout.session.created', order: number, mode: ctx.payments.mode },
      `checkout session created for order ${number}`,
    );
    return { url: session.url, orderNumber: number };
  } catch (error) {
    // No session, no order: and the units it held go back.
    await ctx.db.transaction().execute(async (trx) => {
      await releaseReservations(trx, orderId);
      await releaseCodeUse(trx, orderId, ctx.clock.now());
      await deleteOrder(trx, orderId);
    });
    ctx.backInStock.nudge();
    const reason = error instanceof PaymentProviderError ? error.message : String(error);
    ctx.log.error({ event: 'checkout.session.failed', reason }, 'could not create a checkout session');
    // Only the payment provider's failure is a bad gateway; our own (a busy or full database) keeps its
    // cause, so the shopper is told what it is (503 busy, 507 disk full) and nothing internal leaks.
    if (!(error instanceof PaymentProviderError)) throw error;
    throw new TRPCError({ code: 'BAD_GATEWAY', message: 'Could not process checkout. Please try again.' });
  }
}

/** The code's last use went to another checkout meanwhile, or this address has used it up. */
class CodeRefused extends Error {
  override name = 'CodeRefused';
}
