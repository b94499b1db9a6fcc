import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import { durableTransaction } from '../db/durable.js';
import type { MailOutbox } from '../modules/email/mail-worker.js';
import { recordPaymentEvent } from '../modules/orders/after-payment.service.js';
import type { PaymentGateway } from '../modules/payments/payment-gateway.js';
import { applyDifferenceOutcome } from '../modules/returns/return-differences.js';
import type { BackInStockWatch } from '../modules/stock/back-in-stock-worker.js';

/**
 * POST /api/stripe/webhook in its own scope, where JSON bodies stay raw bytes: the provider's signature
 * covers the exact bytes it sent. Each event is recorded once, in the same transaction as its effect on the
 * order.
 */
export async function registerStripeWebhook(
  app: FastifyInstance,
  opts: {
    db: Db;
    clock: Clock;
    payments: PaymentGateway;
    publicUrl: string;
    mail: MailOutbox;
    /** Nudged after an event: an expired or failed checkout gives its held units back. */
    backInStock: BackInStockWatch;
  },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    scope.post('/api/stripe/webhook', async (req, reply) => {
      const signature = req.headers['stripe-signature'];
      const verified = await opts.payments.verifyWebhook(
        Buffer.isBuffer(req.body) ? req.body : null,
        typeof signature === 'string' ? signature : null,
      );
      if (!verified.ok && verified.reason === 'unconfigured') {
        // Stripe retries on its own schedule; an hour is as soon as an operator is likely to have set it up.
        return reply
          .code(503)
          .header('retry-after', '3600')
          .send({ error: 'Stripe webhooks are not configured on this store' });
      }
      if (!verified.ok && verified.reason === 'unsigned') {
        req.log.warn({ event: 'stripe.webhook.unsigned' }, 'webhook without a signature refused');
        return reply.code(400).send({ error: 'Missing Stripe-Signature' });
      }
      if (!verified.ok) {
        req.log.warn(
          { event: 'stripe.webhook.bad_signature', reason: verified.detail },
          'webhook signature check failed',
        );
        return reply.code(400).send({ error: 'Invalid signature' });
      }

      const { event } = verified;
      // FULL sync for this commit: Stripe is told "received" only after the effect is on disk for good.
      const result = await durableTransaction(opts.db, (trx) =>
        recordPaymentEvent(trx, event, opts.clock.now(), opts.publicUrl, applyDifferenceOutcome),
      );
      // A payment or a refund may have queued an email with its change.
      if (!result.duplicate) {
        opts.mail.nudge();
        opts.backInStock.nudge();
      }
      const logLine = { event: 'stripe.webhook', type: event.type, id: event.id, outcome: result.outcome };
      if (result.outcome === 'unknown-session')
        req.log.warn(logLine, 'webhook for a session this store does not know');
      else if (result.outcome.startsWith('difference paid again'))
        req.log.warn(logLine, 'a price difference paid twice: the owner refunds the second payment');
      else req.log.info(logLine, 'webhook processed');
      return reply.send({ received: true, duplicate: result.duplicate });
    });
  });
}
