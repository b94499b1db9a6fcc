import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { ownerSession as owner } from '../../test-support/orders.js';
import {
  deliverStripeEvent,
  openStripeStore,
  type StripeTestStore,
} from '../../test-support/stripe-webhooks.js';
import { tickingClock } from '../../test-support/test-store.js';
import { orderCsvRows } from './orders-csv.js';

const WEBHOOK_SECRET = 'whsec_promotiontest12';

/**
 * A Stripe Dashboard promotion code the shopper typed on Stripe's page (decision 0037): the completed
 * session's webhook names it by its id (promo_…); the order records the text the shopper typed, which the
 * order page, the admin's order and list, the code filter and the CSV show. On the engine under test.
 */
describe('a Stripe promotion code recorded from the webhook', () => {
  let fake: FakeStripe;
  let clock = tickingClock();
  let s: StripeTestStore;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
  });
  afterAll(async () => fake.stop());
  beforeEach(async () => {
    clock = tickingClock();
    fake.reset();
    s = await openStripeStore(fake, WEBHOOK_SECRET, {
      clock,
      prepare: (store) =>
        store.handle.db
          .updateTable('settings')
          .set({ stripe_promotion_codes: 1 })
          .execute()
          .then(() => {}),
    });
  });
  afterEach(() => s.close());

  const deliver = (type: string, object: unknown) =>
    deliverStripeEvent(s.app, s.stripe, WEBHOOK_SECRET, { type, object });

  /** A checkout of two kurtas paid on Stripe's page with `promotion` typed there, told by its webhook. */
  async function paidWith(promotionCodeId: string, beforeWebhook = () => {}) {
    await s.store
      .caller({ payments: s.payments, clock })
      .checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 2 }] });
    const order = await s.store.handle.db
      .selectFrom('orders')
      .select(['id', 'number', 'access_token', 'stripe_session_id'])
      .executeTakeFirstOrThrow();
    const session = fake.payWithPromotionCode(order.stripe_session_id ?? '', promotionCodeId);
    expect(session?.discounts).toEqual([{ coupon: null, promotion_code: promotionCodeId }]);
    beforeWebhook();
    const completed = { ...session, customer_details: { email: 'buyer@example.com', name: 'Ayesha Khan' } };
    const res = await deliver('checkout.session.completed', completed);
    return { res, order, again: () => deliver('checkout.session.completed', completed) };
  }

  it('records the code the shopper typed, not its id, where the shopper and the admin see it', async () => {
    const promotion = fake.addPromotionCode('WELCOME5', 500, 'usd');
    const { res, order } = await paidWith(promotion.id);
    expect(res.statusCode).toBe(200);
    expect(
      fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/promotion_codes/${promotion.id}`),
    ).toBe(true);
    expect(
      await s.store.handle.db
        .selectFrom('orders')
        .select(['status', 'discount_minor', 'discount_code', 'total_minor'])
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'paid', discount_minor: 500, discount_code: 'WELCOME5', total_minor: 17_000 - 500 });

    const page = await s.store
      .caller({ clock })
      .orderPage.view({ id: order.id, token: order.access_token ?? '' });
    expect(page).toMatchObject({ discountMinor: 500, discountLabel: 'Discount (WELCOME5)' });
    const admin = s.store.caller({ clock, admin: owner }).admin.orders;
    expect(await admin.byId({ id: order.id })).toMatchObject({
      discountCode: 'WELCOME5',
      discountLabel: 'Discount (WELCOME5)',
    });
    expect((await admin.list({ code: 'welcome5' })).items.map((o) => [o.number, o.discountCode])).toEqual([
      [order.number, 'WELCOME5'],
    ]);
    const csv: string[] = [];
    for await (const row of orderCsvRows(s.store.handle.db, { from: '2026-01-01', to: '2027-01-01' }))
      csv.push(row.trimEnd());
    const header = csv[0]?.split(',') ?? [];
    expect(csv[1]?.split(',')[header.indexOf('discount_code')]).toBe('WELCOME5');
  });

  it('has Stripe deliver the webhook again while it cannot say what the code was', async () => {
    const promotion = fake.addPromotionCode('WELCOME5', 500, 'usd');
    const { res, again } = await paidWith(promotion.id, () => fake.failWith(500, 'Stripe is down'));
    expect(res.statusCode).toBe(500);
    const recorded = () =>
      s.store.handle.db.selectFrom('orders').select(['status', 'discount_code']).executeTakeFirstOrThrow();
    expect(await recorded()).toEqual({ status: 'pending', discount_code: null });
    fake.reset();
    expect((await again()).statusCode).toBe(200);
    expect(await recorded()).toEqual({ status: 'paid', discount_code: 'WELCOME5' });
  });
});
