import Stripe from 'stripe';
import type { OrderStatus, RefundStatus } from '../../db/database.js';
import { variantLabel } from '../../shared/colours.js';
import {
  type CheckoutSessionRequest,
  type DifferenceSessionRequest,
  type PaymentEvent,
  type PaymentGateway,
  PaymentProviderError,
  type RefundOutcome,
  RefundRefusedError,
  type RefundRequest,
  type SessionOutcome,
  type WebhookVerification,
} from './payment-gateway.js';

export type StripeOptions = { secretKey: string; apiUrl: string | null; timeoutMs?: number };

export function createStripeClient(opts: StripeOptions): Stripe {
  const api = opts.apiUrl ? new URL(opts.apiUrl) : null;
  return new Stripe(opts.secretKey, {
    maxNetworkRetries: 1,
    timeout: opts.timeoutMs ?? 20_000,
    appInfo: { name: 'storefront' },
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Maps a Checkout Session to the order status it implies. */
export function statusOfSession(session: Stripe.Checkout.Session): OrderStatus {
  if (session.status === 'expired') return 'expired';
  if (session.status === 'complete') {
    return session.payment_status === 'unpaid' ? 'processing' : 'paid';
  }
  return 'pending';
}

export function outcomeOfSession(
  session: Stripe.Checkout.Session,
  status = statusOfSession(session),
): SessionOutcome {
  const shipping = session.collected_information?.shipping_details ?? null;
  return {
    sessionId: session.id,
    orderId: session.client_reference_id ?? session.metadata?.order_id ?? null,
    status,
    amountTotalMinor: session.amount_total ?? null,
    currency: session.currency ?? null,
    customerEmail: session.customer_details?.email ?? null,
    customerName: session.customer_details?.name ?? null,
    shippingAddress: shipping,
    billingAddress: session.customer_details?.address ?? null,
    paymentIntentId:
      typeof session.payment_intent === 'string'
        ? session.payment_intent
        : (session.payment_intent?.id ?? null),
    providerDiscount: providerDiscountOf(session),
    returnId: session.metadata?.return_id ?? null,
    purpose: session.metadata?.purpose === 'return_difference' ? 'return_difference' : 'order',
  };
}

/**
 * What a promotion code entered on Stripe's page took off (decision 0037): total_details.amount_discount,
 * and the code's text when the session carries the promotion code expanded (null otherwise: see
 * withPromotionCodeText). A store code's coupon is in the session too, but the order knows that one
 * already: only a promotion code is reported.
 */
function providerDiscountOf(session: Stripe.Checkout.Session): SessionOutcome['providerDiscount'] {
  const amount = session.total_details?.amount_discount ?? 0;
  const code = promotionCodeOf(session);
  if (amount <= 0 || !code) return null;
  return { amountMinor: amount, code: typeof code === 'string' ? null : code.code };
}

function promotionCodeOf(session: Stripe.Checkout.Session): string | Stripe.PromotionCode | null {
  return (session.discounts ?? []).find((d) => d.promotion_code)?.promotion_code ?? null;
}

/**
 * The outcome with the text of the promotion code the shopper typed. A session, and the webhook events
 * that carry it, name the promotion code by its id (promo_…) unless expanded; the order page, the admin,
 * the CSV and the code filter show what the shopper typed, so the promotion code is retrieved for its
 * `code`. Stripe not answering throws (a webhook is then answered 500 and Stripe delivers it again); a
 * promotion code Stripe no longer knows keeps its id, the only name left for it.
 */
async function withPromotionCodeText(
  stripe: Stripe,
  session: Stripe.Checkout.Session,
  outcome: SessionOutcome,
): Promise<SessionOutcome> {
  const id = promotionCodeOf(session);
  if (!outcome.providerDiscount || typeof id !== 'string') return outcome;
  let code = id;
  try {
    code = (await stripe.promotionCodes.retrieve(id)).code;
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404))
      throw new PaymentProviderError(error instanceof Error ? error.message : String(error));
  }
  return { ...outcome, providerDiscount: { ...outcome.providerDiscount, code } };
}

/** Only https images on a public host can be shown by Stripe's page; others are left out. */
function stripeImage(url: string | null, publicUrl: string): string[] {
  if (!url) return [];
  try {
    const absolute = new URL(url, `${publicUrl}/`);
    return absolute.protocol === 'https:' ? [absolute.href] : [];
  } catch {
    return [];
  }
}

/** The session events the store acts on, and the status each one sets ('from-session': read it). */
const SESSION_EVENTS: Record<string, OrderStatus | 'from-session'> = {
  'checkout.session.completed': 'from-session',
  'checkout.session.async_payment_succeeded': 'paid',
  'checkout.session.async_payment_failed': 'payment_failed',
  'checkout.session.expired': 'expired',
};

/** How old a signed delivery may be, in seconds: Stripe's own default tolerance. */
const WEBHOOK_TOLERANCE_S = 300;

/** Stripe's refund statuses in the store's three: requires_action and pending are both still open. */
function refundStatus(status: string | null): RefundStatus {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return 'pending';
}

export function outcomeOfRefund(refund: Stripe.Refund): RefundOutcome {
  const intent = refund.payment_intent;
  return {
    providerRefundId: refund.id,
    localRefundId: refund.metadata?.refund_id ?? null,
    paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
    amountMinor: refund.amount,
    currency: refund.currency,
    status: refundStatus(refund.status),
    failure: refund.failure_reason ?? (refund.status === 'canceled' ? 'canceled' : null),
  };
}

const REFUND_EVENTS = new Set(['refund.created', 'refund.updated', 'refund.failed', 'charge.refund.updated']);

async function paymentEvent(stripe: Stripe, event: Stripe.Event): Promise<PaymentEvent> {
  if (REFUND_EVENTS.has(event.type)) {
    return {
      id: event.id,
      type: event.type,
      outcome: null,
      refund: outcomeOfRefund(event.data.object as Stripe.Refund),
    };
  }
  const kind = SESSION_EVENTS[event.type];
  if (!kind) return { id: event.id, type: event.type, outcome: null };
  const session = event.data.object as Stripe.Checkout.Session;
  const outcome = kind === 'from-session' ? outcomeOfSession(session) : outcomeOfSession(session, kind);
  return { id: event.id, type: event.type, outcome: await withPromotionCodeText(stripe, session, outcome) };
}

export class StripeGateway implements PaymentGateway {
  readonly mode = 'stripe' as const;

  /** Without a webhook secret, webhooks are refused as not configured (the reconciler still catches up). */
  constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string | null = null,
  ) {}

  async verifyWebhook(body: Buffer | null, signature: string | null): Promise<WebhookVerification> {
    if (!this.webhookSecret) {
      return { ok: false, reason: 'unconfigured', detail: 'STRIPE_WEBHOOK_SECRET is not set' };
    }
    if (!body || !signature) return { ok: false, reason: 'unsigned', detail: 'no Stripe-Signature header' };
    let event: Stripe.Event;
    try {
      event = await this.stripe.webhooks.constructEventAsync(
        body,
        signature,
        this.webhookSecret,
        WEBHOOK_TOLERANCE_S,
      );
    } catch (error) {
      const detail = error instanceof Error ? error.message.slice(0, 200) : 'unknown';
      return { ok: false, reason: 'bad_signature', detail };
    }
    // Outside the signature's try: Stripe not answering about a promotion code is no bad signature.
    return { ok: true, event: await paymentEvent(this.stripe, event) };
  }

  async createCheckoutSession(req: CheckoutSessionRequest): Promise<{ id: string; url: string }> {
    const { order } = req;
    try {
      const coupon = req.discount && req.discount.amountMinor > 0 ? await this.couponFor(req) : null;
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          allowed_payment_method_types: ['card'],
          line_items: order.lines.map((line) => ({
            quantity: line.quantity,
            price_data: {
              currency: order.currency,
              unit_amount: line.unitPriceMinor,
              product_data: {
                // "Lawn Kurta (Teal / M)": the colour and size bought, as every receipt names them.
                name:
                  line.colour || line.size
                    ? `${line.title} (${variantLabel(line.colour, line.size)})`
                    : line.title,
                images: stripeImage(line.imageUrl, req.publicUrl),
              },
            },
          })),
          // Stripe takes one or the other: the store's coupon, or promotion codes typed on its page.
          ...(coupon
            ? { discounts: [{ coupon }] }
            : { allow_promotion_codes: req.allowPromotionCodes === true }),
          ...(req.customerEmail ? { customer_email: req.customerEmail } : {}),
          billing_address_collection: 'required',
          shipping_address_collection: {
            allowed_countries:
              req.shippingCountries as Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry[],
          },
          shipping_options: req.shippingOptions.slice(0, 5).map((option) => ({
            shipping_rate_data: {
              type: 'fixed_amount',
              display_name: option.label,
              fixed_amount: { amount: option.amountMinor, currency: option.currency },
              ...(option.minDays && option.maxDays
                ? {
                    delivery_estimate: {
                      minimum: { unit: 'business_day', value: option.minDays },
                      maximum: { unit: 'business_day', value: option.maxDays },
                    },
                  }
                : {}),
            },
          })),
          success_url: `${req.publicUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${req.publicUrl}/checkout/cancel`,
          client_reference_id: order.id,
          metadata: { order_id: order.id, order_number: String(order.number) },
          expires_at: Math.floor(req.expiresAt.getTime() / 1000),
        },
        // Derived from the order: a retried call returns the same session instead of making a second one.
        { idempotencyKey: `checkout-session-${order.id}` },
      );
      if (!session.url) throw new PaymentProviderError('Stripe returned a session without a URL');
      return { id: session.id, url: session.url };
    } catch (error) {
      if (error instanceof PaymentProviderError) throw error;
      const message = error instanceof Stripe.errors.StripeError ? error.message : String(error);
      throw new PaymentProviderError(message);
    }
  }

  /**
   * A return's price difference (decision 0039): one line of the amount in the order's currency, no
   * shipping, no code, the shopper's address filled in, back to the order page. No client_reference_id:
   * the session names its order and return in metadata only, so nothing reads it as the order's checkout.
   */
  async createDifferenceSession(req: DifferenceSessionRequest): Promise<{ id: string; url: string }> {
    const page = `${req.publicUrl}/order/${encodeURIComponent(req.orderId)}?token=${encodeURIComponent(req.token)}`;
    try {
      const session = await this.stripe.checkout.sessions.create({
        mode: 'payment',
        allowed_payment_method_types: ['card'],
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: req.currency,
              unit_amount: req.amountMinor,
              product_data: { name: `Exchange on order #${req.orderNumber}: price difference` },
            },
          },
        ],
        ...(req.customerEmail ? { customer_email: req.customerEmail } : {}),
        success_url: `${page}&difference=paid`,
        cancel_url: page,
        metadata: { order_id: req.orderId, return_id: req.returnId, purpose: 'return_difference' },
      });
      if (!session.url) throw new PaymentProviderError('Stripe returned a session without a URL');
      return { id: session.id, url: session.url };
    } catch (error) {
      if (error instanceof PaymentProviderError) throw error;
      const message = error instanceof Stripe.errors.StripeError ? error.message : String(error);
      throw new PaymentProviderError(message);
    }
  }

  /**
   * The order's code as one amount_off coupon (decision 0037): a line's share of the code need not divide by
   * its quantity, so the lines go at their sale unit prices and the code's total as this. Made once per order
   * (an idempotency key of its id), usable once.
   */
  private async couponFor(req: CheckoutSessionRequest): Promise<string> {
    const discount = req.discount as { amountMinor: number; code: string };
    const coupon = await this.stripe.coupons.create(
      {
        amount_off: discount.amountMinor,
        currency: req.order.currency,
        duration: 'once',
        max_redemptions: 1,
        name: discount.code.slice(0, 40),
        metadata: { order_id: req.order.id },
      },
      { idempotencyKey: `checkout-coupon-${req.order.id}` },
    );
    return coupon.id;
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const paymentIntent = await this.paymentIntentOf(request);
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: request.amountMinor,
          metadata: { refund_id: request.refundId, order_id: request.orderId },
        },
        // One refund per refundId, however often it is asked for (a retry, a second click).
        { idempotencyKey: `refund-${request.refundId}` },
      );
      return outcomeOfRefund(refund);
    } catch (error) {
      throw refundError(error);
    }
  }

  async findRefund(request: RefundRequest): Promise<RefundOutcome | null> {
    const paymentIntent = await this.paymentIntentOf(request);
    try {
      const refunds = await this.stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 });
      const found = refunds.data.find((r) => r.metadata?.refund_id === request.refundId);
      return found ? outcomeOfRefund(found) : null;
    } catch (error) {
      throw refundError(error);
    }
  }

  /** The payment a refund goes against: the order's, or its checkout session's when the order lacks it. */
  private async paymentIntentOf(request: RefundRequest): Promise<string> {
    if (request.paymentIntentId) return request.paymentIntentId;
    const outcome = request.sessionId ? await this.retrieveSession(request.sessionId) : null;
    if (!outcome?.paymentIntentId)
      throw new RefundRefusedError('Stripe has no payment for this order, so there is nothing to refund.');
    return outcome.paymentIntentId;
  }

  async retrieveSession(sessionId: string): Promise<SessionOutcome | null> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(sessionId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw new PaymentProviderError(error instanceof Error ? error.message : String(error));
    }
    return withPromotionCodeText(this.stripe, session, outcomeOfSession(session));
  }
}

/** Stripe said no (a bad request, a refund above what is left): RefundRefusedError; no answer at all: unknown. */
function refundError(error: unknown): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError ||
    error instanceof Stripe.errors.StripeCardError ||
    error instanceof Stripe.errors.StripePermissionError
  ) {
    return new RefundRefusedError(error.message);
  }
  return new PaymentProviderError(error instanceof Error ? error.message : String(error));
}
