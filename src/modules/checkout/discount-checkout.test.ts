import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EID_SALE, EID10, insertDiscounts } from '../../test-support/discount-fixtures.js';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { createRequestLimits } from '../limits/request-limits.js';
import { expireAbandonedDemoOrders } from '../orders/abandoned-orders.js';
import { applySessionOutcome } from '../orders/after-payment.service.js';

/**
 * Sales and codes through the quote and a demo checkout (decision 0037), on the engine under test: the
 * decision's example priced to the minor unit, the order's snapshot, uses held, redeemed and given back.
 */
describe('sales and discount codes at checkout', () => {
  let store: TestStore;
  let clock = tickingClock();
  let limits = createRequestLimits({ unlimited: true });
  beforeEach(async () => {
    clock = tickingClock();
    limits = createRequestLimits({ unlimited: true });
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [
      // Odd prices on purpose: 20 % of 8555 and 10 % of 3655 both round half up.
      { id: 'lawn1', title: 'Lawn Kurta', price_minor: 8555, tags: '["Lawn","women"]', sizes: '["M"]' },
      { id: 'dup1', title: 'Chiffon Dupatta', price_minor: 3655, tags: '["dupatta"]', sizes: '[]' },
    ]);
    await insertDiscounts(store.handle.db, [EID_SALE, EID10]);
  });
  afterEach(async () => store.cleanup());

  const shop = () => store.caller({ clock, limits });
  const cart = [
    { productId: 'lawn1', size: 'M', quantity: 2 },
    { productId: 'dup1', size: null, quantity: 1 },
  ];
  const sessionOf = (url: string) => decodeURIComponent(url.split('session_id=')[1] ?? '');
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
  const redemptions = () =>
    store.handle.db
      .selectFrom('discount_redemptions')
      .select(['order_id', 'status', 'amount_minor'])
      .execute();

  it('prices the Eid sale and EID10 on top, per line, half up, to the minor unit', async () => {
    const quote = await shop().checkout.quote({ lines: cart, code: ' eid10 ' });
    // Lawn: 20 % of 8555 = 1711 off, 6844 each, 13688 for two; EID10 takes 1368.8 → 1369 of it.
    // Dupatta: no sale, 3655; EID10 takes 365.5 → 366.
    expect(
      quote.lines.map((l) => [
        l.productId,
        l.regularUnitPriceMinor,
        l.unitPriceMinor,
        l.sale,
        l.codeDiscountMinor,
        l.lineTotalMinor,
      ]),
    ).toEqual([
      ['lawn1', 8555, 6844, { name: 'Eid 20% off lawn', percentOff: 20 }, 1369, 12319],
      ['dup1', 3655, 3655, null, 366, 3289],
    ]);
    expect(quote).toMatchObject({
      subtotalMinor: 13688 + 3655,
      salesMinor: 3422,
      discountMinor: 1735,
      totalMinor: 12319 + 3289,
      code: { code: 'EID10', name: 'Eid ten', freeShipping: false },
      codeRefusal: null,
      ok: true,
    });
    // The price the shopper saw is compared with the sale price: the one charged.
    const seen = await shop().checkout.quote({
      lines: [{ productId: 'lawn1', size: 'M', quantity: 1, seenUnitPriceMinor: 8555 }],
    });
    expect(seen.lines[0]?.problem).toBe('price_changed');
    const same = await shop().checkout.quote({
      lines: [{ productId: 'lawn1', size: 'M', quantity: 1, seenUnitPriceMinor: 6844 }],
    });
    expect(same.lines[0]?.problem).toBeNull();
  });

  it('refuses a code with its reason, and prices the cart without it', async () => {
    await insertDiscounts(store.handle.db, [
      {
        id: 'c_old',
        kind: 'code',
        name: 'Old',
        code: 'OLD',
        value: { percent: 5 },
        endsAt: '2026-11-10T00:00:00.000Z',
      },
      {
        id: 'c_new',
        kind: 'code',
        name: 'New',
        code: 'SOON',
        value: { percent: 5 },
        startsAt: '2026-12-01T00:00:00.000Z',
      },
      {
        id: 'c_end',
        kind: 'code',
        name: 'Ended',
        code: 'ENDED',
        value: { percent: 5 },
        endedAt: '2026-11-20T00:00:00.000Z',
      },
      { id: 'c_up', kind: 'code', name: 'Up', code: 'GONE', value: { percent: 5 }, maxUses: 3, uses: 3 },
      {
        id: 'c_tag',
        kind: 'code',
        name: 'Shoes',
        code: 'SHOES',
        value: { percent: 5 },
        target: 'items',
        scope: { tags: ['shoes'] },
      },
    ]);
    const reasons: Record<string, string> = {
      NOPE: 'not_found',
      OLD: 'expired',
      SOON: 'not_yet_valid',
      ENDED: 'ended',
      GONE: 'used_up',
      SHOES: 'covers_nothing',
    };
    for (const [code, reason] of Object.entries(reasons)) {
      const quote = await shop().checkout.quote({ lines: cart, code });
      expect(quote.codeRefusal?.reason, code).toBe(reason);
      expect(quote.codeRefusal?.message).toMatch(/code/i);
      expect(quote).toMatchObject({ code: null, discountMinor: 0, totalMinor: 13688 + 3655 });
    }
    const small = await shop().checkout.quote({
      lines: [{ productId: 'dup1', size: null, quantity: 1 }],
      code: 'EID10',
    });
    expect(small.codeRefusal).toEqual({
      reason: 'minimum_not_reached',
      message: 'Your order has not reached this code’s minimum yet.',
    });
    // Checkout refuses a code that does not apply rather than dropping it in silence.
    await expect(shop().checkout.createSession({ lines: cart, code: 'OLD' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This code has expired.',
    });
  });

  it('answers TOO_MANY_REQUESTS after 10 wrong codes from one address, even for a right code', async () => {
    for (let i = 0; i < 10; i++) {
      const quote = await shop().checkout.quote({ lines: cart, code: `GUESS${i}` });
      expect(quote.codeRefusal?.reason).toBe('not_found');
    }
    // Right codes do not count: a shopper retyping the right one is never limited by it.
    await expect(shop().checkout.quote({ lines: cart, code: 'GUESS10' })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringMatching(/Too many wrong discount codes.*wait/),
    });
    await expect(shop().checkout.quote({ lines: cart, code: 'EID10' })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    // Without a code the cart still prices; another address is not limited.
    expect((await shop().checkout.quote({ lines: cart })).ok).toBe(true);
    const other = await store
      .caller({ clock, limits, ip: '198.51.100.9' })
      .checkout.quote({ lines: cart, code: 'EID10' });
    expect(other.code?.code).toBe('EID10');
  });

  it('writes the order with the exact minor units, holds a use, and redeems it on payment', async () => {
    const { url } = await shop().checkout.createSession({ lines: cart, code: 'eid10' });
    const order = await store.handle.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      subtotal_minor: 17343,
      discount_minor: 1735,
      sales_minor: 3422,
      discount_code: 'EID10',
      discount_id: 'code_eid10',
    });
    const lines = await store.handle.db
      .selectFrom('order_lines')
      .select([
        'product_id',
        'quantity',
        'regular_unit_price_minor',
        'unit_price_minor',
        'sale_id',
        'sale_name',
        'discount_minor',
        'line_total_minor',
      ])
      .orderBy('id')
      .execute();
    expect(lines).toEqual([
      {
        product_id: 'lawn1',
        quantity: 2,
        regular_unit_price_minor: 8555,
        unit_price_minor: 6844,
        sale_id: 'sale_eid',
        sale_name: 'Eid 20% off lawn',
        discount_minor: 1369,
        line_total_minor: 12319,
      },
      {
        product_id: 'dup1',
        quantity: 1,
        regular_unit_price_minor: 3655,
        unit_price_minor: 3655,
        sale_id: null,
        sale_name: null,
        discount_minor: 366,
        line_total_minor: 3289,
      },
    ]);
    // The lines add up to the order: their charged totals to subtotal less the code.
    expect(lines.reduce((s, l) => s + l.line_total_minor, 0)).toBe(
      order.subtotal_minor - order.discount_minor,
    );
    expect(lines.reduce((s, l) => s + l.discount_minor, 0)).toBe(order.discount_minor);
    expect(await usesOf('code_eid10')).toBe(1);
    expect(await redemptions()).toEqual([{ order_id: order.id, status: 'held', amount_minor: 1735 }]);

    await shop().checkout.completeTestPayment({ sessionId: sessionOf(url), ...demoShopper });
    const paid = await store.handle.db.selectFrom('orders').selectAll().executeTakeFirstOrThrow();
    expect(paid).toMatchObject({ status: 'paid', total_minor: 15608 });
    expect(await usesOf('code_eid10')).toBe(1);
    expect(await redemptions()).toEqual([{ order_id: order.id, status: 'redeemed', amount_minor: 1735 }]);
    const summary = await shop().checkout.order({ sessionId: sessionOf(url) });
    expect(summary.totalMinor).toBe(15608);
  });

  it("shows the demo payment page the order's snapshot and the total that paying it records", async () => {
    const { url } = await shop().checkout.createSession({ lines: cart, code: 'eid10' });
    const sessionId = sessionOf(url);
    // Priced from the order, not again: a product's later price change does not reach the page.
    await store.handle.db.updateTable('products').set({ price_minor: 1 }).execute();
    const summary = await shop().checkout.demoPayment({ sessionId });
    expect(summary).toMatchObject({
      currency: 'usd',
      subtotalMinor: 17343,
      salesMinor: 3422,
      discountMinor: 1735,
      discountLabel: 'Discount (EID10)',
      shippingMinor: 0,
      totalMinor: 15608,
    });
    expect(summary.lines).toEqual([
      {
        title: 'Lawn Kurta',
        colour: null,
        size: 'M',
        quantity: 2,
        unitPriceMinor: 6844,
        regularUnitPriceMinor: 8555,
        saleName: 'Eid 20% off lawn',
        discountMinor: 1369,
        lineTotalMinor: 12319,
      },
      {
        title: 'Chiffon Dupatta',
        colour: null,
        size: null,
        quantity: 1,
        unitPriceMinor: 3655,
        regularUnitPriceMinor: 3655,
        saleName: null,
        discountMinor: 366,
        lineTotalMinor: 3289,
      },
    ]);
    await shop().checkout.completeTestPayment({ sessionId, ...demoShopper });
    expect((await shop().checkout.order({ sessionId })).totalMinor).toBe(summary.totalMinor);
    await expect(shop().checkout.demoPayment({ sessionId: 'demo_nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('gives the use back when the checkout expires or is abandoned, once', async () => {
    await shop().checkout.createSession({ lines: cart, code: 'EID10' });
    await shop().checkout.createSession({ lines: cart, code: 'EID10' });
    expect(await usesOf('code_eid10')).toBe(2);
    const [first, second] = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'stripe_session_id'])
      .orderBy('number')
      .execute();
    const expired = {
      sessionId: first?.stripe_session_id ?? '',
      orderId: first?.id ?? '',
      status: 'expired' as const,
      amountTotalMinor: null,
      currency: null,
      customerEmail: null,
      customerName: null,
      shippingAddress: null,
      billingAddress: null,
      paymentIntentId: null,
    };
    for (let i = 0; i < 2; i++) {
      await store.handle.db
        .transaction()
        .execute((trx) => applySessionOutcome(trx, expired, clock.now(), 'https://shop.example'));
    }
    expect(await usesOf('code_eid10')).toBe(1);
    // The abandoned demo checkout: the housekeeping expires it, and its use goes back.
    clock.advance(3 * 60 * 60_000);
    expect(await expireAbandonedDemoOrders(store.handle.db, clock.now())).toBe(1);
    expect(await expireAbandonedDemoOrders(store.handle.db, clock.now())).toBe(0);
    expect(await usesOf('code_eid10')).toBe(0);
    const statuses = (await redemptions()).map((r) => [r.order_id, r.status]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        [first?.id, 'released'],
        [second?.id, 'released'],
      ]),
    );
  });

  it('counts uses per email address, and asks for the address for such a code', async () => {
    await insertDiscounts(store.handle.db, [
      {
        id: 'c_once',
        kind: 'code',
        name: 'Welcome',
        code: 'WELCOME',
        value: { amountMinor: 1000, currency: 'usd' },
        maxUsesPerEmail: 1,
      },
    ]);
    await expect(shop().checkout.createSession({ lines: cart, code: 'WELCOME' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/email address/),
    });
    const { url } = await shop().checkout.createSession({
      lines: cart,
      code: 'WELCOME',
      email: 'Ayesha@Example.com',
    });
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(url), ...demoShopper });
    const asks = await shop().checkout.quote({ lines: cart, code: 'WELCOME' });
    expect(asks.code?.needsEmail).toBe(true);
    const again = await shop().checkout.quote({ lines: cart, code: 'welcome', email: 'ayesha@example.com' });
    expect(again.codeRefusal?.reason).toBe('used_by_email');
    await expect(
      shop().checkout.createSession({ lines: cart, code: 'WELCOME', email: 'ayesha@example.com' }),
    ).rejects.toMatchObject({ message: 'This code has already been used with this email address.' });
    expect(await usesOf('c_once')).toBe(1);
    // A fixed amount is shared by the lines in proportion, to the minor unit: 13688 : 3655 of 1000.
    const other = await shop().checkout.quote({ lines: cart, code: 'WELCOME', email: 'sana@example.com' });
    expect(other.lines.map((l) => l.codeDiscountMinor)).toEqual([789, 211]);
  });

  it('a code with 1 use left, used by 20 checkouts at once, is taken exactly once', async () => {
    await insertDiscounts(store.handle.db, [
      { id: 'c_last', kind: 'code', name: 'Last', code: 'LAST', value: { percent: 10 }, maxUses: 5, uses: 4 },
    ]);
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, () => shop().checkout.createSession({ lines: cart, code: 'LAST' })),
    );
    const won = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(won).toHaveLength(1);
    for (const lost of attempts.filter((a) => a.status === 'rejected')) {
      expect((lost as PromiseRejectedResult).reason).toMatchObject({
        code: 'BAD_REQUEST',
        message: 'This code has been used up.',
      });
    }
    expect(await usesOf('c_last')).toBe(5);
    expect(await store.handle.db.selectFrom('orders').select('id').execute()).toHaveLength(1);
    await shop().checkout.completeTestPayment({ sessionId: sessionOf(won[0]?.url ?? ''), ...demoShopper });
    expect((await redemptions()).map((r) => r.status)).toEqual(['redeemed']);
    expect(await usesOf('c_last')).toBe(5);
  });
});
