import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrderRow, ownerSession as owner } from '../../test-support/orders.js';
import {
  insertDeliveredOrder,
  insertReturn,
  insertStockedProduct,
  RETURN_NOW,
} from '../../test-support/returns.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

/**
 * The reasons report on data counted by hand: 20 kurtas delivered (12 in M, 6 in L, 2 in S), 2 more still
 * unshipped; returns of 9 M too small, 1 M too big, 2 L damaged, 1 S changed mind (declined, so not
 * counted), 1 L other (cancelled, not counted), and a return of another product (not counted).
 */
describe('admin.returns.reasonsByProduct', () => {
  let store: TestStore;
  const staff = { ...owner, id: 2, role: 'staff' as const };

  beforeAll(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await insertStockedProduct(db, 'kurta', { S: 0, M: 0, L: 0 });
    await insertStockedProduct(db, 'other', { M: 0 });
    const [m1, l1] = await insertDeliveredOrder(db, {
      id: 'o1',
      number: 1,
      lines: [
        { productId: 'kurta', size: 'M', quantity: 10, unitPriceMinor: 5000 },
        { productId: 'kurta', size: 'L', quantity: 6, unitPriceMinor: 5000 },
      ],
    });
    const [m2, s2, x2] = await insertDeliveredOrder(db, {
      id: 'o2',
      number: 2,
      lines: [
        { productId: 'kurta', size: 'M', quantity: 2, unitPriceMinor: 5000 },
        { productId: 'kurta', size: 'S', quantity: 2, unitPriceMinor: 5000 },
        { productId: 'other', size: 'M', quantity: 4, unitPriceMinor: 5000 },
      ],
    });
    // Paid, not shipped yet: not delivered units.
    await insertOrderRow(db, { id: 'o3', number: 3, created_at: RETURN_NOW });
    await db
      .insertInto('order_lines')
      .values({
        order_id: 'o3',
        product_id: 'kurta',
        title: 'Kurta',
        colour: null,
        size: 'M',
        quantity: 2,
        unit_price_minor: 5000,
        line_total_minor: 10000,
        image_url: null,
        regular_unit_price_minor: null,
        sale_id: null,
        sale_name: null,
      })
      .execute();
    const id = (x: number | undefined) => x ?? 0;
    await insertReturn(db, {
      id: 'r1',
      orderId: 'o1',
      status: 'closed',
      reason: 'too_small',
      resolution: 'exchange',
      lines: [{ lineId: id(m1), quantity: 8, exchangeSize: 'L' }],
    });
    await insertReturn(db, {
      id: 'r2',
      orderId: 'o2',
      status: 'requested',
      reason: 'too_small',
      resolution: 'refund',
      lines: [{ lineId: id(m2), quantity: 1 }],
    });
    await insertReturn(db, {
      id: 'r3',
      orderId: 'o1',
      status: 'received',
      reason: 'too_big',
      resolution: 'refund',
      lines: [{ lineId: id(m1), quantity: 1 }],
    });
    await insertReturn(db, {
      id: 'r4',
      orderId: 'o1',
      status: 'approved',
      reason: 'damaged',
      resolution: 'refund',
      lines: [{ lineId: id(l1), quantity: 2 }],
    });
    await insertReturn(db, {
      id: 'r5',
      orderId: 'o2',
      status: 'declined',
      reason: 'changed_mind',
      resolution: 'refund',
      lines: [{ lineId: id(s2), quantity: 1 }],
    });
    await insertReturn(db, {
      id: 'r6',
      orderId: 'o1',
      status: 'cancelled',
      reason: 'other',
      resolution: 'refund',
      lines: [{ lineId: id(l1), quantity: 1 }],
    });
    await insertReturn(db, {
      id: 'r7',
      orderId: 'o2',
      status: 'closed',
      reason: 'too_small',
      resolution: 'refund',
      lines: [{ lineId: id(x2), quantity: 3 }],
    });
  });
  afterAll(async () => store.cleanup());

  it('counts returned units by size and reason over the units delivered', async () => {
    const report = await store
      .caller({ admin: staff })
      .admin.returns.reasonsByProduct({ productId: 'kurta' });
    expect(report).toEqual({
      deliveredUnits: 20,
      returnedUnits: 12,
      rate: 12 / 20,
      bySizeAndReason: [
        { size: 'M', reason: 'too_small', count: 9 },
        { size: 'L', reason: 'damaged', count: 2 },
        { size: 'M', reason: 'too_big', count: 1 },
      ],
    });
  });

  it('answers zeros for a product nobody bought', async () => {
    expect(
      await store.caller({ admin: owner }).admin.returns.reasonsByProduct({ productId: 'nobody' }),
    ).toEqual({ deliveredUnits: 0, returnedUnits: 0, rate: 0, bySizeAndReason: [] });
  });
});
