import { TRPCError } from '@trpc/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { insertOrderRow, ownerSession as owner } from '../../test-support/orders.js';
import {
  deliverStripeEvent,
  openStripeStore,
  type StripeTestStore,
} from '../../test-support/stripe-webhooks.js';
import type { TestStore } from '../../test-support/test-store.js';
import { createTestStore, tickingClock } from '../../test-support/test-store.js';
import { createRequestLimits } from '../limits/request-limits.js';
import { settlePendingRefunds } from '../orders/refunds.service.js';

const DELIVERED = '2026-11-19T10:00:00.000Z';
const staff = { ...owner, id: 2, email: 'packer@shop.example', role: 'staff' as const };
const unconfirmedOwner = { ...owner, confirmedAt: null };

const colour = (name: string, priceMinor: number | null) => ({
  name,
  hex: null,
  skuSuffix: null,
  priceMinor,
  images: [],
  sizeDetail: null,
});

/** A tunic at 50.00 in Teal (the product's price), Mint at 65.00 and Rose at 42.00; sizes untracked. */
async function insertTunic(store: TestStore): Promise<void> {
  await insertProducts(store.handle.db, [
    {
      id: 'tunic',
      title: 'Cotton Tunic',
      price_minor: 5000,
      sizes: '["S","M","L"]',
      colors: '["Teal","Mint","Rose"]',
      colour_options: JSON.stringify([colour('Teal', null), colour('Mint', 6500), colour('Rose', 4200)]),
    },
  ]);
}

