import type { OrderStatus } from '../../db/database.js';
import type { ShippingOption } from '../settings/settings.repository.js';

export type CheckoutOrder = {
  id: string;
  number: number;
  currency: string;
  lines: Array<{
    title: string;
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
};

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
};

/** A provider's event about a payment, read from a webhook whose signature checked out. */
export type PaymentEvent = {
  id: string;
  type: string;
  /** What the event says about a checkout session; null for events the store does not act on. */
  outcome: SessionOutcome | null;
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
  /** The session's current state, or null when the provider does not know it. */
  retrieveSession(sessionId: string): Promise<SessionOutcome | null>;
  /** Checks a webhook delivery's signature over its exact bytes and reads its event. */
  verifyWebhook(body: Buffer | null, signature: string | null): Promise<WebhookVerification>;
}

export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}
