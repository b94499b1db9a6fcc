import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import { durableTransaction } from '../db/durable.js';
import type { SessionOutcome } from '../modules/checkout/payment-gateway.js';
import { outcomeOfSession } from '../modules/checkout/stripe-gateway.js';
import { applySessionOutcome } from '../modules/orders/orders.repository.js';

const HANDLED: Record<string, SessionOutcome['status'] | 'from-session'> = {
  'checkout.session.completed': 'from-session',
  'checkout.session.async_payment_succeeded': 'paid',
  'checkout.session.async_payment_failed': 'payment_failed',
  'checkout.session.expired': 'expired',
};

/**
 * POST /api/stripe/webhook in its own scope, where JSON bodies stay raw bytes: Stripe's signature covers
 * the exact bytes it sent. Each event is recorded once, in the same transaction as its effect on the order,
 * so a replay (or two deliveries at once) changes nothing the second time.
 */
export async function registerStripeWebhook(
  app: FastifyInstance,
  opts: { db: Db; clock: Clock; stripe: Stripe | null; webhookSecret: string | null },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    scope.post('/api/stripe/webhook', async (req, reply) => {
      if (!opts.stripe || !opts.webhookSecret) {
        return reply.code(503).send({ error: 'Stripe webhooks are not configured on this store' });
      }
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body)) {
        req.log.warn({ event: 'stripe.webhook.unsigned' }, 'webhook without a signature refused');
        return reply.code(400).send({ error: 'Missing Stripe-Signature' });
      }
      let event: Stripe.Event;
      try {
        event = await opts.stripe.webhooks.constructEventAsync(req.body, signature, opts.webhookSecret, 300);
      } catch (error) {
        req.log.warn(
          {
            event: 'stripe.webhook.bad_signature',
            reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown',
          },
          'webhook signature check failed',
        );
        return reply.code(400).send({ error: 'Invalid signature' });
      }

      const now = opts.clock.now();
      const kind = HANDLED[event.type];
      // FULL sync for this commit: Stripe is told "received" only after the effect is on disk for good.
      const result = await durableTransaction(opts.db, async (trx) => {
        const seen = await trx
          .selectFrom('stripe_events')
          .select('id')
          .where('id', '=', event.id)
          .executeTakeFirst();
        if (seen) return { duplicate: true, outcome: 'duplicate' };
        let outcome = 'ignored';
        let orderId: string | null = null;
        if (kind) {
          const session = event.data.object as Stripe.Checkout.Session;
          const base = outcomeOfSession(session);
          const applied = await applySessionOutcome(
            trx,
            kind === 'from-session' ? base : { ...base, status: kind },
            now,
          );
          orderId = applied.orderId;
          outcome = !applied.orderId
            ? 'unknown-session'
            : applied.changed
              ? `${applied.from}->${kind === 'from-session' ? base.status : kind}`
              : `unchanged (${applied.from})`;
        }
        await trx
          .insertInto('stripe_events')
          .values({
            id: event.id,
            type: event.type,
            order_id: orderId,
            outcome,
            received_at: now.toISOString(),
          })
          .execute();
        return { duplicate: false, outcome };
      });

      const logLine = { event: 'stripe.webhook', type: event.type, id: event.id, outcome: result.outcome };
      if (result.outcome === 'unknown-session')
        req.log.warn(logLine, 'webhook for a session this store does not know');
      else req.log.info(logLine, 'webhook processed');
      return reply.send({ received: true, duplicate: result.duplicate });
    });
  });
}