async function failure(p: Promise<unknown>): Promise<TRPCError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof TRPCError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A delivered order of Teal M tunics at 50.00 each, paid as said; its page's key and its line. */
async function tunicOrder(
  store: TestStore,
  n: number,
  opts: { method?: 'card' | 'cash_on_delivery'; mode?: 'demo' | 'stripe'; quantity?: number } = {},
) {
  const id = `ord_d${n}`;
  const token = `tok_${n}_${'y'.repeat(24)}`;
  const quantity = opts.quantity ?? 1;
  const total = 5000 * quantity;
  await insertOrderRow(store.handle.db, {
    id,
    number: 500 + n,
    created_at: '2026-11-15T10:00:00.000Z',
    subtotal_minor: total,
    total_minor: total,
    customer_email: 'ayesha@example.com',
    customer_name: 'Ayesha Khan',
    access_token: token,
    fulfilment: 'delivered',
    shipped_at: DELIVERED,
    delivered_at: DELIVERED,
    payment_method: opts.method ?? 'card',
    payment_mode: opts.mode ?? 'demo',
    stripe_session_id: `cs_order_${n}`,
    collected_minor: opts.method === 'cash_on_delivery' ? total : null,
  });
  const line = await store.handle.db
    .insertInto('order_lines')
    .values({
      order_id: id,
      product_id: 'tunic',
      title: 'Cotton Tunic',
      colour: 'Teal',
      size: 'M',
      quantity,
      unit_price_minor: 5000,
      regular_unit_price_minor: 5000,
      line_total_minor: total,
      image_url: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { orderId: id, token, lineId: line.id, number: 500 + n };
}

type Key = { orderId: string; token: string; lineId: number };

const returnRow = (store: TestStore, id: string) =>
  store.handle.db.selectFrom('returns').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const eventKinds = async (store: TestStore, orderId: string) =>
  (
    await store.handle.db
      .selectFrom('order_events')
      .select('kind')
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute()
  ).map((e) => e.kind);
const emails = (store: TestStore, orderId: string) =>
  store.handle.db
    .selectFrom('email_outbox')
    .select(['kind', 'subject', 'text_body'])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();

describe('an exchange’s price difference (demo payments)', () => {
  let store: TestStore;
  let n = 0;
  // Each step a second after the last, so the outbox and the timeline read in order (fresh within a test).
  let clock = tickingClock();
  beforeEach(() => {
    clock = tickingClock();
  });
  const shop = () => store.caller({ clock });
  const asOwner = () => store.caller({ admin: owner, clock });
  const asStaff = () => store.caller({ admin: staff, clock });

  beforeAll(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertTunic(store);
  });
  afterAll(async () => store.cleanup());

  /** The shopper asks to exchange the Teal M for `colourName` L; returns the return's id. */
  async function exchangeFor(key: Key, colourName: string, quantity = 1): Promise<string> {
    const { returnId } = await shop().orderPage.requestReturn({
      orderId: key.orderId,
      token: key.token,
      reason: 'not_as_pictured',
      lines: [{ lineId: key.lineId, quantity, exchange: { size: 'L', colour: colourName } }],
    });
    return returnId;
  }
  async function received(returnId: string): Promise<void> {
    await asOwner().admin.returns.approve({ id: returnId });
    await asOwner().admin.returns.receive({ id: returnId, restock: [] });
  }
  const ship = { carrier: 'TCS', trackingNumber: 'TCS-9' };

  it('a dearer colour is owed: shown per unit, fixed at the request, and a later price does not move it', async () => {
    const key = await tunicOrder(store, ++n, { quantity: 2 });
    const options = await shop().orderPage.returnOptions(key);
    const alternatives = options.lines[0]?.alternatives ?? [];
    const of = (c: string, size: string) =>
      alternatives.find((a) => a.colour === c && a.size === size)?.differenceMinor;
    expect([of('mint', 'L'), of('rose', 'L'), of('teal', 'L')]).toEqual([1500, -800, 0]);
    expect(options.lines[0]?.nextSizes.too_small).toMatchObject({ size: 'L', differenceMinor: 0 });

    const id = await exchangeFor(key, 'Mint', 2);
    expect(await returnRow(store, id)).toMatchObject({ difference_minor: 3000, difference_status: 'due' });
    const line = await store.handle.db
      .selectFrom('return_lines')
      .select('difference_minor')
      .where('return_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(line.difference_minor).toBe(3000);
    const view = async () =>
      (await shop().orderPage.view({ id: key.orderId, token: key.token })).returns.find((r) => r.id === id);
    expect((await view())?.difference).toEqual({ amountMinor: 3000, status: 'due', canPay: false });
    expect((await view())?.lines[0]?.differenceMinor).toBe(3000);

    // The owner raises Mint afterwards: what the shopper was shown stands.
    await store.handle.db
      .updateTable('products')
      .set({
        colour_options: JSON.stringify([colour('Teal', null), colour('Mint', 9000), colour('Rose', 4200)]),
      })
      .where('id', '=', 'tunic')
      .execute();
    await asOwner().admin.returns.approve({ id });
    expect((await view())?.difference).toEqual({ amountMinor: 3000, status: 'due', canPay: true });
    expect(await asOwner().admin.returns.get({ id })).toMatchObject({
      difference: { amountMinor: 3000, status: 'due', paidVia: null, paidAt: null, refundId: null },
      lines: [expect.objectContaining({ differenceMinor: 3000 })],
      can: { recordDifferencePaid: true, refundDifference: false },
    });
    // Staff see where it stands, not the money.
    expect(await asStaff().admin.returns.get({ id })).toMatchObject({
      difference: { amountMinor: null, status: 'due' },
      lines: [expect.objectContaining({ differenceMinor: null })],
    });
    const mails = await emails(store, key.orderId);
    expect(mails[0]?.text_body).toContain('costs $30.00 more');
    expect(mails[1]?.text_body).toContain('Please pay it from your order page.');
    await store.handle.db
      .updateTable('products')
      .set({
        colour_options: JSON.stringify([colour('Teal', null), colour('Mint', 6500), colour('Rose', 4200)]),
      })
      .where('id', '=', 'tunic')
      .execute();
  });

  it('payment pages for a difference are counted with checkouts per address', async () => {
    const key = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Mint');
    await received(id);
    const limits = createRequestLimits({ queryMsPerSecond: 0, checkoutsPerIp: 2 });
    const from = (ip: string) => store.caller({ clock, limits, ip });
    await from('203.0.113.9').orderPage.payReturnDifference({ ...key, returnId: id });
    await from('203.0.113.9').orderPage.payReturnDifference({ ...key, returnId: id });
    expect(
      await failure(from('203.0.113.9').orderPage.payReturnDifference({ ...key, returnId: id })),
    ).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/Too many payments/) });
    // Another address is not held back by this one.
    await from('198.51.100.4').orderPage.payReturnDifference({ ...key, returnId: id });
  });

  it('a due difference on a card order stops the shipment until the demo payment pays it, once, to the return', async () => {
    const key = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Mint');
    // Not before the shop approves the exchange.
    expect((await failure(shop().orderPage.payReturnDifference({ ...key, returnId: id }))).message).toMatch(
      /once the shop approves/,
    );
    await received(id);
    const refused = await failure(asOwner().admin.returns.closeExchange({ id, ...ship }));
    expect(refused).toMatchObject({ code: 'CONFLICT' });
    expect(refused.message).toMatch(/has not paid the difference \(\$15\) yet/);
    expect((await failure(asStaff().admin.returns.closeExchange({ id, ...ship }))).message).not.toMatch(/\$/);

    const { url } = await shop().orderPage.payReturnDifference({ ...key, returnId: id });
    const page = new URL(url, 'https://shop.example');
    const sessionId = page.searchParams.get('session_id') ?? '';
    expect(page.pathname).toBe('/testpayment');
    expect(sessionId).toMatch(/^demo_rd_/);
    expect(page.searchParams.get('return_to')).toBe(
      `/order/${key.orderId}?token=${key.token}&difference=paid`,
    );
    expect(await shop().checkout.demoDifference({ sessionId })).toEqual({
      orderNumber: key.number,
      amountMinor: 1500,
      currency: 'usd',
      title: `Exchange on order #${key.number}: price difference`,
    });
    // A difference session is no order's checkout.
    expect((await failure(shop().checkout.demoPayment({ sessionId }))).code).toBe('NOT_FOUND');
    const asOrder = await failure(
      shop().checkout.completeTestPayment({
        sessionId,
        email: 'x@example.com',
        name: 'X',
        address: { line1: '1 Road', city: 'Lahore', postalCode: '54000', country: 'US' },
      }),
    );
    expect(asOrder.code).toBe('NOT_FOUND');

    const orderBefore = await store.handle.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', key.orderId)
      .executeTakeFirstOrThrow();
    await Promise.all([
      shop().checkout.completeDemoDifference({ sessionId }),
      shop().checkout.completeDemoDifference({ sessionId }),
    ]);
    expect(await returnRow(store, id)).toMatchObject({
      difference_status: 'paid',
      difference_paid_via: 'card',
      difference_session_id: sessionId,
    });
    const kinds = await eventKinds(store, key.orderId);
    expect(kinds.filter((k) => k === 'return_difference_paid')).toHaveLength(1);
    expect(kinds).not.toContain('return_difference_paid_again');
    const mails = await emails(store, key.orderId);
    expect(mails.filter((m) => m.subject.includes('price difference received'))).toHaveLength(1);
    expect(mails.map((m) => m.kind)).not.toContain('order_confirmation');
    expect(
      await store.handle.db
        .selectFrom('orders')
        .selectAll()
        .where('id', '=', key.orderId)
        .executeTakeFirstOrThrow(),
    ).toEqual(orderBefore);

    expect((await failure(shop().orderPage.payReturnDifference({ ...key, returnId: id }))).message).toMatch(
      /no price difference left to pay/,
    );
    expect(await asStaff().admin.returns.closeExchange({ id, ...ship })).toMatchObject({
      status: 'closed',
      differenceStatus: 'paid',
    });
  });

  it('cash on delivery: the courier collects it with the replacement, then the owner records it paid', async () => {
    const key = await tunicOrder(store, ++n, { method: 'cash_on_delivery' });
    const id = await exchangeFor(key, 'Mint');
    await received(id);
    const view = await shop().orderPage.view({ id: key.orderId, token: key.token });
    expect(view.returns.find((r) => r.id === id)?.difference).toMatchObject({ status: 'due', canPay: false });
    expect((await failure(shop().orderPage.payReturnDifference({ ...key, returnId: id }))).code).toBe(
      'BAD_REQUEST',
    );
    expect(await asStaff().admin.returns.closeExchange({ id, ...ship })).toMatchObject({
      differenceStatus: 'collect_on_delivery',
      refund: null,
    });
    const shipped = (await emails(store, key.orderId)).at(-1);
    expect(shipped?.text_body).toContain('Please pay the courier $15.00');
    expect((await asStaff().admin.returns.get({ id })).can.recordDifferencePaid).toBe(true);
    expect(
      await asStaff().admin.returns.recordDifferencePaid({
        id,
        paidVia: 'Cash to the TCS courier',
        note: '',
      }),
    ).toMatchObject({ differenceStatus: 'paid', from: 'collect_on_delivery' });
    expect(await returnRow(store, id)).toMatchObject({
      difference_status: 'paid',
      difference_paid_via: 'Cash to the TCS courier',
    });
    expect((await failure(asOwner().admin.returns.recordDifferencePaid({ id, paidVia: 'again' }))).code).toBe(
      'CONFLICT',
    );
    expect((await eventKinds(store, key.orderId)).filter((k) => k === 'return_difference_paid')).toHaveLength(
      1,
    );
    expect((await emails(store, key.orderId)).at(-1)?.subject).toContain('price difference received');
  });

  it('a cheaper colour is refunded as the owner closes: through the provider, one email; staff cannot close it', async () => {
    const key = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Rose');
    expect(await returnRow(store, id)).toMatchObject({
      difference_minor: -800,
      difference_status: 'to_refund',
    });
    await received(id);
    expect((await asStaff().admin.returns.get({ id })).can.closeExchange).toBe(false);
    expect((await asOwner().admin.returns.get({ id })).can.closeExchange).toBe(true);
    const forbidden = await failure(asStaff().admin.returns.closeExchange({ id, ...ship }));
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(forbidden.message).toMatch(/the owner must close it/);
    expect(
      (
        await failure(
          store.caller({ admin: unconfirmedOwner, clock }).admin.returns.closeExchange({ id, ...ship }),
        )
      ).code,
    ).toBe('PRECONDITION_FAILED');
    expect((await asOwner().admin.returns.get({ id })).status).toBe('received');

    const done = await asOwner().admin.returns.closeExchange({ id, ...ship });
    expect(done).toMatchObject({
      status: 'closed',
      differenceStatus: 'refunded',
      refund: { amountMinor: 800, status: 'succeeded' },
      refundRefused: null,
    });
    const refund = await store.handle.db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', '=', key.orderId)
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({
      amount_minor: 800,
      status: 'succeeded',
      method: 'provider',
      return_id: id,
      reason: `Exchange on order #${key.number}: price difference`,
      lines: '[]',
    });
    expect(await returnRow(store, id)).toMatchObject({
      difference_status: 'refunded',
      difference_refund_id: refund.id,
    });
    const order = await store.handle.db
      .selectFrom('orders')
      .select('refunded_minor')
      .where('id', '=', key.orderId)
      .executeTakeFirstOrThrow();
    expect(order.refunded_minor).toBe(800);
    const mails = await emails(store, key.orderId);
    expect(mails.map((m) => m.kind)).not.toContain('order_refund');
    expect(mails.filter((m) => m.subject.includes('on its way'))).toHaveLength(1);
    expect(mails.at(-1)?.text_body).toContain('We refunded $8.00, the price difference');
  });

  it('on a cash-on-delivery order the difference goes back by hand: the owner says how, or nothing closes', async () => {
    const key = await tunicOrder(store, ++n, { method: 'cash_on_delivery' });
    const id = await exchangeFor(key, 'Rose');
    await received(id);
    const unsaid = await failure(asOwner().admin.returns.closeExchange({ id, ...ship }));
    expect(unsaid.message).toMatch(/say how the money went back/);
    expect(await returnRow(store, id)).toMatchObject({ status: 'received', difference_status: 'to_refund' });
    const done = await asOwner().admin.returns.closeExchange({
      id,
      ...ship,
      paidVia: 'JazzCash',
      note: 'Sent',
    });
    expect(done).toMatchObject({
      differenceStatus: 'refunded',
      refund: { amountMinor: 800, status: 'succeeded' },
    });
    expect(
      await store.handle.db
        .selectFrom('refunds')
        .select(['method', 'paid_via'])
        .where('order_id', '=', key.orderId)
        .execute(),
    ).toEqual([{ method: 'manual', paid_via: 'JazzCash' }]);
    expect((await emails(store, key.orderId)).map((m) => m.kind)).not.toContain('order_refund');
  });

  it('a refused refund leaves the exchange shipped and the difference to refund; refundDifference tries again', async () => {
    const key = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Rose');
    await received(id);
    // Paid through Stripe, which this demo store does not have: the provider's refund fails.
    await store.handle.db
      .updateTable('orders')
      .set({ payment_mode: 'stripe' })
      .where('id', '=', key.orderId)
      .execute();
    const done = await asOwner().admin.returns.closeExchange({ id, ...ship });
    expect(done).toMatchObject({ status: 'closed', differenceStatus: 'to_refund', refund: null });
    expect(done.refundRefused).toMatch(/refused/);
    expect(await returnRow(store, id)).toMatchObject({
      status: 'closed',
      exchange_tracking: 'TCS-9',
      difference_status: 'to_refund',
      difference_refund_id: null,
    });
    const kinds = await eventKinds(store, key.orderId);
    expect(kinds.slice(kinds.indexOf('refund_requested'))).toEqual([
      'refund_requested',
      'return_closed',
      'refund_failed',
    ]);
    expect(
      (
        await store.handle.db
          .selectFrom('orders')
          .select('refunded_minor')
          .where('id', '=', key.orderId)
          .executeTakeFirstOrThrow()
      ).refunded_minor,
    ).toBe(0);
    expect((await emails(store, key.orderId)).at(-1)?.text_body).toContain(
      'We will refund the price difference of $8.00 separately',
    );
    expect((await asOwner().admin.returns.get({ id })).can.refundDifference).toBe(true);
    expect((await failure(asStaff().admin.returns.refundDifference({ id }))).code).toBe('FORBIDDEN');

    await store.handle.db
      .updateTable('orders')
      .set({ payment_mode: 'demo' })
      .where('id', '=', key.orderId)
      .execute();
    const retried = await asOwner().admin.returns.refundDifference({ id });
    expect(retried).toMatchObject({
      differenceStatus: 'refunded',
      refund: { amountMinor: 800, status: 'succeeded' },
    });
    expect((await failure(asOwner().admin.returns.refundDifference({ id }))).code).toBe('CONFLICT');
    const mails = await emails(store, key.orderId);
    expect(mails.filter((m) => m.subject.includes('your refund'))).toHaveLength(1);
    expect(mails.map((m) => m.kind)).not.toContain('order_refund');
  });

  const orderRow = (orderId: string) =>
    store.handle.db
      .selectFrom('orders')
      .select(['refunded_minor'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
  const refundRows = (orderId: string) =>
    store.handle.db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  it('a difference collected in cash, then the exchange declined: owed back, refunded by hand once, the order’s lines still whole', async () => {
    const key = await tunicOrder(store, ++n, { method: 'cash_on_delivery' });
    const id = await exchangeFor(key, 'Mint');
    await asOwner().admin.returns.approve({ id });
    await asStaff().admin.returns.recordDifferencePaid({ id, paidVia: 'Cash at the counter' });
    expect(await asStaff().admin.returns.decline({ id, reason: 'Worn' })).toMatchObject({
      status: 'declined',
      differenceStatus: 'to_refund',
    });
    expect(await returnRow(store, id)).toMatchObject({ status: 'declined', difference_status: 'to_refund' });
    expect((await eventKinds(store, key.orderId)).slice(-2)).toEqual([
      'return_declined',
      'return_difference_to_refund',
    ]);
    const declined = (await emails(store, key.orderId)).at(-1);
    expect(declined?.subject).toContain('declined');
    expect(declined?.text_body).toContain('We will refund the $15.00 you paid for the price difference.');
    const view = await shop().orderPage.view({ id: key.orderId, token: key.token });
    expect(view.returns.find((r) => r.id === id)?.difference).toEqual({
      amountMinor: 1500,
      status: 'to_refund',
      canPay: false,
    });

    expect(await asOwner().admin.returns.get({ id })).toMatchObject({
      difference: { amountMinor: 1500, status: 'to_refund', refundByHand: true },
      can: { refundDifference: true, recordDifferencePaid: false, decline: false },
    });
    expect((await asStaff().admin.returns.get({ id })).can.refundDifference).toBe(false);
    expect((await failure(asStaff().admin.returns.refundDifference({ id, paidVia: 'Cash' }))).code).toBe(
      'FORBIDDEN',
    );
    expect(
      (
        await failure(
          store
            .caller({ admin: unconfirmedOwner, clock })
            .admin.returns.refundDifference({ id, paidVia: 'Cash' }),
        )
      ).code,
    ).toBe('PRECONDITION_FAILED');
    const unsaid = await failure(asOwner().admin.returns.refundDifference({ id }));
    expect(unsaid).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/say how the money went back/),
    });
    expect(await returnRow(store, id)).toMatchObject({
      difference_status: 'to_refund',
      difference_refund_id: null,
    });
    expect(await refundRows(key.orderId)).toEqual([]);

    const done = await asOwner().admin.returns.refundDifference({ id, paidVia: 'Cash', note: 'At the shop' });
    expect(done).toMatchObject({
      differenceStatus: 'refunded',
      refund: { amountMinor: 1500, status: 'succeeded' },
    });
    const [refund] = await refundRows(key.orderId);
    expect(refund).toMatchObject({
      amount_minor: 1500,
      method: 'manual',
      paid_via: 'Cash',
      note: 'At the shop',
      return_id: id,
      status: 'succeeded',
    });
    expect(await returnRow(store, id)).toMatchObject({
      difference_status: 'refunded',
      difference_refund_id: refund?.id,
    });
    expect((await orderRow(key.orderId)).refunded_minor).toBe(0);
    expect((await failure(asOwner().admin.returns.refundDifference({ id, paidVia: 'Cash' }))).code).toBe(
      'CONFLICT',
    );
    const mails = await emails(store, key.orderId);
    expect(mails.filter((m) => m.subject.includes('your refund'))).toHaveLength(1);
    expect(mails.at(-1)?.text_body).toContain('We refunded $15.00, the price difference');
    expect(mails.map((m) => m.kind)).not.toContain('order_refund');

    // The difference came in besides the order's 50.00: the order's refunded amount never held it, so all
    // 50.00 is left to the line, and nothing shows as pending.
    const detail = await asOwner().admin.orders.byId({ id: key.orderId });
    expect(detail).toMatchObject({ refundableMinor: 5000, refundedMinor: 0, refundPendingMinor: 0 });
    const lines = await asOwner().admin.orders.refund({
      id: key.orderId,
      lines: [{ lineId: key.lineId, quantity: 1 }],
      paidVia: 'Cash',
    });
    expect(lines).toMatchObject({ amountMinor: 5000, status: 'succeeded' });
    expect((await orderRow(key.orderId)).refunded_minor).toBe(5000);
    expect(
      (await failure(asOwner().admin.orders.refund({ id: key.orderId, amountMinor: 1, paidVia: 'Cash' })))
        .message,
    ).toMatch(/refunded in full/);
  });

  it('a difference paid on the demo page, then cancelled by the shopper: refunded to that payment once, however many owners ask', async () => {
    const key = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Mint');
    await asOwner().admin.returns.approve({ id });
    const { url } = await shop().orderPage.payReturnDifference({ ...key, returnId: id });
    const sessionId = new URL(url, 'https://shop.example').searchParams.get('session_id') ?? '';
    await shop().checkout.completeDemoDifference({ sessionId });
    await shop().orderPage.cancelReturn({ ...key, returnId: id });
    expect(await returnRow(store, id)).toMatchObject({ status: 'cancelled', difference_status: 'to_refund' });
    const cancelled = (await emails(store, key.orderId)).at(-1);
    expect(cancelled?.text_body).toContain('We will refund the $15.00 you paid for the price difference.');
    expect((await asOwner().admin.returns.get({ id })).difference).toMatchObject({ refundByHand: false });

    const asked = await Promise.allSettled(
      Array.from({ length: 5 }, () => asOwner().admin.returns.refundDifference({ id })),
    );
    expect(asked.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const a of asked) if (a.status === 'rejected') expect(a.reason).toMatchObject({ code: 'CONFLICT' });
    const refunds = await refundRows(key.orderId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      amount_minor: 1500,
      method: 'provider',
      provider: 'demo',
      status: 'succeeded',
      return_id: id,
    });
    expect((await orderRow(key.orderId)).refunded_minor).toBe(0);
    expect((await asOwner().admin.orders.byId({ id: key.orderId })).refundableMinor).toBe(5000);
    const mails = await emails(store, key.orderId);
    expect(mails.filter((m) => m.subject.includes('your refund'))).toHaveLength(1);
    const view = await shop().orderPage.view({ id: key.orderId, token: key.token });
    expect(view.returns.find((r) => r.id === id)?.difference).toMatchObject({
      status: 'refunded',
      canPay: false,
    });
  });

  it('a difference recorded paid by transfer on a card order, then cancelled: it goes back by hand, not to the card', async () => {
    const key = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Mint');
    await asOwner().admin.returns.approve({ id });
    // A page opened but never paid: the transfer paid it, and the card session is not where it goes back.
    await shop().orderPage.payReturnDifference({ ...key, returnId: id });
    await asOwner().admin.returns.recordDifferencePaid({ id, paidVia: 'card' });
    await shop().orderPage.cancelReturn({ ...key, returnId: id });
    expect((await asOwner().admin.returns.get({ id })).difference).toMatchObject({
      status: 'to_refund',
      refundByHand: true,
    });
    expect((await failure(asOwner().admin.returns.refundDifference({ id }))).message).toMatch(
      /paid to the shop by hand.*say how the money went back/,
    );
    await asOwner().admin.returns.refundDifference({ id, paidVia: 'Bank transfer' });
    expect(await refundRows(key.orderId)).toEqual([
      expect.objectContaining({ amount_minor: 1500, method: 'manual', paid_via: 'Bank transfer' }),
    ]);
  });

  it('a difference still due when the exchange is cancelled is owed no more; a payment that comes after all is owed back', async () => {
    const key = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Mint');
    await asOwner().admin.returns.approve({ id });
    // The payment page was open in another tab when the shopper cancelled.
    const { url } = await shop().orderPage.payReturnDifference({ ...key, returnId: id });
    const sessionId = new URL(url, 'https://shop.example').searchParams.get('session_id') ?? '';
    await shop().orderPage.cancelReturn({ ...key, returnId: id });
    expect(await returnRow(store, id)).toMatchObject({ status: 'cancelled', difference_status: 'due' });
    const view = async () =>
      (await shop().orderPage.view({ id: key.orderId, token: key.token })).returns.find((r) => r.id === id);
    expect((await view())?.difference).toEqual({ amountMinor: 1500, status: 'due', canPay: false });
    expect((await emails(store, key.orderId)).at(-1)?.text_body).toContain(
      'There is no price difference to pay.',
    );
    expect((await failure(shop().orderPage.payReturnDifference({ ...key, returnId: id }))).code).toBe(
      'BAD_REQUEST',
    );
    expect((await asOwner().admin.returns.get({ id })).can).toMatchObject({
      recordDifferencePaid: false,
      refundDifference: false,
    });
    expect((await failure(asOwner().admin.returns.recordDifferencePaid({ id, paidVia: 'cash' }))).code).toBe(
      'CONFLICT',
    );
    expect((await failure(asOwner().admin.returns.refundDifference({ id }))).code).toBe('CONFLICT');
    expect(await refundRows(key.orderId)).toEqual([]);

    await shop().checkout.completeDemoDifference({ sessionId });
    expect(await returnRow(store, id)).toMatchObject({
      difference_status: 'to_refund',
      difference_paid_via: 'card',
      difference_session_id: sessionId,
    });
    expect((await returnRow(store, id)).difference_paid_at).not.toBeNull();
    expect((await eventKinds(store, key.orderId)).slice(-2)).toEqual([
      'return_difference_paid',
      'return_difference_to_refund',
    ]);
    expect((await emails(store, key.orderId)).at(-1)?.text_body).toContain('so we will refund it to you');
    expect((await view())?.difference).toMatchObject({ status: 'to_refund', canPay: false });
    expect((await asOwner().admin.returns.get({ id })).can.refundDifference).toBe(true);
    await asOwner().admin.returns.refundDifference({ id });
    expect((await orderRow(key.orderId)).refunded_minor).toBe(0);
  });

  it('a cheaper exchange declined gives nothing back: its difference is owed no more', async () => {
    const key = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Rose');
    expect(await asOwner().admin.returns.decline({ id, reason: 'Parcel never came' })).toMatchObject({
      differenceStatus: 'none',
    });
    expect(await returnRow(store, id)).toMatchObject({ difference_minor: -800, difference_status: 'none' });
    expect((await asOwner().admin.returns.get({ id })).can.refundDifference).toBe(false);
    expect((await failure(asOwner().admin.returns.refundDifference({ id }))).code).toBe('CONFLICT');
    expect((await orderRow(key.orderId)).refunded_minor).toBe(0);
    expect((await emails(store, key.orderId)).at(-1)?.text_body).not.toMatch(/refund/i);
  });

  it('refuses hostile asks: a wrong token, another order’s return, nothing due, an unknown session', async () => {
    const key = await tunicOrder(store, ++n);
    const other = await tunicOrder(store, ++n);
    const id = await exchangeFor(key, 'Mint');
    const sameId = await exchangeFor(other, 'Teal');
    await asOwner().admin.returns.approve({ id });
    await asOwner().admin.returns.approve({ id: sameId });
    const wrongToken = await failure(
      shop().orderPage.payReturnDifference({ orderId: key.orderId, token: `${key.token}x`, returnId: id }),
    );
    expect(wrongToken).toMatchObject({ code: 'NOT_FOUND', message: 'Order not found' });
    // Another order's key does not open this order's return.
    expect((await failure(shop().orderPage.payReturnDifference({ ...other, returnId: id }))).code).toBe(
      'NOT_FOUND',
    );
    // Same price: nothing to pay.
    expect((await failure(shop().orderPage.payReturnDifference({ ...other, returnId: sameId }))).code).toBe(
      'BAD_REQUEST',
    );
    expect((await failure(shop().checkout.demoDifference({ sessionId: 'demo_rd_nope' }))).code).toBe(
      'NOT_FOUND',
    );
    expect((await failure(shop().checkout.demoDifference({ sessionId: `cs_order_${n}` }))).code).toBe(
      'NOT_FOUND',
    );
    expect((await failure(shop().checkout.completeDemoDifference({ sessionId: 'demo_rd_nope' }))).code).toBe(
      'NOT_FOUND',
    );
    expect(
      (await failure(asOwner().admin.returns.recordDifferencePaid({ id: sameId, paidVia: 'cash' }))).code,
    ).toBe('CONFLICT');
    expect((await failure(asOwner().admin.returns.recordDifferencePaid({ id, paidVia: '  ' }))).code).toBe(
      'BAD_REQUEST',
    );
    expect((await failure(asOwner().admin.returns.refundDifference({ id }))).code).toBe('CONFLICT');
    expect(await returnRow(store, id)).toMatchObject({
      difference_status: 'due',
      difference_session_id: null,
    });

    // Priced in another currency now: no exchange is offered, and one asked for is refused saying why.
    const third = await tunicOrder(store, ++n);
    await store.handle.db
      .updateTable('products')
      .set({ currency: 'eur' })
      .where('id', '=', 'tunic')
      .execute();
    try {
      expect((await shop().orderPage.returnOptions(third)).lines[0]?.alternatives).toEqual([]);
      const otherCurrency = await failure(exchangeFor(third, 'Teal'));
      expect(otherCurrency).toMatchObject({ code: 'BAD_REQUEST' });
      expect(otherCurrency.message).toMatch(/another currency/);
    } finally {
      await store.handle.db
        .updateTable('products')
        .set({ currency: 'usd' })
        .where('id', '=', 'tunic')
        .execute();
    }
  });
});

