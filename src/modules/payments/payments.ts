import type { Config } from '../../config.js';
import { DemoGateway } from './demo-gateway.js';
import type { PaymentGateway } from './payment-gateway.js';
import { createStripeClient, StripeGateway } from './stripe-gateway.js';

/** Stripe when STRIPE_SECRET_KEY is set, the demo payment mode otherwise. */
export function createPayments(config: Config): PaymentGateway {
  if (!config.stripe) return new DemoGateway();
  const stripe = createStripeClient({ secretKey: config.stripe.secretKey, apiUrl: config.stripe.apiUrl });
  return new StripeGateway(stripe, config.stripe.webhookSecret);
}
