import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSession as owner } from '../../test-support/orders.js';
import { insertDeliveredOrder, insertStockedProduct, stockOf } from '../../test-support/returns.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

/**
 * The issue's two journeys through both sides' procedures: a kurta bought in M is too small, the shopper asks
 * for L (held), the owner approves, receives and restocks M, ships L with tracking; a second shopper asks for
 * a refund and gets it once the parcel is in; the product's reasons show "too small". Each step on the
 * shopper's page and in an email.
 */
describe('a return from the shopper’s page to the owner’s close', () => {
  let store: TestStore;
  const staff = { ...owner, id: 2, email: 'packer@shop.example', role: 'staff' as const };
  const shop = () => store.caller();
  const admin = () => store.caller({ admin: staff });
  const db = () => store.handle.db;

  beforeAll(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertStockedProduct(db(), 'kurta', { M: 2, L: 1 });
  });
  afterAll(async () => store.cleanup());

  const emailsOf = async (orderId: string) =>
    (
      await db()
        .selectFrom('email_outbox')
        .select(['kind', 'subject'])
        .where('order_id', '=', orderId)
        .where('kind', '=', 'return_step')
        .orderBy('created_at')
        .execute()
    ).map((e) => e.subject);

  it('exchanges M for L, restocking M and selling the held L', async () => {
    const [line] = await insertDeliveredOrder(db(), {
      id: 'ord_ex',
      number: 501,
      lines: [{ productId: 'kurta', size: 'M', quantity: 1, unitPriceMinor: 5000 }],
    });
    const key = { orderId: 'ord_ex', token: 'token-ord_ex' };
    const options = await shop().orderPage.returnOptions(key);
    expect(options.lines[0]?.nextSizes.too_small).toMatchObject({ size: 'L' });
    const { returnId } = await shop().orderPage.requestReturn({
      ...key,
      reason: 'too_small',
      lines: [{ lineId: line ?? 0, quantity: 1, exchange: { size: 'L' } }],
    });
    expect(await stockOf(db(), 'kurta', 'L')).toEqual({ on_hand: 1, reserved: 1 });

    await admin().admin.returns.approve({ id: returnId });
    await admin().admin.returns.receive({
      id: returnId,
      condition: 'As new',
      restock: [{ lineId: line ?? 0, quantity: 1 }],
    });
    expect(await stockOf(db(), 'kurta', 'M')).toEqual({ on_hand: 3, reserved: 0 });
    await admin().admin.returns.closeExchange({ id: returnId, carrier: 'TCS', trackingNumber: 'TCS-77' });
    expect(await stockOf(db(), 'kurta', 'L')).toEqual({ on_hand: 0, reserved: 0 });

    const page = await shop().orderPage.view({ id: 'ord_ex', token: 'token-ord_ex' });
    expect(page.returns).toEqual([
      expect.objectContaining({
        id: returnId,
        status: 'closed',
        exchangeTracking: { carrier: 'TCS', number: 'TCS-77' },
      }),
    ]);
    const subjects = await emailsOf('ord_ex');
    expect(subjects).toHaveLength(4);
    expect(subjects.at(-1)).toMatch(/your exchange is on its way/);
  });

  it('refunds a second shopper once the parcel is in, and the reasons show "too small"', async () => {
    const [line] = await insertDeliveredOrder(db(), {
      id: 'ord_rf',
      number: 502,
      lines: [{ productId: 'kurta', size: 'M', quantity: 1, unitPriceMinor: 5000 }],
    });
    const key = { orderId: 'ord_rf', token: 'token-ord_rf' };
    const { returnId } = await shop().orderPage.requestReturn({
      ...key,
      reason: 'too_small',
      lines: [{ lineId: line ?? 0, quantity: 1 }],
    });
    await admin().admin.returns.approve({ id: returnId });
    // Not before the parcel is in.
    await expect(
      store.caller({ admin: owner }).admin.returns.closeRefund({ id: returnId }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await admin().admin.returns.receive({ id: returnId, condition: 'Fine', restock: [] });
    const done = await store.caller({ admin: owner }).admin.returns.closeRefund({ id: returnId });
    expect(done.refund).toMatchObject({ amountMinor: 5000, status: 'succeeded' });
    const page = await shop().orderPage.view({ id: 'ord_rf', token: 'token-ord_rf' });
    expect(page.returns).toEqual([expect.objectContaining({ status: 'closed', refundedMinor: 5000 })]);
    expect(await emailsOf('ord_rf')).toHaveLength(4);

    const report = await admin().admin.returns.reasonsByProduct({ productId: 'kurta' });
    expect(report).toEqual({
      deliveredUnits: 2,
      returnedUnits: 2,
      rate: 1,
      bySizeAndReason: [{ size: 'M', reason: 'too_small', count: 2 }],
    });
  });
});
