import { TRPCError } from '@trpc/server';
import { RetryLater } from '../../core/failures.js';
import { durableTransaction } from '../../db/durable.js';
import { startCheckout } from '../../modules/checkout/checkout.service.js';
import { demoAmountDue, demoPaymentSummary } from '../../modules/checkout/demo-payment.js';
import { placeOfflineOrder } from '../../modules/checkout/offline-checkout.js';
import { offerPaymentMethods } from '../../modules/checkout/payment-offers.js';
import { priceCart } from '../../modules/checkout/quote.js';
import { applySessionOutcome } from '../../modules/orders/after-payment.service.js';
import { findOrderIdBySession, orderSummaryBySession } from '../../modules/orders/orders.repository.js';
import { stripeShippingOf } from '../../modules/orders/postal-address.js';
import { completeDemoDifference, demoDifferenceSummary } from '../../modules/returns/return-differences.js';
import { readShipping } from '../../modules/settings/settings.repository.js';
import { cartInput, sessionIdInput, testPaymentInput } from '../../shared/checkout-input.js';
import { CODE_REFUSAL_TEXT } from '../../shared/discounts.js';
import { paymentMethodsQueryInput, placeOfflineOrderInput } from '../../shared/payment-methods.js';
import type { Context } from '../context.js';
import { publicProcedure, router } from '../init.js';

/**
 * Wrong codes count against the address (decision 0037): past the limit, no code is even looked at until
 * the window ends, so guessing codes is slower than asking the owner for one.
 */
async function refuseIfTooManyWrongCodes(ctx: Pick<Context, 'limits' | 'ip' | 'log'>): Promise<void> {
  const state = await ctx.limits.wrongCodes.exhausted(ctx.ip);
  if (!state.over) return;
  ctx.log.warn({ event: 'security.wrong_codes_rate_limited', ip: ctx.ip }, 'too many wrong discount codes');
  throw new TRPCError({
    code: 'TOO_MANY_REQUESTS',
    message: `Too many wrong discount codes from your address. Please wait ${Math.ceil(state.retryAfterSeconds / 60)} minutes and try again.`,
    cause: new RetryLater(state.retryAfterSeconds),
  });
}

/** Each checkout is a pending order holding stock: an address may start only a few in a while. */
async function admitCheckout(ctx: Pick<Context, 'limits' | 'ip' | 'log'>): Promise<void> {
  const admission = await ctx.limits.checkoutSessions.admit(ctx.ip);
  if (admission.taken) return;
  ctx.log.warn({ event: 'security.checkout_rate_limited', ip: ctx.ip }, 'too many checkout sessions');
  throw new TRPCError({
    code: 'TOO_MANY_REQUESTS',
    message: 'Too many checkouts from your address. Please wait a few minutes and try again.',
    cause: new RetryLater(admission.retryAfterSeconds),
  });
}

