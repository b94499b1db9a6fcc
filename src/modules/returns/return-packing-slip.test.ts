import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColourOption } from '../../shared/colours.js';
import { ownerSession as owner } from '../../test-support/orders.js';
import { insertDeliveredOrder, insertReturn, insertStockedProduct } from '../../test-support/returns.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

const staff = { ...owner, id: 2, email: 'packer@shop.example', role: 'staff' as const };

const colour = (name: string, fields: Partial<ColourOption> = {}): ColourOption => ({
  name,
  hex: null,
  skuSuffix: null,
  priceMinor: null,
  images: [],
  sizeDetail: null,
  ...fields,
});

const SHIPPING = JSON.stringify({
  name: 'Ayesha K.',
  address: {
    line1: 'House 12, Street 4',
    line2: 'F-7/2',
    city: 'Islamabad',
    state: null,
    postal_code: '44000',
    country: 'PK',
  },
});

/** admin.returns.packingSlip: the paper in an exchange's parcel (contract B). */
describe('an exchange’s packing slip', () => {
  let store: TestStore;
  let n = 700;
  const asOwner = () => store.caller({ admin: owner });
  const asStaff = () => store.caller({ admin: staff });
  const db = () => store.handle.db;

  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => store.cleanup());

  /** A kurta in Rose and Teal (Teal with its SKU suffix) bought 2 × Rose / M, shipped to Islamabad; the
   * order line keeps its title as bought ("Lawn Kurta k_<tag>"). */
  async function exchange(
    tag: string,
    opts: {
      resolution?: 'exchange' | 'refund';
      paymentMethod?: 'card' | 'cash_on_delivery';
      difference?: { minor: number; status: 'none' | 'due' | 'paid' | 'collect_on_delivery' | 'to_refund' };
    } = {},
  ) {
    const product = `k_${tag}`;
    await insertStockedProduct(db(), product, { M: 5, L: 5 });
    await db()
      .updateTable('products')
      .set({
        colour_options: JSON.stringify([colour('Rose'), colour('Teal', { skuSuffix: '-TL' })]),
      })
      .where('id', '=', product)
      .execute();
    const order = `ord_${tag}`;
    const number = n++;
    const [line] = await insertDeliveredOrder(db(), {
      id: order,
      number,
      paymentMethod: opts.paymentMethod,
      lines: [{ productId: product, size: 'M', quantity: 2, unitPriceMinor: 5000, colour: 'Rose' }],
    });
    await db()
      .updateTable('orders')
      .set({ shipping_address: SHIPPING, phone: '+923001234567' })
      .where('id', '=', order)
      .execute();
    const id = `ret_${tag}`;
    const resolution = opts.resolution ?? 'exchange';
    await insertReturn(db(), {
      id,
      orderId: order,
      resolution,
      lines: [{ lineId: line ?? 0, quantity: 2, exchangeSize: 'L', exchangeColour: 'teal' }],
    });
    if (opts.difference)
      await db()
        .updateTable('returns')
        .set({ difference_minor: opts.difference.minor, difference_status: opts.difference.status })
        .where('id', '=', id)
        .execute();
    return { id, order, number, product };
  }

  it('names the replacement, the order’s ship-to and phone, and the tracking once the exchange ships', async () => {
    const { id, order, number, product } = await exchange('walk');
    const slip = await asStaff().admin.returns.packingSlip({ id });
    expect(slip).toEqual({
      returnId: id,
      orderId: order,
      orderNumber: number,
      createdAt: '2026-11-22T09:00:00.000Z',
      shipTo: {
        name: 'Ayesha K.',
        phone: '+923001234567',
        address: {
          name: 'Ayesha K.',
          line1: 'House 12, Street 4',
          line2: 'F-7/2',
          city: 'Islamabad',
          state: null,
          postalCode: '44000',
          country: 'PK',
        },
      },
      // The replacement, not the bought Rose / M; the colour by its name and its SKU with the suffix.
      lines: [
        { title: `Lawn Kurta ${product}`, colour: 'Teal', size: 'L', quantity: 2, sku: `SKU-${product}-TL` },
      ],
      collectOnDeliveryMinor: null,
      currency: 'usd',
      carrier: null,
      trackingNumber: null,
      instructions: `Exchange for order #${number}. Do not ship yet: the returned items have not come back.`,
    });

    await asStaff().admin.returns.approve({ id });
    await asStaff().admin.returns.receive({ id });
    expect((await asStaff().admin.returns.packingSlip({ id })).instructions).toBe(
      `Exchange for order #${number}: pack the replacement below. Nothing to collect on delivery.`,
    );
    await asStaff().admin.returns.closeExchange({ id, carrier: 'TCS', trackingNumber: 'TCS-778' });
    const shipped = await asOwner().admin.returns.packingSlip({ id });
    expect(shipped).toMatchObject({
      carrier: 'TCS',
      trackingNumber: 'TCS-778',
      instructions: `Exchange for order #${number}, shipped. Nothing to collect on delivery.`,
    });
    expect(shipped.lines).toEqual(slip.lines);
  });

  it('says what the courier collects on a cash-on-delivery order, to staff too, and no other money', async () => {
    const { id, number } = await exchange('cod', {
      paymentMethod: 'cash_on_delivery',
      difference: { minor: 50_000, status: 'due' },
    });
    const forStaff = await asStaff().admin.returns.packingSlip({ id });
    const forOwner = await asOwner().admin.returns.packingSlip({ id });
    expect(forStaff).toEqual(forOwner);
    expect(forStaff.collectOnDeliveryMinor).toBe(50_000);
    expect(forStaff.instructions).toBe(
      `Exchange for order #${number}. Do not ship yet: the returned items have not come back.`,
    );
    // The only amount on the slip: no prices on its lines, nothing refunded or paid.
    expect(Object.keys(forStaff).filter((k) => /minor|price|amount|refund|paid/i.test(k))).toEqual([
      'collectOnDeliveryMinor',
    ]);
    expect(Object.keys(forStaff.lines[0] ?? {})).toEqual(['title', 'colour', 'size', 'quantity', 'sku']);

    await asStaff().admin.returns.approve({ id });
    await asStaff().admin.returns.receive({ id });
    expect((await asStaff().admin.returns.packingSlip({ id })).instructions).toBe(
      `Exchange for order #${number}: pack the replacement below. Collect $500.00 in cash on delivery: the price difference of the exchange.`,
    );
    // Shipped: the difference is now the courier's to collect (closeExchange), still on the slip.
    await asStaff().admin.returns.closeExchange({ id, carrier: 'Leopards', trackingNumber: 'LP-1' });
    expect(await asStaff().admin.returns.packingSlip({ id })).toMatchObject({
      collectOnDeliveryMinor: 50_000,
      carrier: 'Leopards',
      trackingNumber: 'LP-1',
    });
    // Collected: nothing left for the courier.
    await asStaff().admin.returns.recordDifferencePaid({ id, paidVia: 'Cash on delivery' });
    expect((await asStaff().admin.returns.packingSlip({ id })).collectOnDeliveryMinor).toBeNull();
  });

  it('collects nothing at the door for a card order’s difference, one already paid, or one the shop owes', async () => {
    for (const [tag, paymentMethod, difference] of [
      ['card_due', 'card', { minor: 50_000, status: 'due' }],
      ['card_paid', 'card', { minor: 50_000, status: 'paid' }],
      ['cod_back', 'cash_on_delivery', { minor: -30_000, status: 'to_refund' }],
      ['cod_none', 'cash_on_delivery', { minor: 0, status: 'none' }],
    ] as const) {
      const { id } = await exchange(tag, { paymentMethod, difference });
      const slip = await asStaff().admin.returns.packingSlip({ id });
      expect(slip.collectOnDeliveryMinor, tag).toBeNull();
    }
  });

  it('names a colour gone from the product by its key, the SKU then without its suffix', async () => {
    const { id, product } = await exchange('gone');
    await db()
      .updateTable('products')
      .set({ colour_options: JSON.stringify([colour('Rose')]) })
      .where('id', '=', product)
      .execute();
    expect((await asStaff().admin.returns.packingSlip({ id })).lines).toEqual([
      { title: `Lawn Kurta ${product}`, colour: 'teal', size: 'L', quantity: 2, sku: `SKU-${product}` },
    ]);
  });

  it('refuses a refund return, an unknown id, a bad id and a visitor', async () => {
    const { id } = await exchange('refund', { resolution: 'refund' });
    await expect(asOwner().admin.returns.packingSlip({ id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('refund'),
    });
    await expect(asStaff().admin.returns.packingSlip({ id: 'ret_nothere' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(asStaff().admin.returns.packingSlip({ id: '  ' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(asStaff().admin.returns.packingSlip({ id: 'x'.repeat(101) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    const walk = await exchange('visitor');
    await expect(store.caller().admin.returns.packingSlip({ id: walk.id })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});
