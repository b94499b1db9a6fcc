import { randomBytes } from 'node:crypto';
import type { PaymentGateway, WebhookVerification } from './payment-gateway.js';

/**
 * Demo payment mode (no STRIPE_SECRET_KEY): the "session" is a random token and its page is /testpayment,
 * which completes the order after two seconds and says plainly that no money moved.
 */
export class DemoGateway implements PaymentGateway {
  readonly mode = 'demo' as const;

  async createCheckoutSession() {
    const id = `demo_${randomBytes(18).toString('base64url')}`;
    return { id, url: `/testpayment?session_id=${encodeURIComponent(id)}` };
  }

  async retrieveSession() {
    // Demo sessions live only in our own orders table.
    return null;
  }

  async verifyWebhook(): Promise<WebhookVerification> {
    return { ok: false, reason: 'unconfigured', detail: 'demo payment mode takes no webhooks' };
  }
}
