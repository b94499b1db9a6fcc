import { TRPCError } from '@trpc/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertOfflineShop, lahoreShopper } from '../../test-support/offline-orders.js';
import { createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';

/** The body chest and waist each size fits, in inches (decision 0021). */
const CHART = JSON.stringify({
  S: { 'Chest (in)': '36', 'Waist (in)': '30', 'Length (in)': '40' },
  M: { 'Chest (in)': '38', 'Waist (in)': '32', 'Length (in)': '41' },
  L: { 'Chest (in)': '40', 'Waist (in)': '34', 'Length (in)': '42' },
  XL: { 'Chest (in)': '42', 'Waist (in)': '36', 'Length (in)': '43' },
});

/**
 * The fit finder's measurements go with the order (decision 0040): every way to place one stores them per
 * line, only the keys the product's chart compares, the latest of lines that differ only by them; anything
 * hostile is refused before an order exists.
 */
describe("a line's fit finder measurements at checkout", () => {
  let store: TestStore;
  const clock = manualClock();
  beforeEach(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertOfflineShop(store.handle.db);
    await store.handle.db
      .updateTable('products')
      .set({ size_detail: CHART })
      .where('id', '=', 'k1')
      .execute();
  });
  afterEach(async () => store.cleanup());

  const shop = () => store.caller({ clock });
  const fitsOf = async () =>
    (
      await store.handle.db
        .selectFrom('order_lines')
        .select(['product_id', 'size', 'quantity', 'fit_cm'])
        .orderBy('id')
        .execute()
    ).map((l) => ({ ...l, fit: l.fit_cm === null ? null : JSON.parse(l.fit_cm) }));

  it('card: stores the chart’s measurements per line, drops the others, and keeps the latest of one line', async () => {
    await shop().checkout.createSession({
      lines: [
        { productId: 'k1', size: 'M', quantity: 1, fit: { cm: { chest: 96.52, waist: 81, neck: 38 } } },
        // The same size spelled otherwise is the same line: its later measurements are kept.
        { productId: 'k1', size: 'm', quantity: 1, fit: { cm: { chest: 99, hip: 100 } } },
      ],
    });
    const [line, ...rest] = await fitsOf();
    expect(rest).toEqual([]);
    // Neck and hip are not on this chart: never stored.
    expect(line).toMatchObject({ size: 'M', quantity: 2, fit: { chest: 99 } });
  });

  it('card: a line without measurements, or of a product without a chart, stores none', async () => {
    await store.handle.db.updateTable('products').set({ currency: 'pkr' }).where('id', '=', 'd1').execute();
    await shop().checkout.createSession({
      lines: [
        { productId: 'k1', size: 'L', quantity: 1 },
        { productId: 'd1', size: 'M', quantity: 1, fit: { cm: { chest: 96 } } },
      ],
    });
    expect((await fitsOf()).map((l) => l.fit)).toEqual([null, null]);
  });

  it.each(['cash_on_delivery', 'bank_transfer'] as const)('%s: stores them too', async (method) => {
    await shop().checkout.placeOrder({
      lines: [{ productId: 'k1', size: 'M', quantity: 1, fit: { cm: { waist: 82.5 } } }],
      method,
      customer: lahoreShopper,
    });
    expect(await fitsOf()).toEqual([expect.objectContaining({ size: 'M', fit: { waist: 82.5 } })]);
  });

  it('refuses hostile measurements, and no order is made', async () => {
    const hostile: unknown[] = [
      { cm: { chest: 0 } },
      { cm: { chest: 0.5 } },
      { cm: { chest: 401 } },
      { cm: { chest: -96 } },
      { cm: { chest: Number.POSITIVE_INFINITY } },
      { cm: { chest: Number.NaN } },
      { cm: { chest: '96' } },
      { cm: { height: 170 } },
      JSON.parse('{"cm":{"chest":96,"__proto__":{"waist":1}}}'),
      { cm: { chest: 96, toString: 1 } },
      { cm: {} },
      { cm: { chest: 96 }, unit: 'in' },
      { cm: [96] },
      'chest 96',
    ];
    for (const fit of hostile) {
      const error = await shop()
        .checkout.createSession({
          // biome-ignore lint/suspicious/noExplicitAny: the hostile value is the point.
          lines: [{ productId: 'k1', size: 'M', quantity: 1, fit } as any],
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error, JSON.stringify(fit)).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe('BAD_REQUEST');
    }
    expect(await store.handle.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });
});
