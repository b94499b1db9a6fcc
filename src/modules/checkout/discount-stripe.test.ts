import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EID_SALE, EID10, insertDiscounts } from '../../test-support/discount-fixtures.js';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { applySessionOutcome } from '../orders/after-payment.service.js';
import { createStripeClient, StripeGateway } from '../payments/stripe-gateway.js';

/**
 * A checkout with a sale and a code as Stripe sees it (decision 0037), through the fake of Stripe's API, on
 * the engine under test: lines at their sale unit prices, the code as one coupon made for the order, and
 * Stripe's total (lines − coupon + shipping) equal to ours plus shipping.
 */
describe('discounted checkout on Stripe', () => {
  let store: TestStore;
  let fake: FakeStripe;
  let stripe: Stripe;
  let clock = tickingClock();

  beforeAll(async () => {
    fake = await new FakeStripe().start();
  });
  afterAll(async () => fake.stop());

  beforeEach(async () => {
    fake.reset();
    fake.requests.length = 0;
    clock = tickingClock();
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [
      { id: 'lawn1', title: 'Lawn Kurta', price_minor: 8555, tags: '["lawn"]', sizes: '["M"]' },
      { id: 'dup1', title: 'Chiffon Dupatta', price_minor: 3655, tags: '[]', sizes: '[]' },
    ]);
    await insertDiscounts(store.handle.db, [
      EID_SALE,
      EID10,
      { id: 'c_ship', kind: 'code', name: 'Free shipping', code: 'SHIPFREE', value: 'free_shipping' },
    ]);
    await store.handle.db
      .updateTable('settings')
      .set({
        shipping_options: JSON.stringify([
          { label: 'Standard', amountMinor: 500, currency: 'usd', minDays: 3, maxDays: 5 },
          { label: 'Express', amountMinor: 1500, currency: 'usd', minDays: 1, maxDays: 2 },
        ]),
      })
      .execute();
    stripe = createStripeClient({ secretKey: 'sk_test_fakekey123', apiUrl: fake.url, timeoutMs: 800 });
  });
  afterEach(async () => store.cleanup());

  const shop = () => store.caller({ clock, payments: new StripeGateway(stripe) });
  const cart = [
    { productId: 'lawn1', size: 'M', quantity: 2 },
    { productId: 'dup1', size: null, quantity: 1 },
  ];
  const usesOf = async (id: string) =>
    Number(
      (
        await store.handle.db
          .selectFrom('discounts')
          .select('uses')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).uses,
    );
  type SentSession = {
    line_items: Array<{ quantity: string; price_data: { unit_amount: string } }>;
    discounts?: Array<{ coupon: string }>;
    allow_promotion_codes?: string;
    shipping_options: Array<{ shipping_rate_data: { fixed_amount: { amount: string } } }>;
  };
  const sent = () => fake.creates.at(-1)?.body as SentSession;

  it('sends the lines at their sale prices and the code as one coupon, and Stripe charges our total', async () => {
    const quote = await shop().checkout.quote({ lines: cart, code: 'EID10' });
    await shop().checkout.createSession({ lines: cart, code: 'EID10' });
    const order = await store.handle.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();

    expect(fake.couponCreates).toHaveLength(1);
    const coupon = fake.couponCreates[0];
    expect(coupon?.idempotencyKey).toBe(`checkout-coupon-${order.id}`);
    expect(coupon?.body).toMatchObject({
      amount_off: '1735',
      currency: 'usd',
      duration: 'once',
      max_redemptions: '1',
      name: 'EID10',
    });
    const body = sent();
    expect(body.line_items.map((l) => [l.quantity, l.price_data.unit_amount])).toEqual([
      ['2', '6844'],
      ['1', '3655'],
    ]);
    const couponId = [...fake.coupons.keys()].at(-1);
    expect(body.discounts).toEqual([{ coupon: couponId }]);
    // Stripe takes a coupon or promotion codes, never both.
    expect(body.allow_promotion_codes).toBeUndefined();
    const session = fake.sessions.get(order.stripe_session_id ?? '');
    expect(session?.total_details).toMatchObject({ amount_discount: 1735, amount_shipping: 500 });
    expect(session?.amount_total).toBe(quote.totalMinor + 500);
    expect(session?.amount_total).toBe(order.subtotal_minor - order.discount_minor + 500);
  });

  it('a free-shipping code offers every shipping option at 0, and no coupon', async () => {
    const quote = await shop().checkout.quote({ lines: cart, code: 'shipfree' });
    expect(quote.code).toEqual({
      code: 'SHIPFREE',
      name: 'Free shipping',
      freeShipping: true,
      needsEmail: false,
    });
    await shop().checkout.createSession({ lines: cart, code: 'shipfree' });
    expect(fake.couponCreates).toHaveLength(0);
    expect(sent().shipping_options.map((o) => o.shipping_rate_data.fixed_amount.amount)).toEqual(['0', '0']);
    const order = await store.handle.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
    expect(fake.sessions.get(order.stripe_session_id ?? '')?.amount_total).toBe(13688 + 3655);
  });

  it('allows Stripe promotion codes only when the owner turned them on and no store code is used', async () => {
    await shop().checkout.createSession({ lines: cart });
    expect(sent().allow_promotion_codes).toBe('false');
    await store.handle.db.updateTable('settings').set({ stripe_promotion_codes: 1 }).execute();
    await shop().checkout.createSession({ lines: cart });
    expect(sent().allow_promotion_codes).toBe('true');
    await shop().checkout.createSession({ lines: cart, code: 'EID10' });
    expect(sent().allow_promotion_codes).toBeUndefined();
    expect(sent().discounts).toHaveLength(1);
  });

  it('records what a Stripe promotion code took off when the session completes', async () => {
    await store.handle.db.updateTable('settings').set({ stripe_promotion_codes: 1 }).execute();
    await shop().checkout.createSession({ lines: cart });
    const order = await store.handle.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
    const sessionId = order.stripe_session_id ?? '';
    // Typed on Stripe's page: the session names it by its id, the order by what the shopper typed.
    const promotion = fake.addPromotionCode('Stripe20', 2000, 'usd');
    fake.payWithPromotionCode(sessionId, promotion.id);
    expect(fake.sessions.get(sessionId)?.amount_total).toBe(17343 - 2000 + 500);
    const outcome = await new StripeGateway(stripe).retrieveSession(sessionId);
    expect(outcome?.providerDiscount).toEqual({ amountMinor: 2000, code: 'Stripe20' });
    if (!outcome) throw new Error('no session');
    await store.handle.db
      .transaction()
      .execute((trx) => applySessionOutcome(trx, outcome, clock.now(), 'https://shop.example'));
    expect(await store.handle.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow()).toMatchObject({
      status: 'paid',
      total_minor: 15843,
      discount_minor: 2000,
      discount_code: 'Stripe20',
      discount_id: null,
    });
  });

  it('gives the use back when Stripe cannot make the session', async () => {
    fake.failWith(500, 'Stripe is down');
    await expect(shop().checkout.createSession({ lines: cart, code: 'EID10' })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
    });
    expect(await usesOf('code_eid10')).toBe(0);
    expect(await store.handle.db.selectFrom('orders').select('id').execute()).toEqual([]);
    expect(await store.handle.db.selectFrom('discount_redemptions').select('id').execute()).toEqual([]);
  });

  it('redeems the use when Stripe says the session was paid', async () => {
    await shop().checkout.createSession({ lines: cart, code: 'EID10' });
    const order = await store.handle.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
    fake.update(order.stripe_session_id ?? '', { status: 'complete', payment_status: 'paid' });
    const outcome = await new StripeGateway(stripe).retrieveSession(order.stripe_session_id ?? '');
    if (!outcome) throw new Error('no session');
    // Our own coupon is on the order already: it is not taken for a Stripe promotion code.
    expect(outcome.providerDiscount).toBeNull();
    await store.handle.db
      .transaction()
      .execute((trx) => applySessionOutcome(trx, outcome, clock.now(), 'https://shop.example'));
    const paid = await store.handle.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
    expect(paid).toMatchObject({
      status: 'paid',
      total_minor: 15608 + 500,
      discount_minor: 1735,
      discount_code: 'EID10',
    });
    const redemption = await store.handle.db
      .selectFrom('discount_redemptions')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(redemption.status).toBe('redeemed');
    expect(await usesOf('code_eid10')).toBe(1);
  });
});
