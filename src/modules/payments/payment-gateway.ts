import type { OrderStatus, RefundStatus } from '../../db/database.js';
import type { ShippingOption } from '../settings/settings.repository.js';

export type CheckoutOrder = {
  id: string;
  number: number;
  currency: string;
  lines: Array<{
    title: string;
    colour: string | null;
    size: string | null;
    quantity: number;
    unitPriceMinor: number;
    imageUrl: string | null;
  }>;
};

export type CheckoutSessionRequest = {
  order: CheckoutOrder;
  publicUrl: string;
  shippingCountries: string[];
  shippingOptions: ShippingOption[];
  expiresAt: Date;
  /**
   * The store code's discount on the order (decision 0037): the lines go at their sale unit prices and this
   * as one coupon. Null without a code.
   */
  discount?: { amountMinor: number; code: string } | null;
  /** Whether Stripe Dashboard promotion codes may be entered on the payment page. */
  allowPromotionCodes?: boolean;
  /** The address the shopper gave with a code limited per address, to prefill the payment page. */
  customerEmail?: string | null;
};

/**
 * A payment of an exchange's price difference (decision 0039): one line of the amount, no shipping, the
 * shopper sent back to their order page.
 */
export type DifferenceSessionRequest = {
  orderId: string;
  orderNumber: number;
  returnId: string;
  /** The order page's token, for the page the shopper comes back to. */
  token: string;
  amountMinor: number;
  currency: string;
  customerEmail: string | null;
  publicUrl: string;
};

/** The session's purpose as its metadata says: an order's checkout, or a return's price difference. */
export type SessionPurpose = 'order' | 'return_difference';

/** What the store learns about a session, from a webhook or by asking (reconcile). */
export type SessionOutcome = {
  sessionId: string;
  orderId: string | null;
  status: OrderStatus;
  amountTotalMinor: number | null;
  currency: string | null;
  customerEmail: string | null;
  customerName: string | null;
  shippingAddress: unknown;
  billingAddress: unknown;
  /** Stripe's payment of a completed session: what a refund is made against. */
  paymentIntentId: string | null;
  /**
   * The return whose price difference the session pays (metadata.return_id); such a session is applied to
   * the return, never to the order. Absent or null for an order's checkout.
   */
  returnId?: string | null;
  purpose?: SessionPurpose;
  /**
   * What Stripe took off by a promotion code entered on its page (total_details.amount_discount), and the
   * code when Stripe says it; absent when not known.
   */
  providerDiscount?: { amountMinor: number; code: string | null } | null;
};

/** A refund as the provider reports it (its answer to a request, or a webhook). */
export type RefundOutcome = {
  providerRefundId: string;
  /** Our refund's id, which the store gives the provider as metadata; null for one made elsewhere. */
  localRefundId: string | null;
  paymentIntentId: string | null;
  amountMinor: number;
  currency: string;
  status: RefundStatus;
  failure: string | null;
};

export type RefundRequest = {
  refundId: string;
  orderId: string;
  /** The payment to refund; when unknown, the provider looks it up from the checkout session. */
  paymentIntentId: string | null;
  sessionId: string | null;
  amountMinor: number;
  currency: string;
};

/** A provider's event about a payment, read from a webhook whose signature checked out. */
export type PaymentEvent = {
  id: string;
  type: string;
  /** What the event says about a checkout session; null for events the store does not act on. */
  outcome: SessionOutcome | null;
  /** What the event says about a refund; absent for every other event. */
  refund?: RefundOutcome | null;
};

export type WebhookVerification =
  | { ok: true; event: PaymentEvent }
  /** `unconfigured`: this store takes no webhooks (demo mode, or no webhook secret). */
  | { ok: false; reason: 'unconfigured' | 'unsigned' | 'bad_signature'; detail: string };

/**
 * The payment provider behind checkout: Stripe when a secret key is configured, the demo otherwise.
 * Tests point the Stripe one at a local fake of Stripe's HTTP API.
 */
export interface PaymentGateway {
  readonly mode: 'stripe' | 'demo';
  createCheckoutSession(request: CheckoutSessionRequest): Promise<{ id: string; url: string }>;
  /** A session that pays a return's price difference (metadata names the order and the return). */
  createDifferenceSession(request: DifferenceSessionRequest): Promise<{ id: string; url: string }>;
  /** The session's current state, or null when the provider does not know it. */
  retrieveSession(sessionId: string): Promise<SessionOutcome | null>;
  /** Checks a webhook delivery's signature over its exact bytes and reads its event. */
  verifyWebhook(body: Buffer | null, signature: string | null): Promise<WebhookVerification>;
  /**
   * Gives money back. Asking twice for one refundId never refunds twice. Throws RefundRefusedError when
   * the provider said no, PaymentProviderError when it could not be asked (the refund's fate is unknown).
   */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** The refund made for refundId, if the provider has one: how a refund whose answer was lost is settled. */
  findRefund(request: RefundRequest): Promise<RefundOutcome | null>;
}

export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

/** The provider answered and refused: nothing was refunded. */
export class RefundRefusedError extends PaymentProviderError {
  override name = 'RefundRefusedError';
}
