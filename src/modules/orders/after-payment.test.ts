import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { ownerSession as owner } from '../../test-support/orders.js';
import {
  createTestStore,
  SESSION_FACTS,
  type TestStore,
  tickingClock,
} from '../../test-support/test-store.js';
import { emailsOfOrder } from '../email/outbox.repository.js';

const staff = {
  id: 3,
  email: 'staff@shop.example',
  loginAt: '2026-11-22T09:00:00.000Z',
  role: 'staff' as const,
  ...SESSION_FACTS,
};
const packer = {
  id: 2,
  email: 'packer@shop.example',
  loginAt: '2026-11-22T09:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

/**
 * The after-sale flow in demo payment mode, on the engine under test: the demo page's shopper details,
 * the confirmation email and the order page behind its token, shipping, delivery, cancelling, and refunds
 * that never pass what was paid, even when two admins refund at the same moment.
 */
describe('after the payment (demo mode)', () => {
  let store: TestStore;
  // Each reading a second after the last, so the timeline's order is the order things happened in.
  let clock = tickingClock();
  beforeEach(async () => {
    clock = tickingClock();
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [
      { id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 },
      { id: 'k2', title: 'Silk Dupatta', price_minor: 3000 },
    ]);
  });
  afterEach(async () => store.cleanup());

  async function paidOrder(shopper = demoShopper) {
    const { url, orderNumber } = await shop().checkout.createSession({
      lines: [
        { productId: 'k1', size: 'M', quantity: 2 },
        { productId: 'k2', size: 'S', quantity: 1 },
      ],
    });
    const sessionId = decodeURIComponent(url.split('session_id=')[1] ?? '');
    await shop().checkout.completeTestPayment({ sessionId, ...shopper });
    const row = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'access_token'])
      .where('number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    return { id: row.id, token: row.access_token ?? '', number: orderNumber, sessionId };
  }
  const shop = () => store.caller({ clock });
  const admin = (who: typeof owner | typeof staff = owner) =>
    store.caller({ clock, admin: who }).admin.orders;

  it('lets staff ship an order, and neither offers nor lets them cancel or refund it', async () => {
    const order = await paidOrder();
    expect((await admin().byId({ id: order.id })).can).toMatchObject({ cancel: true, refund: true });
    const seen = await admin(staff).byId({ id: order.id });
    expect(seen.can).toEqual({
      ship: true,
      markDelivered: false,
      cancel: false,
      refund: false,
      recordCashCollected: false,
      returnedToOrigin: false,
      recordTransfer: false,
    });
    await expect(admin(staff).cancel({ id: order.id, reason: 'Out of stock' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      admin(staff).refund({ id: order.id, amountMinor: 100, reason: 'Asked for' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await admin(staff).ship({ id: order.id, carrier: 'TCS', trackingNumber: 'T-1', trackingUrl: '' });
    expect((await admin(staff).byId({ id: order.id })).fulfilment).toBe('shipped');
  });

  it('keeps what the demo page collected, queues the confirmation, and opens the order page only with its token', async () => {
    const order = await paidOrder();
    const detail = await admin().byId({ id: order.id });
    expect(detail).toMatchObject({
      status: 'paid',
      fulfilment: 'unfulfilled',
      stage: 'Paid',
      customerEmail: 'ayesha@example.com',
      customerName: 'Ayesha Khan',
      paidMinor: 20000,
      refundableMinor: 20000,
      shippingAddress: {
        name: 'Ayesha Khan',
        line1: '12 Canal Road',
        line2: null,
        city: 'Lahore',
        postalCode: '54000',
        country: 'PK',
      },
      can: { ship: true, markDelivered: false, cancel: true, refund: true },
    });
    expect(order.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(order.token).not.toContain(order.id.replace(/^ord_/, ''));
    expect(detail.customerPageUrl).toBe(`https://shop.example/order/${order.id}?token=${order.token}`);

    const [email] = await emailsOfOrder(store.handle.db, order.id);
    expect(email).toMatchObject({ kind: 'order_confirmation', to: 'ayesha@example.com', status: 'queued' });
    const body = await store.handle.db
      .selectFrom('email_outbox')
      .select(['text_body'])
      .executeTakeFirstOrThrow();
    expect(body.text_body).toContain(`https://shop.example/order/${order.id}?token=${order.token}`);
    expect(body.text_body).toContain('Mint Lawn Kurta');
    expect(body.text_body).toContain('12 Canal Road');

    // The success page may follow on to the order page: the session id is the shopper's own secret.
    const summary = await shop().checkout.order({ sessionId: order.sessionId });
    expect(summary.orderPagePath).toBe(`/order/${order.id}?token=${order.token}`);

    const view = await shop().orderPage.view({ id: order.id, token: order.token });
    expect(view).toMatchObject({
      number: order.number,
      stage: 'Paid',
      totalMinor: 20000,
      refundedMinor: 0,
      shipment: null,
      shippingAddress: { city: 'Lahore', country: 'PK' },
    });
    expect(view.lines.map((l) => [l.title, l.size, l.quantity])).toEqual([
      ['Mint Lawn Kurta', 'M', 2],
      ['Silk Dupatta', 'S', 1],
    ]);
    expect(JSON.stringify(view)).not.toContain('ayesha@example.com');

    for (const wrong of [
      {
        id: order.id,
        token: `${order.token.slice(0, -1)}A` === order.token ? 'x' : `${order.token.slice(0, -1)}A`,
      },
      { id: order.id, token: 'a' },
      { id: 'ord_doesnotexist', token: order.token },
      { id: order.id, token: order.id },
    ]) {
      await expect(shop().orderPage.view(wrong)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'Order not found',
      });
    }
  });

  it('has no page for an unpaid checkout, and the demo page refuses a country the shop does not ship to', async () => {
    const { url, orderNumber } = await shop().checkout.createSession({
      lines: [{ productId: 'k1', size: 'M', quantity: 1 }],
    });
    const row = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'access_token'])
      .where('number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    await expect(shop().orderPage.view({ id: row.id, token: row.access_token ?? '' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const sessionId = decodeURIComponent(url.split('session_id=')[1] ?? '');
    await expect(
      shop().checkout.completeTestPayment({
        sessionId,
        ...demoShopper,
        address: { ...demoShopper.address, country: 'FR' },
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('does not ship to FR') });
    await expect(
      shop().checkout.completeTestPayment({ sessionId, ...demoShopper, email: 'not an email' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await shop().checkout.order({ sessionId })).status).toBe('pending');
  });

  it('ships once with its tracking, emails the shopper, then delivers; a shipped order cannot be cancelled', async () => {
    const order = await paidOrder();
    const shipped = await admin(packer).ship({ id: order.id, carrier: 'UPS', trackingNumber: '1Z 999' });
    expect(shipped.trackingUrl).toBe('https://www.ups.com/track?tracknum=1Z%20999');
    await expect(admin().ship({ id: order.id, carrier: 'DHL', trackingNumber: '42' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `Order #${order.number} cannot be shipped: it has already been shipped.`,
    });
    await expect(admin().cancel({ id: order.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    const emails = await emailsOfOrder(store.handle.db, order.id);
    expect(emails.map((e) => e.kind)).toEqual(['order_confirmation', 'order_shipped']);
    const shippingText = await store.handle.db
      .selectFrom('email_outbox')
      .select('text_body')
      .where('kind', '=', 'order_shipped')
      .executeTakeFirstOrThrow();
    expect(shippingText.text_body).toContain('1Z 999');
    expect(shippingText.text_body).toContain('https://www.ups.com/track?tracknum=1Z%20999');

    let view = await shop().orderPage.view({ id: order.id, token: order.token });
    expect(view).toMatchObject({
      stage: 'Shipped',
      shipment: {
        carrier: 'UPS',
        trackingNumber: '1Z 999',
        trackingUrl: 'https://www.ups.com/track?tracknum=1Z%20999',
      },
    });
    await admin().markDelivered({ id: order.id });
    view = await shop().orderPage.view({ id: order.id, token: order.token });
    expect(view.stage).toBe('Delivered');
    await expect(admin().markDelivered({ id: order.id })).rejects.toMatchObject({ code: 'CONFLICT' });

    const detail = await admin().byId({ id: order.id });
    const story = detail.timeline.map((t) => [t.label, t.actor]);
    expect(story).toEqual(
      expect.arrayContaining([
        ['Order created', 'shopper'],
        ['Paid', 'shopper (demo payment)'],
        ['Queued the order confirmation', 'store'],
        ['Shipped', 'packer@shop.example'],
        ['Queued the shipping email', 'store'],
        ['Delivered', 'owner@shop.example'],
      ]),
    );
    expect(detail.timeline.map((t) => t.at)).toEqual([...detail.timeline.map((t) => t.at)].sort());
  });

  it('refuses a tracking link that is not http(s), and cancels a paid order that has not shipped', async () => {
    const order = await paidOrder();
    await expect(
      admin().ship({
        id: order.id,
        carrier: 'Rider',
        trackingNumber: '7',
        trackingUrl: 'javascript:alert(1)',
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await admin().cancel({ id: order.id, reason: 'Out of fabric' });
    const detail = await admin().byId({ id: order.id });
    expect(detail).toMatchObject({ stage: 'Cancelled', can: { ship: false, cancel: false, refund: true } });
    expect(detail.timeline.at(-1)).toMatchObject({ label: 'Cancelled', detail: 'Out of fabric' });
    await expect(admin().ship({ id: order.id, carrier: 'UPS', trackingNumber: '1' })).rejects.toMatchObject({
      message: `Order #${order.number} cannot be shipped: it was cancelled.`,
    });
  });

  it('refunds by line and by amount, emails each refund, and never gives back more than was paid', async () => {
    const order = await paidOrder();
    const detail = await admin().byId({ id: order.id });
    const kurta = detail.lines.find((l) => l.title === 'Mint Lawn Kurta');
    if (!kurta) throw new Error('no kurta line');
    const first = await admin().refund({
      id: order.id,
      lines: [{ lineId: kurta.id, quantity: 1 }],
      reason: 'Too small',
    });
    expect(first).toMatchObject({ amountMinor: 8500, status: 'succeeded' });
    await expect(
      admin().refund({ id: order.id, lines: [{ lineId: kurta.id, quantity: 2 }] }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Mint Lawn Kurta (M): fewer are left to refund than that.',
    });
    await expect(admin().refund({ id: order.id, amountMinor: 11_501 })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `Only $115 is left to refund on order #${order.number}.`,
    });
    await expect(
      admin().refund({ id: order.id, lines: [{ lineId: 99_999, quantity: 1 }] }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(
      admin().refund({ id: order.id, amountMinor: 100, lines: [{ lineId: kurta.id, quantity: 1 }] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await admin().refund({ id: order.id, amountMinor: 11_500 });
    await expect(admin().refund({ id: order.id, amountMinor: 1 })).rejects.toMatchObject({
      message: `Order #${order.number} has already been refunded in full.`,
    });

    const after = await admin().byId({ id: order.id });
    expect(after).toMatchObject({
      refundedMinor: 20000,
      refundPendingMinor: 0,
      refundableMinor: 0,
      can: { refund: false },
    });
    expect(after.lines.find((l) => l.id === kurta.id)?.refundedQuantity).toBe(1);
    expect(after.refunds.map((r) => [r.amountMinor, r.status, r.provider, r.adminEmail])).toEqual([
      [8500, 'succeeded', 'demo', 'owner@shop.example'],
      [11500, 'succeeded', 'demo', 'owner@shop.example'],
    ]);
    const refundEmails = (await emailsOfOrder(store.handle.db, order.id)).filter(
      (e) => e.kind === 'order_refund',
    );
    expect(refundEmails).toHaveLength(2);
    const view = await shop().orderPage.view({ id: order.id, token: order.token });
    expect(view.refundedMinor).toBe(20000);
    expect(view.lines.find((l) => l.title === 'Mint Lawn Kurta')?.refundedQuantity).toBe(1);

    // The database itself refuses a refunded amount above what was paid, whatever code writes it.
    await expect(
      store.handle.db
        .updateTable('orders')
        .set({ refunded_minor: 20001 })
        .where('id', '=', order.id)
        .execute(),
    ).rejects.toThrow(/CHECK|check/);
  });

  it('two admins refunding the whole order at the same moment refund it once', async () => {
    const order = await paidOrder();
    const results = await Promise.allSettled([
      admin(owner).refund({ id: order.id, amountMinor: 20000 }),
      admin(packer).refund({ id: order.id, amountMinor: 20000 }),
      admin(owner).refund({ id: order.id, amountMinor: 20000 }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
    }
    const refunds = await store.handle.db.selectFrom('refunds').select(['amount_minor', 'status']).execute();
    expect(refunds).toEqual([{ amount_minor: 20000, status: 'succeeded' }]);
    const row = await store.handle.db
      .selectFrom('orders')
      .select('refunded_minor')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(row.refunded_minor).toBe(20000);
  });

  it('many partial refunds at once stop exactly at what was paid', async () => {
    const order = await paidOrder();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        admin(i % 2 ? owner : packer).refund({ id: order.id, amountMinor: 6000 }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const { total } = await store.handle.db
      .selectFrom('refunds')
      .select(sql<number>`sum(amount_minor)`.as('total'))
      .executeTakeFirstOrThrow();
    expect(Number(total)).toBe(18000);
    expect((await admin().byId({ id: order.id })).refundableMinor).toBe(2000);
  });

  it('refuses refunds and fulfilment to anyone who is not an admin, and of orders that were not paid', async () => {
    const order = await paidOrder();
    const shopper = shop().admin.orders;
    await expect(shopper.refund({ id: order.id, amountMinor: 100 })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(shopper.ship({ id: order.id, carrier: 'UPS', trackingNumber: '1' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    const { orderNumber } = await shop().checkout.createSession({
      lines: [{ productId: 'k1', size: 'M', quantity: 1 }],
    });
    const pending = await store.handle.db
      .selectFrom('orders')
      .select('id')
      .where('number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    await expect(admin().refund({ id: pending.id, amountMinor: 100 })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `Order #${orderNumber} is not paid: there is nothing to refund.`,
    });
    await expect(admin().ship({ id: pending.id, carrier: 'UPS', trackingNumber: '1' })).rejects.toMatchObject(
      {
        message: `Order #${orderNumber} cannot be shipped: it is not paid.`,
      },
    );
  });
});
