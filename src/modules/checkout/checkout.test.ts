import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { insertProducts } from '../../test-support/fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../../test-support/test-store.js';
import { createStripeClient, StripeGateway } from '../payments/stripe-gateway.js';

const json = { 'content-type': 'application/json' };
const WEBHOOK_SECRET = 'whsec_testsecret123';

const products = [
  { id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500, sizes: '["S","M","L"]' },
  { id: 'k2', title: 'Ivory Sherwani', price_minor: 48000, sizes: '["M","L"]' },
  { id: 'd1', title: 'Chiffon Dupatta', price_minor: 3650, sizes: '[]' },
  { id: 'pk1', title: 'Lahore Kurta', price_minor: 550000, currency: 'pkr', sizes: '["M"]' },
];

describe('checkout against a fake of the Stripe API', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let fake: FakeStripe;
  let stripe: Stripe;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
  });
  afterAll(async () => fake.stop());

  beforeEach(async () => {
    fake.reset();
    fake.requests.length = 0;
    store = await createTestStore({
      env: {
        PUBLIC_URL: 'https://shop.example',
        STRIPE_SECRET_KEY: 'sk_test_fakekey123',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: fake.url,
      },
    });
    await insertProducts(store.handle.db, products);
    stripe = createStripeClient({ secretKey: 'sk_test_fakekey123', apiUrl: fake.url, timeoutMs: 800 });
    app = await buildTestApp(store, { payments: new StripeGateway(stripe, WEBHOOK_SECRET) });
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: `/api/trpc/${path}`,
      headers: { ...json, origin: 'https://shop.example', ...headers },
      payload: JSON.stringify(body),
    });
  const createSession = (lines: unknown[]) => post('checkout.createSession', { lines });
  const orders = () => store.handle.db.selectFrom('orders').selectAll().execute();

  it('creates a pending order and a Stripe Checkout Session priced from the database', async () => {
    const res = await createSession([
      { productId: 'k1', size: 'M', quantity: 2, seenUnitPriceMinor: 1 },
      { productId: 'd1', size: null, quantity: 1 },
    ]);
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { result: { data: { url: string; orderNumber: number } } }).result.data;
    expect(data.url).toBe('https://checkout.stripe.test/c/pay/cs_test_fake1');

    expect(fake.creates).toHaveLength(1);
    const sent = fake.creates[0];
    expect(sent?.authorization).toBe('Bearer sk_test_fakekey123');
    const [order] = await orders();
    expect(order).toMatchObject({
      status: 'pending',
      currency: 'usd',
      subtotal_minor: 8500 * 2 + 3650,
      stripe_session_id: 'cs_test_fake1',
      payment_mode: 'stripe',
    });
    expect(sent?.idempotencyKey).toBe(`checkout-session-${order?.id}`);
    expect(sent?.body).toMatchObject({
      mode: 'payment',
      allowed_payment_method_types: ['card'],
      // Stripe Dashboard promotion codes only when the owner turns them on (decision 0037; off by default).
      allow_promotion_codes: 'false',
      billing_address_collection: 'required',
      success_url: 'https://shop.example/checkout/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/checkout/cancel',
      client_reference_id: order?.id,
      metadata: { order_id: order?.id, order_number: String(order?.number) },
      line_items: [
        {
          quantity: '2',
          price_data: { currency: 'usd', unit_amount: '8500', product_data: { name: 'Mint Lawn Kurta (M)' } },
        },
        {
          quantity: '1',
          price_data: { currency: 'usd', unit_amount: '3650', product_data: { name: 'Chiffon Dupatta' } },
        },
      ],
    });
    const shipping = sent?.body.shipping_address_collection as { allowed_countries: string[] };
    expect(shipping.allowed_countries).toContain('PK');
    const options = sent?.body.shipping_options as Array<{
      shipping_rate_data: { fixed_amount: { amount: string } };
    }>;
    expect(options[0]?.shipping_rate_data.fixed_amount.amount).toBe('0');
    const expires = Number(sent?.body.expires_at);
    expect(expires).toBeGreaterThan(Date.parse('2026-11-22T10:29:00Z') / 1000);

    const lines = await store.handle.db.selectFrom('order_lines').selectAll().execute();
    expect(
      lines.map((l) => [l.product_id, l.size, l.quantity, l.unit_price_minor, l.line_total_minor]),
    ).toEqual([
      ['k1', 'M', 2, 8500, 17000],
      ['d1', null, 1, 3650, 3650],
    ]);
  });

  it.each([
    ['a 500', () => fake.failWith(500, 'Something went wrong')],
    ['a 402 card error', () => fake.failWith(402, 'Your card was declined', 'card_error')],
    ['a timeout', () => fake.hang()],
  ])('tells the shopper clearly and leaves no order after %s', async (_name, fail) => {
    fail();
    const res = await createSession([{ productId: 'k1', size: 'S', quantity: 1 }]);
    expect(res.statusCode).toBe(502);
    expect((res.json() as { error: { message: string } }).error.message).toBe(
      'Could not process checkout. Please try again.',
    );
    expect(await orders()).toEqual([]);
    fake.reset();
    const retry = await createSession([{ productId: 'k1', size: 'S', quantity: 1 }]);
    expect(retry.statusCode).toBe(200);
    expect(await orders()).toHaveLength(1);
  });

  it.each([
    ['a negative quantity', [{ productId: 'k1', size: 'M', quantity: -1 }], 400],
    ['a quantity over 10', [{ productId: 'k1', size: 'M', quantity: 11 }], 400],
    ['an unknown product', [{ productId: 'nope', size: 'M', quantity: 1 }], 400],
    ['a size no longer offered', [{ productId: 'k2', size: 'S', quantity: 1 }], 400],
    ['a missing size', [{ productId: 'k2', size: null, quantity: 1 }], 400],
    [
      'mixed currencies',
      [
        { productId: 'k1', size: 'M', quantity: 1 },
        { productId: 'pk1', size: 'M', quantity: 1 },
      ],
      400,
    ],
    ['1,000 lines', Array.from({ length: 1000 }, () => ({ productId: 'k1', size: 'M', quantity: 1 })), 400],
    ['no lines', [], 400],
  ])('refuses a cart with %s and creates nothing', async (_name, lines, status) => {
    const res = await createSession(lines);
    expect(res.statusCode).toBe(status);
    expect(fake.creates).toHaveLength(0);
    expect(await orders()).toEqual([]);
  });

  it('says plainly when currencies are mixed', async () => {
    const res = await createSession([
      { productId: 'k1', size: 'M', quantity: 1 },
      { productId: 'pk1', size: 'M', quantity: 1 },
    ]);
    expect((res.json() as { error: { message: string } }).error.message).toMatch(
      /mixes currencies \(USD and PKR\)/,
    );
  });

  it('ignores prices sent by the client: a client price field is stripped, the order has database prices', async () => {
    const res = await createSession([
      { productId: 'k2', size: 'L', quantity: 1, unitPriceMinor: 1, price: 1, seenUnitPriceMinor: 1 },
    ]);
    expect(res.statusCode).toBe(200);
    const [order] = await orders();
    expect(order?.subtotal_minor).toBe(48000);
    const items = fake.creates[0]?.body.line_items as Array<{ price_data: { unit_amount: string } }>;
    expect(items[0]?.price_data.unit_amount).toBe('48000');
  });

  it('quotes a cart: database prices, merged duplicate lines and a problem per line', async () => {
    const res = await app.inject({
      url: `/api/trpc/checkout.quote?input=${encodeURIComponent(
        JSON.stringify({
          lines: [
            { productId: 'k1', size: 'M', quantity: 2, seenUnitPriceMinor: 8000 },
            { productId: 'k1', size: 'M', quantity: 9 },
            { productId: 'gone', size: 'M', quantity: 1 },
            { productId: 'k2', size: 'XS', quantity: 1 },
          ],
        }),
      )}`,
    });
    const quote = (
      res.json() as {
        result: { data: { lines: Array<Record<string, unknown>>; ok: boolean; totalMinor: number } };
      }
    ).result.data;
    expect(quote.ok).toBe(false);
    expect(
      quote.lines.map((l) => [l.productId, l.quantity, l.unitPriceMinor, l.lineTotalMinor, l.problem]),
    ).toEqual([
      ['k1', 10, 8500, 85000, 'price_changed'],
      ['gone', 1, null, null, 'removed'],
      ['k2', 1, 48000, 48000, 'size_unavailable'],
    ]);
    expect(quote.totalMinor).toBe(85000 + 48000);
  });

  describe('webhooks', () => {
    async function startOrder(): Promise<{ sessionId: string; orderId: string }> {
      await createSession([{ productId: 'k1', size: 'M', quantity: 1 }]);
      const [order] = await orders();
      return { sessionId: order?.stripe_session_id ?? '', orderId: order?.id ?? '' };
    }

    function event(
      type: string,
      session: Record<string, unknown>,
      id = `evt_${Math.random().toString(36).slice(2)}`,
    ) {
      return {
        id,
        object: 'event',
        type,
        api_version: '2026-01-01',
        created: 1,
        data: { object: { object: 'checkout.session', ...session } },
      };
    }

    const deliver = (
      payload: unknown,
      opts: { secret?: string; timestamp?: number; signature?: string | null } = {},
    ) => {
      const body = JSON.stringify(payload);
      const header =
        opts.signature === undefined
          ? stripe.webhooks.generateTestHeaderString({
              payload: body,
              secret: opts.secret ?? WEBHOOK_SECRET,
              timestamp: opts.timestamp,
            })
          : opts.signature;
      return app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: { 'content-type': 'application/json', ...(header ? { 'stripe-signature': header } : {}) },
        payload: body,
      });
    };

    const completed = (sessionId: string, orderId: string) =>
      event('checkout.session.completed', {
        id: sessionId,
        client_reference_id: orderId,
        status: 'complete',
        payment_status: 'paid',
        amount_total: 9000,
        currency: 'usd',
        customer_details: {
          email: 'buyer@example.com',
          name: 'Ayesha Khan',
          address: { country: 'PK', city: 'Lahore' },
        },
        collected_information: {
          shipping_details: {
            name: 'Ayesha Khan',
            address: { country: 'PK', city: 'Lahore', line1: '1 Mall Road' },
          },
        },
      });

    it('marks the order paid on a correctly signed checkout.session.completed', async () => {
      const { sessionId, orderId } = await startOrder();
      const res = await deliver(completed(sessionId, orderId));
      expect(res.statusCode).toBe(200);
      const [order] = await orders();
      expect(order).toMatchObject({
        status: 'paid',
        total_minor: 9000,
        customer_email: 'buyer@example.com',
        customer_name: 'Ayesha Khan',
      });
      expect(JSON.parse(order?.shipping_address ?? '{}')).toMatchObject({
        address: { line1: '1 Mall Road' },
      });
      expect(order?.paid_at).not.toBeNull();
    });

    it('refuses a missing, wrongly signed or stale event with 400 and changes nothing', async () => {
      const { sessionId, orderId } = await startOrder();
      const payload = completed(sessionId, orderId);
      expect((await deliver(payload, { signature: null })).statusCode).toBe(400);
      expect((await deliver(payload, { secret: 'whsec_wrongsecret' })).statusCode).toBe(400);
      expect((await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).statusCode).toBe(
        400,
      );
      expect((await deliver(payload, { signature: 't=1,v1=deadbeef' })).statusCode).toBe(400);
      const [order] = await orders();
      expect(order?.status).toBe('pending');
      expect(await store.handle.db.selectFrom('stripe_events').selectAll().execute()).toEqual([]);
    });

    it('records each event once: a replay, even two at the same moment, changes nothing', async () => {
      const { sessionId, orderId } = await startOrder();
      const payload = completed(sessionId, orderId);
      const [a, b] = await Promise.all([deliver(payload), deliver(payload)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      const again = await deliver(payload);
      expect(again.json()).toEqual({ received: true, duplicate: true });
      const events = await store.handle.db.selectFrom('stripe_events').selectAll().execute();
      expect(events).toHaveLength(1);
    });

    it('never moves an order backwards: an expired event after completed changes nothing', async () => {
      const { sessionId, orderId } = await startOrder();
      await deliver(completed(sessionId, orderId));
      await deliver(
        event('checkout.session.expired', { id: sessionId, client_reference_id: orderId, status: 'expired' }),
      );
      const [order] = await orders();
      expect(order?.status).toBe('paid');
    });

    it('follows async payments: processing, then failed', async () => {
      const { sessionId, orderId } = await startOrder();
      await deliver(
        event('checkout.session.completed', {
          id: sessionId,
          client_reference_id: orderId,
          status: 'complete',
          payment_status: 'unpaid',
        }),
      );
      expect((await orders())[0]?.status).toBe('processing');
      await deliver(
        event('checkout.session.async_payment_failed', {
          id: sessionId,
          client_reference_id: orderId,
          status: 'complete',
          payment_status: 'unpaid',
        }),
      );
      expect((await orders())[0]?.status).toBe('payment_failed');
    });

    it('logs an event for an unknown session and answers 200', async () => {
      const res = await deliver(completed('cs_test_unknown', 'ord_unknown'));
      expect(res.statusCode).toBe(200);
      const [recorded] = await store.handle.db.selectFrom('stripe_events').selectAll().execute();
      expect(recorded?.outcome).toBe('unknown-session');
    });

    it('reconciles a pending order whose webhook never came, from the admin', async () => {
      const { sessionId } = await startOrder();
      fake.update(sessionId, {
        status: 'complete',
        payment_status: 'paid',
        customer_details: { email: 'late@example.com', name: null, address: null },
      });
      await createAdmin(store, 'owner@shop.example', 'correct horse battery');
      const cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery', {
        origin: 'https://shop.example',
      });
      const res = await post('admin.orders.reconcile', {}, { cookie });
      expect(res.json()).toMatchObject({ result: { data: { checked: 1, updated: 1, failed: 0 } } });
      const [order] = await orders();
      expect(order).toMatchObject({ status: 'paid', customer_email: 'late@example.com' });

      const list = await app.inject({ url: '/api/trpc/admin.orders.list?input=%7B%7D', headers: { cookie } });
      const items = (
        list.json() as { result: { data: { items: Array<{ status: string; totalMinor: number }> } } }
      ).result.data.items;
      expect(items).toEqual([expect.objectContaining({ status: 'paid', totalMinor: 8500 })]);
    });
  });
});
