import { randomBytes } from 'node:crypto';
import type {
  DifferenceSessionRequest,
  PaymentGateway,
  RefundOutcome,
  RefundRequest,
  WebhookVerification,
} from './payment-gateway.js';

/** A demo session paying a return's price difference: completed from /testpayment, never an order's. */
export const DEMO_DIFFERENCE_PREFIX = 'demo_rd_';

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

  /** The page goes back to the order page it came from once paid (the client accepts only /order/ paths). */
  async createDifferenceSession(request: DifferenceSessionRequest) {
    const id = `${DEMO_DIFFERENCE_PREFIX}${randomBytes(18).toString('base64url')}`;
    const back = `/order/${encodeURIComponent(request.orderId)}?token=${encodeURIComponent(request.token)}&difference=paid`;
    return {
      id,
      url: `/testpayment?session_id=${encodeURIComponent(id)}&return_to=${encodeURIComponent(back)}`,
    };
  }

  async retrieveSession() {
    // Demo sessions live only in our own orders table.
    return null;
  }

  async verifyWebhook(): Promise<WebhookVerification> {
    return { ok: false, reason: 'unconfigured', detail: 'demo payment mode takes no webhooks' };
  }

  /** No money moved, so none moves back: the refund is recorded as a demo refund, at once. */
  async refund(request: RefundRequest): Promise<RefundOutcome> {
    return {
      providerRefundId: `demo_re_${request.refundId}`,
      localRefundId: request.refundId,
      paymentIntentId: null,
      amountMinor: request.amountMinor,
      currency: request.currency,
      status: 'succeeded',
      failure: null,
    };
  }

  async findRefund(): Promise<RefundOutcome | null> {
    return null;
  }
}
