import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertDiscounts } from '../../test-support/discount-fixtures.js';
import {
  insertOfflineShop,
  lahoreShopper,
  offlineSettings,
  twoKurtas,
} from '../../test-support/offline-orders.js';
import { insertOrderRow, ownerSession } from '../../test-support/orders.js';
import { buildTestApp, createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';
import { writePaymentMethods } from '../settings/payment-method-settings.js';

const ORIGIN = 'https://shop.example';

describe('placing cash-on-delivery and bank-transfer orders (decision 0038)', () => {
  let store: TestStore;
  let app: FastifyInstance | null = null;
  const clock = manualClock();
  beforeEach(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: ORIGIN } });
    await insertOfflineShop(store.handle.db);
  });
  afterEach(async () => {
    await app?.close();
    app = null;
    await store.cleanup();
  });

  const shop = () => store.caller({ clock });
  const place = (over: Record<string, unknown> = {}, customer: Record<string, unknown> = {}) =>
    shop().checkout.placeOrder({
      lines: twoKurtas,
      method: 'cash_on_delivery',
      customer: { ...lahoreShopper, ...customer },
      ...over,
    });
  const orderRow = (id: string) =>
    store.handle.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const emailsOf = (id: string) =>
    store.handle.db
      .selectFrom('email_outbox')
      .select(['subject', 'text_body', 'html', 'to_address'])
      .where('order_id', '=', id)
      .execute();
  const held = async () =>
    (
      await store.handle.db
        .selectFrom('size_stock')
        .select(['on_hand', 'reserved'])
        .where('product_id', '=', 'k1')
        .executeTakeFirstOrThrow()
    ).reserved;

  it('offers each enabled method with its fee, total and reason, priced on the server with the code', async () => {
    await insertDiscounts(store.handle.db, [
      { id: 'c1', kind: 'code', name: 'Ten off', code: 'TEN', value: { percent: 10 } },
    ]);
    const { methods } = await shop().checkout.paymentMethods({
      lines: twoKurtas,
      code: 'TEN',
      country: 'pk',
    });
    // Lines 5,000.00 less 10 % = 4,500.00; offline methods add the courier (150.00), cash its fee (200.00).
    expect(methods).toEqual([
      expect.objectContaining({
        id: 'card',
        available: true,
        feeMinor: 0,
        totalMinor: 450000,
        currency: 'pkr',
      }),
      expect.objectContaining({
        id: 'cash_on_delivery',
        available: true,
        reason: null,
        feeMinor: 20000,
        totalMinor: 485000,
      }),
      expect.objectContaining({ id: 'bank_transfer', available: true, feeMinor: 0, totalMinor: 465000 }),
    ]);
    const abroad = await shop().checkout.paymentMethods({ lines: twoKurtas, country: 'GB' });
    expect(abroad.methods.map((m) => [m.id, m.available, m.reason])).toEqual([
      ['card', true, null],
      ['cash_on_delivery', false, 'Cash on delivery is not available for this country.'],
      ['bank_transfer', false, 'Bank transfer is not available for this country.'],
    ]);
    const dollars = await shop().checkout.paymentMethods({
      lines: [{ productId: 'd1', size: 'M', quantity: 1 }],
      country: 'PK',
    });
    expect(dollars.methods[1]).toMatchObject({
      available: false,
      reason: 'Cash on delivery is only for orders in PKR.',
    });
    const five = await shop().checkout.paymentMethods({
      lines: [{ productId: 'k1', size: 'M', quantity: 5 }],
      country: 'PK',
    });
    expect(five.methods[1]?.available).toBe(false);
    expect(five.methods[1]?.reason).toMatch(/^Cash on delivery is for orders up to PKR\s?10,000\.$/);
    // Turned off, a method is not listed at all.
    await writePaymentMethods(
      store.handle.db,
      offlineSettings({ card: { enabled: false, countries: [] } }),
      clock.now(),
    );
    const noCard = await shop().checkout.paymentMethods({ lines: twoKurtas, country: 'PK' });
    expect(noCard.methods.map((m) => m.id)).toEqual(['cash_on_delivery', 'bank_transfer']);
  });

  it('places a cash-on-delivery order: total with shipping and fee, E.164 phone, stock held until the deadline, the link emailed', async () => {
    const placed = await place();
    expect(placed.orderPath).toMatch(new RegExp(`^/order/${placed.orderId}\\?token=[A-Za-z0-9_-]{32}$`));
    const order = await orderRow(placed.orderId);
    expect(order).toMatchObject({
      status: 'pending',
      payment_method: 'cash_on_delivery',
      method_fee_minor: 20000,
      total_minor: 535000,
      subtotal_minor: 500000,
      phone: '+923001234567',
      customer_email: 'ayesha@example.com',
      customer_name: 'Ayesha Khan',
      confirm_by: '2026-11-23T10:00:00.000Z',
      confirmed_at: null,
    });
    expect(await held()).toBe(2);
    const hold = await store.handle.db
      .selectFrom('stock_reservations')
      .select(['expires_at', 'state'])
      .where('order_id', '=', placed.orderId)
      .execute();
    expect(hold).toEqual([{ expires_at: '2026-11-23T10:00:00.000Z', state: 'held' }]);
    const [email] = await emailsOf(placed.orderId);
    expect(email?.to_address).toBe('ayesha@example.com');
    expect(email?.text_body).toMatch(/PKR\s5,350\.00/);
    expect(email?.text_body).toMatch(/cash-on-delivery fee of PKR\s200\.00/);
    const link = email?.text_body.match(
      new RegExp(`${ORIGIN}/order/${placed.orderId}/confirm\\?token=([A-Za-z0-9_-]{43})`),
    );
    expect(link).not.toBeNull();
    // Only the token's SHA-256 is kept.
    expect(order.confirm_token_hash).toBe(
      createHash('sha256')
        .update(link?.[1] ?? '')
        .digest('hex'),
    );
    expect(order.confirm_token_hash).not.toContain(link?.[1] ?? '-');
    expect(email?.text_body).toContain('Monday, 23 November 2026 at 10:00 UTC');

    // The order page is there while it waits for the confirmation.
    const token = decodeURIComponent(placed.orderPath.split('token=')[1] ?? '');
    const view = await shop().orderPage.view({ id: placed.orderId, token });
    expect(view).toMatchObject({
      number: placed.number,
      status: 'pending',
      paymentMethod: 'cash_on_delivery',
      step: 'awaiting_confirmation',
      stepLabel: 'Awaiting confirmation',
      methodFeeMinor: 20000,
      confirmBy: '2026-11-23T10:00:00.000Z',
      bankDetails: null,
      paymentReference: null,
      totalMinor: 535000,
      adjustmentsMinor: 35000,
      shippingAddress: expect.objectContaining({ city: 'Lahore', postalCode: '54000' }),
    });
  });

  it('places a bank-transfer order with a code: account details and the reference on the page and in the email', async () => {
    await insertDiscounts(store.handle.db, [
      { id: 'c1', kind: 'code', name: 'Ten off', code: 'TEN', value: { percent: 10 } },
    ]);
    const placed = await place(
      { method: 'bank_transfer', code: 'TEN' },
      { phone: '+92 321 7654321', address: { line1: 'House 4, Street 9', city: 'Karachi', country: 'PK' } },
    );
    const order = await orderRow(placed.orderId);
    expect(order).toMatchObject({
      payment_method: 'bank_transfer',
      method_fee_minor: 0,
      discount_minor: 50000,
      total_minor: 465000,
      phone: '+923217654321',
      confirm_by: null,
      confirm_token_hash: null,
    });
    const use = await store.handle.db
      .selectFrom('discount_redemptions')
      .select('status')
      .where('order_id', '=', placed.orderId)
      .executeTakeFirstOrThrow();
    expect(use.status).toBe('held');
    const [hold] = await store.handle.db
      .selectFrom('stock_reservations')
      .select('expires_at')
      .where('order_id', '=', placed.orderId)
      .execute();
    expect(hold?.expires_at).toBe('2026-11-25T10:00:00.000Z');
    const [email] = await emailsOf(placed.orderId);
    expect(email?.text_body).toContain('Meezan Bank · Noor Textiles · PK36MEZN0000001234567890');
    expect(email?.text_body).toContain(`Quote this reference with your transfer: Order ${placed.number}`);
    expect(email?.text_body).toMatch(/PKR\s4,650\.00/);
    expect(email?.text_body).toContain('Wednesday, 25 November 2026 at 10:00 UTC');
    const token = decodeURIComponent(placed.orderPath.split('token=')[1] ?? '');
    expect(await shop().orderPage.view({ id: placed.orderId, token })).toMatchObject({
      paymentMethod: 'bank_transfer',
      step: 'awaiting_transfer',
      bankDetails: 'Meezan Bank · Noor Textiles · PK36MEZN0000001234567890',
      paymentReference: `Order ${placed.number}`,
      confirmBy: null,
      shippingAddress: expect.objectContaining({ city: 'Karachi', postalCode: '' }),
    });
  });

  it('refuses a phone number that is not valid for the shipping country, as a field error, over HTTP', async () => {
    app = await buildTestApp(store, { clock });
    const res = await app.inject({
      method: 'POST',
      url: '/api/trpc/checkout.placeOrder',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      payload: JSON.stringify({
        lines: twoKurtas,
        method: 'cash_on_delivery',
        customer: { ...lahoreShopper, phone: '+44 20 7946 0958' },
      }),
    });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { error: { data: { zodError: { paths: Record<string, string> } } } };
    expect(body.error.data.zodError.paths).toEqual({
      'customer.phone': 'Enter a valid phone number for Pakistan',
    });
    const ok = await app.inject({
      method: 'POST',
      url: '/api/trpc/checkout.placeOrder',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      payload: JSON.stringify({ lines: twoKurtas, method: 'cash_on_delivery', customer: lahoreShopper }),
    });
    expect(ok.statusCode).toBe(200);
    expect(await store.handle.db.selectFrom('orders').select('id').execute()).toHaveLength(1);
  });

  it('refuses on the server what was not offered: another country, another currency, above the maximum', async () => {
    await expect(
      place(
        {},
        { phone: '+44 20 7946 0958', address: { ...lahoreShopper.address, city: 'London', country: 'GB' } },
      ),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Cash on delivery is not available for this country.',
    });
    await expect(place({ lines: [{ productId: 'd1', size: 'M', quantity: 1 }] })).rejects.toMatchObject({
      message: 'Cash on delivery is only for orders in PKR.',
    });
    await expect(place({ lines: [{ productId: 'k1', size: 'M', quantity: 4 }] })).rejects.toMatchObject({
      message: expect.stringMatching(/^Cash on delivery is for orders up to PKR\s?10,000\.$/),
    });
    expect(await store.handle.db.selectFrom('orders').select('id').execute()).toEqual([]);
    expect(await held()).toBe(0);
  });

  it('limits unconfirmed cash-on-delivery orders per phone, per email and per address', async () => {
    const one = { lines: [{ productId: 'k1', size: 'M', quantity: 1 }] };
    await place(one);
    await place(one);
    await expect(
      place(one, {
        email: 'other@example.com',
        address: { line1: '1 Mall Road', city: 'Lahore', country: 'PK' },
      }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^This phone number has too many unconfirmed orders\./),
    });
    await expect(
      place(one, { phone: '0333 1111111', address: { line1: '1 Mall Road', city: 'Lahore', country: 'PK' } }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^This email address has too many unconfirmed orders\./),
    });
    // The same address however it is spelt.
    await expect(
      place(one, {
        phone: '0333 1111111',
        email: 'b@example.com',
        address: { line1: '12, canal  ROAD', city: 'LAHORE', country: 'PK' },
      }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^This address has too many unconfirmed orders\./),
    });
    // A bank transfer is not counted, and is not limited.
    await place({ method: 'bank_transfer', lines: [{ productId: 'k1', size: 'M', quantity: 1 }] });
    expect(await held()).toBe(3);
  });

  it('refuses a phone whose last parcels came back, until the owner lifts it (audited)', async () => {
    for (const [i, number] of [1001, 1002].entries()) {
      await insertOrderRow(store.handle.db, {
        id: `ord_rto_${i}`,
        number,
        created_at: `2026-11-0${i + 1}T10:00:00.000Z`,
        status: 'payment_failed',
        payment_method: 'cash_on_delivery',
        currency: 'pkr',
        phone: '+923001234567',
        returned_at: `2026-11-1${i}T10:00:00.000Z`,
      });
    }
    await expect(place()).rejects.toMatchObject({
      message: expect.stringMatching(
        /^Cash on delivery is not available for this phone number because its recent parcels were returned\./,
      ),
    });
    // Another way to pay is still open to it.
    await place({ method: 'bank_transfer' });
    const owner = store.caller({ clock, admin: ownerSession });
    expect(await owner.admin.orders.liftPhoneRefusal({ phone: '+92 300 1234567' })).toEqual({
      ok: true,
      phone: '+923001234567',
    });
    const audit = await store.handle.db
      .selectFrom('admin_audit')
      .select(['action', 'admin_email'])
      .where('action', '=', 'admin.orders.liftPhoneRefusal')
      .execute();
    expect(audit).toEqual([{ action: 'admin.orders.liftPhoneRefusal', admin_email: 'owner@shop.example' }]);
    const placed = await place();
    expect((await orderRow(placed.orderId)).status).toBe('pending');
    // Staff may not lift it.
    await expect(
      store
        .caller({ clock, admin: { ...ownerSession, id: 2, role: 'staff' } })
        .admin.orders.liftPhoneRefusal({ phone: '+923001234567' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('lets the owner read and change the payment methods (audited), staff only read them', async () => {
    const owner = store.caller({ clock, admin: ownerSession });
    expect((await owner.admin.settings.paymentMethods()).cashOnDelivery.feeMinor).toBe(20000);
    const form = offlineSettings();
    const { feeMinor: _f, maxOrderMinor: _m, ...cod } = form.cashOnDelivery;
    await owner.admin.settings.updatePaymentMethods({
      ...form,
      cashOnDelivery: { ...cod, fee: '2.00', maxOrder: '' },
    });
    expect((await owner.admin.settings.paymentMethods()).cashOnDelivery).toMatchObject({
      feeMinor: 200,
      maxOrderMinor: null,
    });
    const staff = store.caller({ clock, admin: { ...ownerSession, id: 2, role: 'staff' } });
    expect((await staff.admin.settings.paymentMethods()).cashOnDelivery.feeMinor).toBe(200);
    await expect(
      staff.admin.settings.updatePaymentMethods({
        ...form,
        cashOnDelivery: { ...cod, fee: '0', maxOrder: '' },
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const audit = await store.handle.db
      .selectFrom('admin_audit')
      .select('action')
      .where('action', '=', 'admin.settings.updatePaymentMethods')
      .execute();
    expect(audit).toHaveLength(1);
  });
});