export const checkoutRouter = router({
  /** Prices a cart from the database and flags each line that cannot be bought as it is. */
  quote: publicProcedure.input(cartInput).query(async ({ ctx, input }) => {
    if (input.code) await refuseIfTooManyWrongCodes(ctx);
    const priced = await priceCart(ctx.db, input.lines, ctx.clock.now(), input);
    if (priced.unknownCode) await ctx.limits.wrongCodes.admit(ctx.ip);
    return priced.quote;
  }),

  /** Creates the pending order and its payment session; returns the URL to send the shopper to. */
  createSession: publicProcedure.input(cartInput).mutation(async ({ ctx, input }) => {
    // Each session is a pending order and a payment provider session: an address may open only a few.
    await admitCheckout(ctx);
    if (input.code) await refuseIfTooManyWrongCodes(ctx);
    try {
      return await startCheckout(ctx, input.lines, input);
    } catch (error) {
      // A wrong code sent straight to checkout counts as one typed in the cart.
      if (error instanceof TRPCError && error.message === CODE_REFUSAL_TEXT.not_found)
        await ctx.limits.wrongCodes.admit(ctx.ip);
      throw error;
    }
  }),

  /**
   * Every payment method the owner turned on, for this cart shipped to `country`: available or why not,
   * with its fee and the total it would charge (decision 0038).
   */
  paymentMethods: publicProcedure.input(paymentMethodsQueryInput).query(async ({ ctx, input }) => {
    const { methods } = await offerPaymentMethods(ctx.db, input, input.country, ctx.clock.now());
    return { methods };
  }),

  /** Places a cash-on-delivery or bank-transfer order; the shopper goes on to its order page. */
  placeOrder: publicProcedure.input(placeOfflineOrderInput).mutation(async ({ ctx, input }) => {
    // A pending order holds stock as a checkout does: the same limit per address.
    await admitCheckout(ctx);
    if (input.code) await refuseIfTooManyWrongCodes(ctx);
    try {
      const placed = await placeOfflineOrder(ctx, input);
      // The email telling what comes next was queued with the order.
      ctx.mail.nudge();
      return placed;
    } catch (error) {
      if (error instanceof TRPCError && error.message === CODE_REFUSAL_TEXT.not_found)
        await ctx.limits.wrongCodes.admit(ctx.ip);
      throw error;
    }
  }),

  /** The order behind a session id (an unguessable token the shopper was given), for the result pages. */
  order: publicProcedure.input(sessionIdInput).query(async ({ ctx, input }) => {
    const order = await orderSummaryBySession(ctx.db, input.sessionId);
    if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });
    return order;
  }),

  /** Demo payment mode only: the order the demo payment page is about to complete, with what it charges. */
  demoPayment: publicProcedure.input(sessionIdInput).query(async ({ ctx, input }) => {
    const summary = ctx.payments.mode === 'demo' ? await demoPaymentSummary(ctx.db, input.sessionId) : null;
    if (!summary) throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });
    return summary;
  }),

  /**
   * Demo payment mode only: completes the order of a demo session with what Stripe's page would have
   * collected (who pays, where it ships), so the whole after-sale flow runs without Stripe keys. Refused
   * when real payments are set up.
   */
  completeTestPayment: publicProcedure.input(testPaymentInput).mutation(async ({ ctx, input }) => {
    if (ctx.payments.mode !== 'demo') {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'Test payments are disabled: this store takes real payments.',
      });
    }
    const order = await findOrderIdBySession(ctx.db, input.sessionId);
    if (order?.payment_mode !== 'demo')
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' });
    // As on Stripe's page: only the countries the shop ships to.
    const { countries } = await readShipping(ctx.db);
    if (!countries.includes(input.address.country)) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `This store does not ship to ${input.address.country}. It ships to ${countries.join(', ')}.`,
      });
    }
    const result = await durableTransaction(ctx.db, (trx) =>
      applySessionOutcome(
        trx,
        {
          sessionId: input.sessionId,
          orderId: order.id,
          status: 'paid',
          // What the demo payment page showed: the lines, less the code (decision 0037).
          amountTotalMinor: demoAmountDue(order),
          currency: null,
          customerEmail: input.email,
          customerName: input.name,
          shippingAddress: stripeShippingOf(input.name, input.address),
          billingAddress: null,
          paymentIntentId: null,
        },
        ctx.clock.now(),
        ctx.config.publicUrl,
      ),
    );
    if (result.changed) {
      // The confirmation email was queued with the payment: send it now rather than at the next poll.
      ctx.mail.nudge();
      ctx.log.info({ event: 'checkout.demo.paid', order: order.id }, 'demo payment completed');
    }
    return { ok: true as const };
  }),
  /** Demo payment mode only: the exchange's price difference a demo_rd_ session pays (decision 0039). */
  demoDifference: publicProcedure.input(sessionIdInput).query(async ({ ctx, input }) => {
    if (ctx.payments.mode !== 'demo') throw new TRPCError({ code: 'NOT_FOUND', message: 'Return not found' });
    return demoDifferenceSummary(ctx.db, input.sessionId);
  }),

  /** Demo payment mode only: pays the difference as a Stripe webhook would, to the return, never the order. */
  completeDemoDifference: publicProcedure.input(sessionIdInput).mutation(async ({ ctx, input }) => {
    if (ctx.payments.mode !== 'demo') {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'Test payments are disabled: this store takes real payments.',
      });
    }
    const result = await completeDemoDifference(
      { db: ctx.db, clock: ctx.clock, publicUrl: ctx.config.publicUrl },
      input.sessionId,
    );
    ctx.mail.nudge();
    ctx.log[result.outcome.startsWith('difference paid again') ? 'warn' : 'info'](
      { event: 'returns.difference_demo_paid', outcome: result.outcome },
      'demo price difference payment',
    );
    return { ok: true as const };
  }),

  /** The countries the store ships to (two-letter codes), for the demo payment form's country list. */
  shippingCountries: publicProcedure.query(async ({ ctx }) => (await readShipping(ctx.db)).countries),
  /** Whether real payments are configured, so the client can say so (never the key itself). */
  mode: publicProcedure.query(({ ctx }) => ({ mode: ctx.payments.mode })),
});
