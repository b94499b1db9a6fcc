import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertDiscounts } from '../../test-support/discount-fixtures.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { insertOfflineOrder } from '../../test-support/offline-orders.js';
import { insertOrderRow, ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { countingStockWatch } from '../stock/back-in-stock-worker.js';
import { setStock } from '../stock/stock.repository.js';

const staff = { ...owner, id: 2, email: 'packer@shop.example', role: 'staff' as const };
const LINES = [{ productId: 'k1', title: 'Lawn Kurta', size: 'M', quantity: 2, unitPriceMinor: 4_000 }];

/**
 * The owner's steps on cash-on-delivery and bank-transfer orders (decision 0038), through admin.orders on the
 * engine under test: each moves the order once, with its stock, code, timeline and email, and refuses the
 * wrong method, the wrong status and a second admin.
 */
describe('payment steps after confirmation', () => {
  let store: TestStore;
  let clock = tickingClock();
  beforeEach(async () => {
    clock = tickingClock();
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Lawn Kurta', price_minor: 4_000 }]);
    await store.handle.db.transaction().execute((trx) => setStock(trx, 'k1', { M: 5 }));
  });
  afterEach(async () => store.cleanup());

  const admin = (who: typeof owner | typeof staff = owner, backInStock = countingStockWatch()) =>
    store.caller({ clock, admin: who, backInStock }).admin.orders;
  const db = () => store.handle.db;
  const count = () =>
    db()
      .selectFrom('size_stock')
      .select(['on_hand', 'reserved'])
      .where('product_id', '=', 'k1')
      .where('size', '=', 'M')
      .executeTakeFirstOrThrow();
  const order = (id: string) =>
    db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const emails = (id: string) =>
    db()
      .selectFrom('email_outbox')
      .select(['kind', 'subject', 'text_body'])
      .where('order_id', '=', id)
      .execute();
  const cod = (id: string, number: number, over: Partial<Parameters<typeof insertOfflineOrder>[1]> = {}) =>
    insertOfflineOrder(db(), {
      id,
      number,
      method: 'cash_on_delivery',
      status: 'processing',
      lines: LINES,
      feeMinor: 200,
      ...over,
    });

  it('records the cash collected: paid, delivered, the held units sold, short by how much in the timeline, the email queued', async () => {
    await cod('ord_c1', 1001, { fulfilment: 'shipped' });
    expect(await count()).toEqual({ on_hand: 5, reserved: 2 });
    const detail = await admin(staff).recordCashCollected({ id: 'ord_c1', amount: '81.50' });
    expect(detail).toMatchObject({
      status: 'paid',
      fulfilment: 'delivered',
      paymentMethod: 'cash_on_delivery',
      step: 'collected',
      stepLabel: 'Delivered, cash collected',
      methodFeeMinor: 200,
      collectedMinor: 8_150,
      totalMinor: 8_200,
    });
    expect(
      detail.subtotalMinor - detail.discountMinor + detail.methodFeeMinor + detail.adjustmentsMinor,
    ).toBe(detail.totalMinor);
    expect(detail.timeline.find((t) => t.kind === 'cash_collected')).toMatchObject({
      label: 'Delivered, cash collected',
      detail: 'PKR 81.50 · PKR 0.50 short of the total',
      actor: 'packer@shop.example',
    });
    const row = await order('ord_c1');
    expect(row.paid_at).not.toBeNull();
    expect(row.delivered_at).not.toBeNull();
    expect(row.collected_at).not.toBeNull();
    expect(await count()).toEqual({ on_hand: 3, reserved: 0 });
    const mail = await emails('ord_c1');
    expect(mail).toEqual([
      expect.objectContaining({ kind: 'order_payment_step', subject: expect.stringContaining('delivered') }),
    ]);
    expect(mail[0]?.text_body).toContain('81.50');
    const audit = await db()
      .selectFrom('admin_audit')
      .select(['action', 'target', 'admin_email', 'details'])
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'admin.orders.recordCashCollected',
        target: 'ord_c1',
        admin_email: 'packer@shop.example',
      }),
    ]);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ input: { amount: '81.50' } });
  });

  it('refuses a wrong method, a wrong status and a bad amount; two admins at once record the cash once', async () => {
    await cod('ord_c2', 1002);
    await cod('ord_c3', 1003, { status: 'pending' });
    await insertOfflineOrder(db(), {
      id: 'ord_b1',
      number: 1004,
      method: 'bank_transfer',
      status: 'pending',
      lines: LINES,
    });
    await expect(admin().recordCashCollected({ id: 'ord_b1', amount: '80' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('not cash on delivery'),
    });
    await expect(admin().recordCashCollected({ id: 'ord_c3', amount: '80' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('awaiting confirmation'),
    });
    await expect(admin().recordCashCollected({ id: 'ord_c2', amount: '80.001' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    const both = await Promise.allSettled([
      admin().recordCashCollected({ id: 'ord_c2', amount: '82' }),
      admin(staff).recordCashCollected({ id: 'ord_c2', amount: '82' }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({
      code: 'CONFLICT',
      message: 'Order #1002: the cash was already recorded as collected.',
    });
    const events = await db()
      .selectFrom('order_events')
      .select('kind')
      .where('order_id', '=', 'ord_c2')
      .execute();
    expect(events.filter((e) => e.kind === 'cash_collected')).toHaveLength(1);
    expect(await emails('ord_c2')).toHaveLength(1);
    expect(await count()).toEqual({ on_hand: 3, reserved: 4 });
  });

  it('a return to origin restocked puts the units back (held or already sold) and nudges back-in-stock', async () => {
    await cod('ord_r1', 1005, { fulfilment: 'shipped' });
    await cod('ord_r2', 1006, { stock: 'sold', fulfilment: 'shipped' });
    expect(await count()).toEqual({ on_hand: 3, reserved: 2 });
    const watch = countingStockWatch();
    const first = await admin(owner, watch).returnedToOrigin({
      id: 'ord_r1',
      reason: 'Refused at the door',
      restock: true,
    });
    expect(first).toMatchObject({
      status: 'payment_failed',
      fulfilment: 'cancelled',
      step: 'returned',
      stepLabel: 'Returned to origin',
      returnedReason: 'Refused at the door',
      returnedRestocked: true,
    });
    expect(await count()).toEqual({ on_hand: 3, reserved: 0 });
    await admin(owner, watch).returnedToOrigin({
      id: 'ord_r2',
      reason: 'Nobody at the address',
      restock: true,
    });
    expect(await count()).toEqual({ on_hand: 5, reserved: 0 });
    expect(watch.nudges).toBe(2);
    expect(first.timeline.find((t) => t.kind === 'returned_to_origin')).toMatchObject({
      label: 'Returned to origin',
      detail: 'Refused at the door · stock put back',
    });
    // The owner's default: no email for a return.
    expect(await emails('ord_r1')).toEqual([]);
    await expect(
      admin().returnedToOrigin({ id: 'ord_r1', reason: 'again', restock: true }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Order #1005: it was already recorded as returned to origin.',
    });
    expect(await count()).toEqual({ on_hand: 5, reserved: 0 });
  });

  it('a return not restocked takes the units out of the count; two returns at once restock once', async () => {
    await cod('ord_r3', 1007);
    await admin().returnedToOrigin({ id: 'ord_r3', reason: 'Damaged', restock: false });
    expect(await count()).toEqual({ on_hand: 3, reserved: 0 });
    expect((await order('ord_r3')).returned_restocked).toBe(0);
    await cod('ord_r4', 1008, { stock: 'sold' });
    expect(await count()).toEqual({ on_hand: 1, reserved: 0 });
    const both = await Promise.allSettled([
      admin().returnedToOrigin({ id: 'ord_r4', reason: 'Refused', restock: true }),
      admin(staff).returnedToOrigin({ id: 'ord_r4', reason: 'Refused', restock: true }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await count()).toEqual({ on_hand: 3, reserved: 0 });
  });

  it('records a transfer: paid, stock sold, the code redeemed, the email queued; refuses twice, expired and the wrong method', async () => {
    await insertDiscounts(db(), [
      { id: 'code_x', kind: 'code', name: 'Ten', code: 'TEN10', value: { percent: 10 }, uses: 1 },
    ]);
    await insertOfflineOrder(db(), {
      id: 'ord_t1',
      number: 1010,
      method: 'bank_transfer',
      status: 'pending',
      lines: LINES,
      discountId: 'code_x',
    });
    await insertOfflineOrder(db(), {
      id: 'ord_t2',
      number: 1011,
      method: 'bank_transfer',
      status: 'expired',
      lines: LINES,
      stock: 'none',
    });
    await cod('ord_c9', 1012);
    await expect(
      admin().recordTransfer({ id: 'ord_t1', reference: 'HBL-1', receivedOn: '2026-02-30' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const both = await Promise.allSettled([
      admin().recordTransfer({ id: 'ord_t1', reference: 'HBL-778899', receivedOn: '2026-11-21' }),
      admin().recordTransfer({ id: 'ord_t1', reference: 'HBL-778899', receivedOn: '2026-11-21' }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const won = both.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<
      Awaited<ReturnType<ReturnType<typeof admin>['recordTransfer']>>
    >;
    expect(won.value).toMatchObject({
      status: 'paid',
      fulfilment: 'unfulfilled',
      step: 'paid',
      transferReference: 'HBL-778899',
      transferReceivedOn: '2026-11-21',
      can: { ship: true },
    });
    expect((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      code: 'CONFLICT',
      message: 'Order #1010: its transfer was already recorded.',
    });
    expect(await count()).toEqual({ on_hand: 3, reserved: 2 });
    const use = await db()
      .selectFrom('discount_redemptions')
      .select('status')
      .where('order_id', '=', 'ord_t1')
      .execute();
    expect(use).toEqual([{ status: 'redeemed' }]);
    expect(await emails('ord_t1')).toEqual([
      expect.objectContaining({ kind: 'order_payment_step', subject: expect.stringContaining('transfer') }),
    ]);
    await expect(
      admin().recordTransfer({ id: 'ord_t2', reference: 'late', receivedOn: '2026-11-21' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('expired') });
    await expect(
      admin().recordTransfer({ id: 'ord_c9', reference: 'x', receivedOn: '2026-11-21' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // Money is the owner's: staff may not record a transfer.
    await expect(
      admin(staff).recordTransfer({ id: 'ord_t2', reference: 'x', receivedOn: '2026-11-21' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('ships a confirmed COD order, never an unconfirmed one; delivery of a COD order is the cash recorded', async () => {
    await cod('ord_s1', 1020);
    await cod('ord_s2', 1021, { status: 'pending' });
    await cod('ord_s3', 1022, { status: 'expired', stock: 'none' });
    const ship = { carrier: 'TCS', trackingNumber: 'TCS123' };
    expect(await admin(staff).ship({ id: 'ord_s1', ...ship })).toMatchObject({ number: 1020 });
    expect(await order('ord_s1')).toMatchObject({ status: 'processing', fulfilment: 'shipped' });
    await expect(admin().ship({ id: 'ord_s2', ...ship })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Order #1021 cannot be shipped: the shopper has not confirmed it yet.',
    });
    await expect(admin().ship({ id: 'ord_s3', ...ship })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(admin().markDelivered({ id: 'ord_s1' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('record the cash collected'),
    });
    const detail = await admin().byId({ id: 'ord_s1' });
    expect(detail).toMatchObject({
      step: 'shipped',
      can: { markDelivered: false, recordCashCollected: true, returnedToOrigin: true },
    });
    await admin().recordCashCollected({ id: 'ord_s1', amount: '82.00' });
    expect(await order('ord_s1')).toMatchObject({
      status: 'paid',
      fulfilment: 'delivered',
      collected_minor: 8_200,
    });
  });

  it('cancelling an unpaid COD or transfer order gives its stock back and refunds nothing', async () => {
    await cod('ord_x1', 1030);
    await insertOfflineOrder(db(), {
      id: 'ord_x2',
      number: 1031,
      method: 'bank_transfer',
      status: 'pending',
      lines: LINES,
    });
    await cod('ord_x3', 1032, { stock: 'sold' });
    expect(await count()).toEqual({ on_hand: 3, reserved: 4 });
    const watch = countingStockWatch();
    for (const id of ['ord_x1', 'ord_x2', 'ord_x3'])
      await admin(owner, watch).cancel({ id, reason: 'Asked to cancel' });
    expect(await count()).toEqual({ on_hand: 5, reserved: 0 });
    expect(watch.nudges).toBe(3);
    expect(await db().selectFrom('refunds').selectAll().execute()).toEqual([]);
    expect((await admin().byId({ id: 'ord_x1' })).step).toBe('cancelled');
    await expect(
      admin().recordTransfer({ id: 'ord_x2', reference: 'x', receivedOn: '2026-11-21' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('refunds a collected COD order by hand, never above the cash collected; two refunds at once stay within it', async () => {
    await cod('ord_m1', 1040, {
      status: 'paid',
      fulfilment: 'delivered',
      collectedMinor: 7_000,
      stock: 'sold',
    });
    const refund = admin().refund;
    await expect(refund({ id: 'ord_m1', amountMinor: 1_000 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('say how the money went back'),
    });
    await expect(refund({ id: 'ord_m1', amountMinor: 7_001, paidVia: 'Cash' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('70'),
    });
    const both = await Promise.allSettled([
      refund({ id: 'ord_m1', amountMinor: 4_000, paidVia: 'JazzCash', note: 'Returned one kurta' }),
      refund({ id: 'ord_m1', amountMinor: 4_000, paidVia: 'JazzCash' }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(both.find((r) => r.status === 'fulfilled')).toMatchObject({
      value: { status: 'succeeded', amountMinor: 4_000 },
    });
    await refund({ id: 'ord_m1', amountMinor: 3_000, paidVia: 'Cash' });
    await expect(refund({ id: 'ord_m1', amountMinor: 1, paidVia: 'Cash' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Order #1040 has already been refunded in full.',
    });
    const detail = await admin().byId({ id: 'ord_m1' });
    expect(detail.refundedMinor).toBe(7_000);
    expect(detail.refundableMinor).toBe(0);
    expect(detail.refunds).toEqual([
      expect.objectContaining({
        method: 'manual',
        status: 'succeeded',
        paidVia: 'JazzCash',
        amountMinor: 4_000,
      }),
      expect.objectContaining({ method: 'manual', status: 'succeeded', paidVia: 'Cash', note: null }),
    ]);
    expect(detail.timeline.filter((t) => t.label === 'Refunded by hand')).toHaveLength(2);
    expect((await emails('ord_m1')).map((e) => e.kind)).toEqual(['order_refund', 'order_refund']);
    // A paid transfer is capped by its total.
    await insertOfflineOrder(db(), {
      id: 'ord_m2',
      number: 1041,
      method: 'bank_transfer',
      status: 'paid',
      lines: LINES,
      stock: 'none',
    });
    await expect(refund({ id: 'ord_m2', amountMinor: 8_001, paidVia: 'Bank' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await refund({ id: 'ord_m2', amountMinor: 8_000, paidVia: 'Bank' })).toMatchObject({
      status: 'succeeded',
    });
  });

  it('a card order still refunds through the payment provider', async () => {
    await insertOrderRow(db(), {
      id: 'ord_card',
      number: 1050,
      created_at: '2026-11-22T09:00:00.000Z',
      subtotal_minor: 5_000,
      total_minor: 5_000,
      customer_email: 'a@example.com',
      access_token: 'tok',
    });
    const done = await admin().refund({ id: 'ord_card', amountMinor: 1_000 });
    expect(done.status).toBe('succeeded');
    const [row] = await db().selectFrom('refunds').select(['method', 'paid_via']).execute();
    expect(row).toEqual({ method: 'provider', paid_via: null });
  });
});