describe('an exchange’s price difference paid through Stripe Checkout', () => {
  const secret = 'whsec_differencetest123';
  let fake: FakeStripe;
  let env: StripeTestStore;
  let clock = tickingClock();

  beforeEach(async () => {
    clock = tickingClock();
    fake = await new FakeStripe().start();
    env = await openStripeStore(fake, secret, { clock, prepare: insertTunic });
  });
  afterEach(async () => {
    await env.close();
    await fake.stop();
  });

  const shop = () => env.store.caller({ payments: env.payments, clock });
  const asOwner = () => env.store.caller({ admin: owner, payments: env.payments, clock });
  const completed = (sessionId: string, id?: string) =>
    deliverStripeEvent(env.app, env.stripe, secret, {
      type: 'checkout.session.completed',
      object: fake.sessions.get(sessionId),
      ...(id ? { id } : {}),
    });

  it('a signed webhook pays the return once, delivered twice and with two sessions paid, never the order', async () => {
    const key = await tunicOrder(env.store, 1, { mode: 'stripe' });
    const { returnId } = await shop().orderPage.requestReturn({
      orderId: key.orderId,
      token: key.token,
      reason: 'not_as_pictured',
      lines: [{ lineId: key.lineId, quantity: 1, exchange: { size: 'L', colour: 'Mint' } }],
    });
    await asOwner().admin.returns.approve({ id: returnId });
    // Two tabs: two sessions.
    const first = await shop().orderPage.payReturnDifference({ ...key, returnId });
    const second = await shop().orderPage.payReturnDifference({ ...key, returnId });
    expect(first.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    expect(fake.creates).toHaveLength(2);
    const [s1] = fake.creates.map((c) => c.body);
    expect(s1).toMatchObject({
      mode: 'payment',
      customer_email: 'ayesha@example.com',
      line_items: [
        {
          quantity: '1',
          price_data: {
            currency: 'usd',
            unit_amount: '1500',
            product_data: { name: `Exchange on order #${key.number}: price difference` },
          },
        },
      ],
      metadata: { order_id: key.orderId, return_id: returnId, purpose: 'return_difference' },
      success_url: `https://shop.example/order/${key.orderId}?token=${key.token}&difference=paid`,
      cancel_url: `https://shop.example/order/${key.orderId}?token=${key.token}`,
    });
    expect(s1).not.toHaveProperty('client_reference_id');
    expect(s1).not.toHaveProperty('shipping_address_collection');
    const [id1, id2] = [...fake.sessions.keys()];
    expect(second.url).toContain(id2);
    const orderBefore = await env.store.handle.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', key.orderId)
      .executeTakeFirstOrThrow();

    // Both tabs paid, and the first payment's event delivered twice, all at once: one payment counts.
    fake.update(id1 ?? '', { status: 'complete', payment_status: 'paid' });
    fake.update(id2 ?? '', { status: 'complete', payment_status: 'paid' });
    const answers = await Promise.all([
      completed(id1 ?? '', 'evt_diff_1'),
      completed(id1 ?? '', 'evt_diff_1'),
      completed(id2 ?? '', 'evt_diff_2'),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json<{ duplicate: boolean }>().duplicate)).toHaveLength(1);
    const paid = await returnRow(env.store, returnId);
    expect(paid).toMatchObject({ difference_status: 'paid', difference_paid_via: 'card' });
    const winner = paid.difference_session_id ?? '';
    expect([id1, id2]).toContain(winner);
    expect(paid.difference_payment_intent_id).toBe(fake.sessions.get(winner)?.payment_intent);
    const kinds = await eventKinds(env.store, key.orderId);
    expect(kinds.filter((k) => k === 'return_difference_paid')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'return_difference_paid_again')).toHaveLength(1);
    expect(kinds).not.toContain('paid');
    // Another event of the session that paid is nothing new.
    await deliverStripeEvent(env.app, env.stripe, secret, {
      type: 'checkout.session.async_payment_succeeded',
      object: fake.sessions.get(winner),
    });
    const outcomes = await env.store.handle.db.selectFrom('stripe_events').select('outcome').execute();
    expect(outcomes.map((o) => o.outcome).sort()).toEqual([
      'difference due->paid',
      'difference paid again (paid): refund it',
      'difference unchanged (paid)',
    ]);
    expect(
      await env.store.handle.db
        .selectFrom('orders')
        .selectAll()
        .where('id', '=', key.orderId)
        .executeTakeFirstOrThrow(),
    ).toEqual(orderBefore);
    const mails = await emails(env.store, key.orderId);
    expect(mails.filter((m) => m.subject.includes('price difference received'))).toHaveLength(1);
    expect(mails.map((m) => m.kind)).not.toContain('order_confirmation');
    // The demo page's procedures are not for a store that takes real payments.
    expect((await failure(shop().checkout.demoDifference({ sessionId: winner }))).code).toBe('NOT_FOUND');
    expect((await failure(shop().checkout.completeDemoDifference({ sessionId: winner }))).code).toBe(
      'FORBIDDEN',
    );
  });

  it('a difference session naming another order’s return is nobody’s, and pays nothing', async () => {
    const key = await tunicOrder(env.store, 2, { mode: 'stripe' });
    const other = await tunicOrder(env.store, 3, { mode: 'stripe' });
    const { returnId } = await shop().orderPage.requestReturn({
      orderId: key.orderId,
      token: key.token,
      reason: 'not_as_pictured',
      lines: [{ lineId: key.lineId, quantity: 1, exchange: { size: 'L', colour: 'Mint' } }],
    });
    await asOwner().admin.returns.approve({ id: returnId });
    await shop().orderPage.payReturnDifference({ ...key, returnId });
    const [sessionId] = [...fake.sessions.keys()];
    fake.update(sessionId ?? '', { status: 'complete', payment_status: 'paid' });
    const session = fake.sessions.get(sessionId ?? '');
    const res = await deliverStripeEvent(env.app, env.stripe, secret, {
      type: 'checkout.session.completed',
      object: {
        ...session,
        metadata: { order_id: other.orderId, return_id: returnId, purpose: 'return_difference' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(await returnRow(env.store, returnId)).toMatchObject({ difference_status: 'due' });
    const orders = await env.store.handle.db
      .selectFrom('orders')
      .select(['id', 'status', 'total_minor'])
      .where('id', 'in', [key.orderId, other.orderId])
      .orderBy('id')
      .execute();
    expect(orders).toEqual([
      { id: key.orderId, status: 'paid', total_minor: 5000 },
      { id: other.orderId, status: 'paid', total_minor: 5000 },
    ]);
    const recorded = await env.store.handle.db.selectFrom('stripe_events').select('outcome').execute();
    expect(recorded).toEqual([{ outcome: 'unknown-session' }]);
  });

  it('a cheaper colour on a Stripe order: refused by Stripe at close, refunded by Stripe on the retry, one email', async () => {
    const key = await tunicOrder(env.store, 4, { mode: 'stripe' });
    const { returnId } = await shop().orderPage.requestReturn({
      orderId: key.orderId,
      token: key.token,
      reason: 'not_as_pictured',
      lines: [{ lineId: key.lineId, quantity: 1, exchange: { size: 'L', colour: 'Rose' } }],
    });
    await asOwner().admin.returns.approve({ id: returnId });
    await asOwner().admin.returns.receive({ id: returnId, restock: [] });
    // Stripe does not know this order's payment: it refuses the refund.
    await env.store.handle.db
      .updateTable('orders')
      .set({ payment_intent_id: 'pi_order_4' })
      .where('id', '=', key.orderId)
      .execute();
    const closed = await asOwner().admin.returns.closeExchange({
      id: returnId,
      carrier: 'TCS',
      trackingNumber: 'T4',
    });
    expect(closed).toMatchObject({ status: 'closed', differenceStatus: 'to_refund', refund: null });
    expect(closed.refundRefused).toMatch(/refused/);
    expect(await returnRow(env.store, returnId)).toMatchObject({
      status: 'closed',
      difference_status: 'to_refund',
      difference_refund_id: null,
    });
    // The payment Stripe has, as checkout would have left it.
    fake.sessions.set(`cs_order_4`, {
      id: 'cs_order_4',
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_order_4',
      amount_total: 5000,
      currency: 'usd',
      metadata: {},
    });
    const retried = await asOwner().admin.returns.refundDifference({ id: returnId });
    expect(retried.refund).toMatchObject({ amountMinor: 800, status: 'succeeded' });
    const sent = fake.refundCreates.at(-1)?.body;
    expect(sent).toMatchObject({ payment_intent: 'pi_order_4', amount: '800' });
    const row = await returnRow(env.store, returnId);
    expect(row).toMatchObject({ difference_status: 'refunded' });
    expect((sent?.metadata as { refund_id?: string } | undefined)?.refund_id).toBe(row.difference_refund_id);
    // Stripe's own word of the refund later settles nothing new and mails nothing more.
    const refund = [...fake.refunds.values()].at(-1);
    await deliverStripeEvent(env.app, env.stripe, secret, { type: 'refund.updated', object: refund });
    const mails = await emails(env.store, key.orderId);
    expect(mails.map((m) => m.kind)).not.toContain('order_refund');
    expect(mails.filter((m) => m.subject.includes('your refund'))).toHaveLength(1);
    expect(
      (
        await env.store.handle.db
          .selectFrom('orders')
          .select('refunded_minor')
          .where('id', '=', key.orderId)
          .executeTakeFirstOrThrow()
      ).refunded_minor,
    ).toBe(800);
  });

  it('a difference paid through Stripe, then cancelled by the shopper: refunded to the difference’s payment, a refusal kept for a retry, the order’s own payment left whole', async () => {
    const key = await tunicOrder(env.store, 5, { mode: 'stripe' });
    // The order's own payment, as checkout left it (the order row has not learnt its payment intent yet).
    fake.sessions.set('cs_order_5', {
      id: 'cs_order_5',
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_order_5',
      amount_total: 5000,
      currency: 'usd',
      metadata: {},
    });
    const { returnId: id } = await shop().orderPage.requestReturn({
      orderId: key.orderId,
      token: key.token,
      reason: 'not_as_pictured',
      lines: [{ lineId: key.lineId, quantity: 1, exchange: { size: 'L', colour: 'Mint' } }],
    });
    await asOwner().admin.returns.approve({ id });
    await shop().orderPage.payReturnDifference({ ...key, returnId: id });
    const sessionId = [...fake.sessions.keys()].find((k) => k !== 'cs_order_5') ?? '';
    fake.update(sessionId, { status: 'complete', payment_status: 'paid' });
    expect((await completed(sessionId)).statusCode).toBe(200);
    const intent = (await returnRow(env.store, id)).difference_payment_intent_id;
    expect(intent).toBe(fake.sessions.get(sessionId)?.payment_intent);
    expect(intent).not.toBe('pi_order_5');

    await shop().orderPage.cancelReturn({ ...key, returnId: id });
    expect(await returnRow(env.store, id)).toMatchObject({
      status: 'cancelled',
      difference_status: 'to_refund',
    });
    const order = () =>
      env.store.handle.db
        .selectFrom('orders')
        .select(['refunded_minor', 'payment_intent_id'])
        .where('id', '=', key.orderId)
        .executeTakeFirstOrThrow();

    // Stripe refuses: nothing is refunded and the difference waits for the owner's retry.
    fake.refundStatus = 'failed';
    expect((await failure(asOwner().admin.returns.refundDifference({ id }))).code).toBe('BAD_GATEWAY');
    expect(await returnRow(env.store, id)).toMatchObject({
      difference_status: 'to_refund',
      difference_refund_id: null,
    });
    expect((await order()).refunded_minor).toBe(0);
    expect((await asOwner().admin.returns.get({ id })).can.refundDifference).toBe(true);

    // The retry's answer is lost: the refund stays pending and the background settles it, to the same payment.
    fake.refundStatus = 'succeeded';
    fake.hang();
    const retried = await asOwner().admin.returns.refundDifference({ id });
    expect(retried.refund).toMatchObject({ amountMinor: 1500, status: 'pending' });
    fake.reset();
    const later = clock.now().getTime() + 20 * 60_000;
    expect(
      await settlePendingRefunds(
        {
          db: env.store.handle.db,
          clock: { now: () => new Date(later) },
          payments: env.payments,
          publicUrl: 'https://shop.example',
        },
        { olderThan: new Date(later - 10 * 60_000) },
      ),
    ).toEqual({ settled: 1, failed: 0 });
    expect(fake.refundCreates.length).toBeGreaterThan(1);
    for (const sent of fake.refundCreates)
      expect(sent.body).toMatchObject({ payment_intent: intent, amount: '1500' });
    expect([...fake.refunds.values()].filter((r) => r.status === 'succeeded')).toHaveLength(1);
    const row = await returnRow(env.store, id);
    expect(row).toMatchObject({ difference_status: 'refunded' });
    expect(
      await env.store.handle.db
        .selectFrom('refunds')
        .select(['id', 'status', 'provider', 'return_id'])
        .where('id', '=', row.difference_refund_id ?? '')
        .execute(),
    ).toEqual([{ id: row.difference_refund_id, status: 'succeeded', provider: 'stripe', return_id: id }]);
    // The difference's payment is not taken for the order's own.
    expect(await order()).toEqual({ refunded_minor: 0, payment_intent_id: null });

    // The order's line can still be refunded in full, to the order's own payment; then nothing more.
    const lines = await asOwner().admin.orders.refund({
      id: key.orderId,
      lines: [{ lineId: key.lineId, quantity: 1 }],
    });
    expect(lines).toMatchObject({ amountMinor: 5000, status: 'succeeded' });
    expect(fake.refundCreates.at(-1)?.body).toMatchObject({ payment_intent: 'pi_order_5', amount: '5000' });
    expect((await order()).refunded_minor).toBe(5000);
    expect(
      (await failure(asOwner().admin.orders.refund({ id: key.orderId, amountMinor: 1 }))).message,
    ).toMatch(/refunded in full/);
  });
});
