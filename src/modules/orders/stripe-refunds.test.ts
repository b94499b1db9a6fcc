import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { ownerSession as owner } from '../../test-support/orders.js';
import {
  deliverStripeEvent,
  openStripeStore,
  type StripeTestStore,
} from '../../test-support/stripe-webhooks.js';
import { type TestStore, tickingClock } from '../../test-support/test-store.js';
import { emailsOfOrder } from '../email/outbox.repository.js';
import type { StripeGateway } from '../payments/stripe-gateway.js';
import { settlePendingRefunds } from './refunds.service.js';

const WEBHOOK_SECRET = 'whsec_refundtest1234';

/**
 * Refunds of Stripe orders, against the local fake of Stripe's API that the official client talks to:
 * the Refunds API with an idempotency key, Stripe's refusals, answers that never came, and the refund
 * webhooks (signed as Stripe signs them) that settle refunds, including one made in Stripe's Dashboard.
 */
describe('refunds through Stripe', () => {
  let fake: FakeStripe;
  let store: TestStore;
  let app: FastifyInstance;
  let stripe: Stripe;
  let payments: StripeGateway;
  let clock = tickingClock();
  let opened: StripeTestStore;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
  });
  afterAll(async () => fake.stop());
  beforeEach(async () => {
    clock = tickingClock();
    fake.reset();
    fake.requests.length = 0;
    fake.refunds.clear();
    fake.refundStatus = 'succeeded';
    opened = await openStripeStore(fake, WEBHOOK_SECRET, { clock });
    ({ store, app, stripe, payments } = opened);
  });
  afterEach(() => opened.close());

  const deliver = (type: string, object: Record<string, unknown>) =>
    deliverStripeEvent(app, stripe, WEBHOOK_SECRET, { type, object });

  /** A checkout paid on Stripe's page, told by its signed webhook. */
  async function paidOrder(): Promise<{ id: string; paymentIntent: string }> {
    await store
      .caller({ payments, clock })
      .checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 2 }] });
    const order = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'stripe_session_id'])
      .executeTakeFirstOrThrow();
    const sessionId = order.stripe_session_id ?? '';
    fake.update(sessionId, { status: 'complete', payment_status: 'paid' });
    const session = fake.sessions.get(sessionId);
    const res = await deliver('checkout.session.completed', {
      ...session,
      customer_details: { email: 'buyer@example.com', name: 'Ayesha Khan' },
      collected_information: {
        shipping_details: {
          name: 'Ayesha Khan',
          address: { line1: '1 Mall Road', city: 'Lahore', postal_code: '54000', country: 'PK' },
        },
      },
    });
    expect(res.statusCode).toBe(200);
    return { id: order.id, paymentIntent: String(session?.payment_intent) };
  }
  const admin = () => store.caller({ payments, clock, admin: owner }).admin.orders;
  const refundRows = () =>
    store.handle.db
      .selectFrom('refunds')
      .select(['id', 'amount_minor', 'status', 'provider_refund_id', 'admin_email'])
      .execute();

  it('refunds through the Refunds API with an idempotency key, and emails the shopper once', async () => {
    const order = await paidOrder();
    const detail = await admin().byId({ id: order.id });
    expect(detail).toMatchObject({ status: 'paid', paidMinor: 17000, customerEmail: 'buyer@example.com' });
    const line = detail.lines[0];
    if (!line) throw new Error('no line');
    const result = await admin().refund({ id: order.id, lines: [{ lineId: line.id, quantity: 1 }] });
    expect(result).toMatchObject({ status: 'succeeded', amountMinor: 8500 });
    const [request] = fake.refundCreates;
    expect(request?.idempotencyKey).toBe(`refund-${result.refundId}`);
    expect(request?.body).toMatchObject({
      payment_intent: order.paymentIntent,
      amount: '8500',
      metadata: { refund_id: result.refundId, order_id: order.id },
    });
    const [row] = await refundRows();
    expect(row).toMatchObject({ status: 'succeeded', provider_refund_id: expect.stringMatching(/^re_fake/) });

    // Stripe's own webhook about the same refund then changes nothing and sends no second email.
    const refund = fake.refunds.get(row?.provider_refund_id ?? '');
    expect((await deliver('refund.created', { ...refund })).statusCode).toBe(200);
    expect((await deliver('refund.updated', { ...refund })).statusCode).toBe(200);
    const emails = await emailsOfOrder(store.handle.db, order.id);
    expect(emails.map((e) => e.kind)).toEqual(['order_confirmation', 'order_refund']);
    expect((await admin().byId({ id: order.id })).refundedMinor).toBe(8500);
  });

  it('a refusal from Stripe fails the refund and gives the amount back to refund', async () => {
    const order = await paidOrder();
    fake.failWith(400, 'Charge ch_1 has been disputed.', 'invalid_request_error');
    await expect(admin().refund({ id: order.id, amountMinor: 5000 })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'The refund was refused: Charge ch_1 has been disputed.',
    });
    fake.reset();
    const detail = await admin().byId({ id: order.id });
    expect(detail).toMatchObject({ refundedMinor: 0, refundPendingMinor: 0, refundableMinor: 17000 });
    expect(detail.refunds).toEqual([
      expect.objectContaining({ status: 'failed', failure: 'Charge ch_1 has been disputed.' }),
    ]);
    expect(detail.timeline.at(-1)).toMatchObject({ label: 'Refund failed' });
    expect((await emailsOfOrder(store.handle.db, order.id)).map((e) => e.kind)).toEqual([
      'order_confirmation',
    ]);
  });

  it('an answer that never came leaves the refund pending; the background settles it without refunding twice', async () => {
    const order = await paidOrder();
    fake.hang();
    const result = await admin().refund({ id: order.id, amountMinor: 17000 });
    expect(result.status).toBe('pending');
    // The hung request may or may not have reached Stripe: here it did not (the fake records, never answers).
    fake.reset();
    expect((await admin().byId({ id: order.id })).refundableMinor).toBe(0);
    await expect(admin().refund({ id: order.id, amountMinor: 1 })).rejects.toMatchObject({
      code: 'CONFLICT',
    });

    const settle = (ms: number) =>
      settlePendingRefunds(
        {
          db: store.handle.db,
          clock: { now: () => new Date(clock.now().getTime() + ms) },
          payments,
          publicUrl: 'https://shop.example',
        },
        { olderThan: new Date(clock.now().getTime() + ms - 10 * 60_000) },
      );
    expect(await settle(60_000)).toEqual({ settled: 0, failed: 0 });
    expect(await settle(20 * 60_000)).toEqual({ settled: 1, failed: 0 });
    // Every ask (the client's own retry of the hung call included) carried the refund's one key.
    const creates = fake.refundCreates.length;
    expect(new Set(fake.refundCreates.map((r) => r.idempotencyKey))).toEqual(
      new Set([`refund-${result.refundId}`]),
    );
    expect(fake.refunds.size).toBe(1);
    // Asked again later: Stripe already has it, so nothing is sent to Stripe again.
    expect(await settle(60 * 60_000)).toEqual({ settled: 0, failed: 0 });
    expect(fake.refundCreates).toHaveLength(creates);
    expect(await refundRows()).toEqual([
      expect.objectContaining({ status: 'succeeded', amount_minor: 17000 }),
    ]);
  });

  it('a refund Stripe keeps pending is settled by its webhook: succeeded once, or failed with the money given back', async () => {
    const order = await paidOrder();
    fake.refundStatus = 'pending';
    const first = await admin().refund({ id: order.id, amountMinor: 4000 });
    const second = await admin().refund({ id: order.id, amountMinor: 6000 });
    expect([first.status, second.status]).toEqual(['pending', 'pending']);
    const rows = await refundRows();
    const byLocal = (id: string) => fake.refunds.get(rows.find((r) => r.id === id)?.provider_refund_id ?? '');
    const one = fake.updateRefund(byLocal(first.refundId)?.id ?? '', { status: 'succeeded' });
    expect((await deliver('refund.updated', { ...one })).statusCode).toBe(200);
    expect((await deliver('refund.updated', { ...one })).statusCode).toBe(200);
    const two = fake.updateRefund(byLocal(second.refundId)?.id ?? '', {
      status: 'failed',
      failure_reason: 'lost_or_stolen_card',
    });
    expect((await deliver('refund.failed', { ...two })).statusCode).toBe(200);
    const detail = await admin().byId({ id: order.id });
    expect(detail).toMatchObject({ refundedMinor: 4000, refundPendingMinor: 0, refundableMinor: 13000 });
    expect(detail.refunds.map((r) => [r.amountMinor, r.status, r.failure])).toEqual([
      [4000, 'succeeded', null],
      [6000, 'failed', 'lost_or_stolen_card'],
    ]);
    expect(
      (await emailsOfOrder(store.handle.db, order.id)).filter((e) => e.kind === 'order_refund'),
    ).toHaveLength(1);
  });

  it("records a refund made in Stripe's Dashboard against its order", async () => {
    const order = await paidOrder();
    const res = await deliver('refund.created', {
      id: 're_dashboard1',
      object: 'refund',
      amount: 2500,
      currency: 'usd',
      status: 'succeeded',
      payment_intent: order.paymentIntent,
      metadata: {},
    });
    expect(res.statusCode).toBe(200);
    expect(await refundRows()).toEqual([
      expect.objectContaining({
        amount_minor: 2500,
        status: 'succeeded',
        admin_email: 'Stripe Dashboard',
        provider_refund_id: 're_dashboard1',
      }),
    ]);
    const detail = await admin().byId({ id: order.id });
    expect(detail.refundableMinor).toBe(14500);
    expect(detail.timeline.map((t) => [t.label, t.actor])).toEqual(
      expect.arrayContaining([
        ['Refund requested', 'Stripe Dashboard'],
        ['Refunded', 'Stripe'],
      ]),
    );
    const event = await store.handle.db
      .selectFrom('stripe_events')
      .select(['outcome', 'order_id'])
      .where('type', '=', 'refund.created')
      .executeTakeFirstOrThrow();
    expect(event).toEqual({ outcome: 'refund succeeded', order_id: order.id });
  });
});
