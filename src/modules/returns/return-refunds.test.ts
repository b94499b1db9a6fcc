import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSession as owner } from '../../test-support/orders.js';
import { insertDeliveredOrder, insertReturn, insertStockedProduct } from '../../test-support/returns.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

/**
 * A return closed with a refund goes through the order's own refund (a card order's through its provider,
 * here the demo; cash on delivery's recorded as paid back by hand) and never gives back more than was paid
 * for the returned units.
 */
describe('closing a return with a refund', () => {
  let store: TestStore;
  let n = 200;
  const asOwner = () => store.caller({ admin: owner });
  const db = () => store.handle.db;

  beforeAll(async () => {
    store = await createTestStore();
    await insertStockedProduct(db(), 'k1', { M: 0, L: 0 });
    await insertStockedProduct(db(), 'd1', { S: 0 }, { priceMinor: 3000 });
  });
  afterAll(async () => store.cleanup());

  async function received(
    tag: string,
    order: Parameters<typeof insertDeliveredOrder>[1]['lines'],
    returned: (lines: number[]) => Array<{ lineId: number; quantity: number }>,
    method: 'card' | 'cash_on_delivery' = 'card',
  ) {
    const orderId = `ord_${tag}`;
    const lines = await insertDeliveredOrder(db(), {
      id: orderId,
      number: n++,
      lines: order,
      paymentMethod: method,
      shippingMinor: 500,
    });
    await insertReturn(db(), {
      id: `ret_${tag}`,
      orderId,
      status: 'received',
      resolution: 'refund',
      reason: 'changed_mind',
      lines: returned(lines),
    });
    return { orderId, lines, id: `ret_${tag}` };
  }

  const orderMoney = (id: string) =>
    db()
      .selectFrom('orders')
      .select(['refunded_minor', 'total_minor'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const refundsOf = (id: string) =>
    db()
      .selectFrom('refunds')
      .select(['amount_minor', 'status', 'method', 'paid_via', 'lines'])
      .where('order_id', '=', id)
      .execute();

  it('refunds a card order’s returned units through the demo provider, once', async () => {
    const { orderId, lines, id } = await received(
      'card',
      [
        { productId: 'k1', size: 'M', quantity: 2, unitPriceMinor: 5000 },
        { productId: 'd1', size: 'S', quantity: 1, unitPriceMinor: 3000 },
      ],
      (l) => [{ lineId: l[0] ?? 0, quantity: 1 }],
    );
    const done = await asOwner().admin.returns.closeRefund({ id });
    expect(done).toMatchObject({ status: 'closed', refund: { amountMinor: 5000, status: 'succeeded' } });
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({ amount_minor: 5000, status: 'succeeded', method: 'provider' }),
    ]);
    expect(JSON.parse((await refundsOf(orderId))[0]?.lines ?? '[]')).toEqual([
      { lineId: lines[0], quantity: 1 },
    ]);
    expect(await orderMoney(orderId)).toMatchObject({ refunded_minor: 5000 });
    expect(await asOwner().admin.returns.get({ id })).toMatchObject({
      status: 'closed',
      refundedMinor: 5000,
    });
    const kinds = await db()
      .selectFrom('email_outbox')
      .select('kind')
      .where('order_id', '=', orderId)
      .execute();
    // One email: the return's, naming it and the amount (not the order's refund email as well).
    expect(kinds.map((k) => k.kind)).toEqual(['return_step']);
    await expect(asOwner().admin.returns.closeRefund({ id })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await orderMoney(orderId)).toMatchObject({ refunded_minor: 5000 });
  });

  it('two owners closing one refund at once refund once', async () => {
    const { orderId, id } = await received(
      'race',
      [{ productId: 'k1', size: 'M', quantity: 1, unitPriceMinor: 5000 }],
      (l) => [{ lineId: l[0] ?? 0, quantity: 1 }],
    );
    const results = await Promise.allSettled([
      asOwner().admin.returns.closeRefund({ id }),
      asOwner().admin.returns.closeRefund({ id }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await refundsOf(orderId)).toHaveLength(1);
    expect(await orderMoney(orderId)).toMatchObject({ refunded_minor: 5000 });
  });

  it('gives back a discounted unit’s charged price, not its list price', async () => {
    // Two kurtas at 50.00 with 20.00 of a code shared onto the line: each unit was paid 40.00.
    const { orderId, id } = await received(
      'code',
      [
        { productId: 'k1', size: 'M', quantity: 2, unitPriceMinor: 5000, discountMinor: 2000 },
        { productId: 'd1', size: 'S', quantity: 1, unitPriceMinor: 3000, discountMinor: 601 },
      ],
      (l) => [
        { lineId: l[0] ?? 0, quantity: 1 },
        { lineId: l[1] ?? 0, quantity: 1 },
      ],
    );
    const done = await asOwner().admin.returns.closeRefund({ id });
    // 4000 for the kurta, 2399 for the dupatta (3000 less its 601 share); never the 500 shipping.
    expect(done.refund.amountMinor).toBe(4000 + 2399);
    expect(await orderMoney(orderId)).toMatchObject({ refunded_minor: 6399 });
  });

  it('never refunds more than is left of a partly refunded order, and leaves the return to try again', async () => {
    const { orderId, id } = await received(
      'partly',
      [{ productId: 'k1', size: 'M', quantity: 2, unitPriceMinor: 5000 }],
      (l) => [{ lineId: l[0] ?? 0, quantity: 2 }],
    );
    // 105.00 paid; the owner already gave 20.00 back as a goodwill amount: 85.00 is left, the units are 100.00.
    await asOwner().admin.orders.refund({ id: orderId, amountMinor: 2000 });
    await expect(asOwner().admin.returns.closeRefund({ id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('left to refund'),
    });
    expect(await orderMoney(orderId)).toMatchObject({ refunded_minor: 2000 });
    expect(await asOwner().admin.returns.get({ id })).toMatchObject({
      status: 'received',
      refundedMinor: null,
    });
  });

  it('refunds only the units not already refunded line by line', async () => {
    const { orderId, lines, id } = await received(
      'line_refunded',
      [{ productId: 'k1', size: 'L', quantity: 2, unitPriceMinor: 5000, discountMinor: 1 }],
      (l) => [{ lineId: l[0] ?? 0, quantity: 2 }],
    );
    await asOwner().admin.orders.refund({ id: orderId, lines: [{ lineId: lines[0] ?? 0, quantity: 1 }] });
    await expect(asOwner().admin.returns.closeRefund({ id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('fewer are left'),
    });
    // One unit of 9999 charged was refunded (5000, the larger share first): 4999 is what the other unit paid.
    await db().updateTable('return_lines').set({ quantity: 1 }).where('return_id', '=', id).execute();
    const done = await asOwner().admin.returns.closeRefund({ id });
    expect(done.refund.amountMinor).toBe(4999);
    expect(await orderMoney(orderId)).toMatchObject({ refunded_minor: 9999 });
  });

  it('a refund the provider refuses leaves the return received, unrefunded, and the shopper untold', async () => {
    const { orderId, id } = await received(
      'refused',
      [{ productId: 'k1', size: 'M', quantity: 1, unitPriceMinor: 5000 }],
      (l) => [{ lineId: l[0] ?? 0, quantity: 1 }],
    );
    // Paid through Stripe, which this store no longer has: the refund fails, as a refusal would.
    await db().updateTable('orders').set({ payment_mode: 'stripe' }).where('id', '=', orderId).execute();
    await expect(asOwner().admin.returns.closeRefund({ id })).rejects.toMatchObject({ code: 'BAD_GATEWAY' });
    expect(await asOwner().admin.returns.get({ id })).toMatchObject({
      status: 'received',
      refundedMinor: null,
      closedAt: null,
    });
    expect(await orderMoney(orderId)).toMatchObject({ refunded_minor: 0 });
    const kinds = await db()
      .selectFrom('email_outbox')
      .select('kind')
      .where('order_id', '=', orderId)
      .execute();
    expect(kinds).toEqual([]);
  });

  it('a cash-on-delivery order’s refund is paid back by hand: the owner says how', async () => {
    const { orderId, id } = await received(
      'cod',
      [{ productId: 'k1', size: 'M', quantity: 1, unitPriceMinor: 5000 }],
      (l) => [{ lineId: l[0] ?? 0, quantity: 1 }],
      'cash_on_delivery',
    );
    await expect(asOwner().admin.returns.closeRefund({ id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('say how the money went back'),
    });
    expect((await asOwner().admin.returns.get({ id })).status).toBe('received');
    const done = await asOwner().admin.returns.closeRefund({ id, paidVia: 'JazzCash', note: 'Sent 22 Nov' });
    expect(done.refund).toMatchObject({ amountMinor: 5000, status: 'succeeded' });
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({
        amount_minor: 5000,
        method: 'manual',
        paid_via: 'JazzCash',
        status: 'succeeded',
      }),
    ]);
    const kinds = await db()
      .selectFrom('email_outbox')
      .select('kind')
      .where('order_id', '=', orderId)
      .execute();
    // One email: the return's, naming it and the amount (not the order's refund email as well).
    expect(kinds.map((k) => k.kind)).toEqual(['return_step']);
  });
});
