import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ColourOption } from '../../shared/colours.js';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { createStripeClient, StripeGateway } from '../payments/stripe-gateway.js';
import { orderCsvRows } from './orders-csv.js';

const colour = (name: string, more: Partial<ColourOption> = {}): ColourOption => ({
  name,
  hex: null,
  skuSuffix: null,
  priceMinor: null,
  images: [],
  sizeDetail: null,
  ...more,
});

/** A kurta in three colours (teal dearer, with its own photo and its own M stock) and a dupatta without any. */
async function seedCatalogue(store: TestStore) {
  const db = store.handle.db;
  await insertProducts(db, [
    {
      id: 'k1',
      title: 'Lawn Kurta',
      price_minor: 8500,
      sizes: '["S","M","L"]',
      colors: '["Teal","Maroon","Mint"]',
      colour_options: JSON.stringify([
        colour('Teal', { hex: '#1f7a6d', priceMinor: 9000, images: ['/media/kurta-teal.jpg'] }),
        colour('Maroon'),
        colour('Mint'),
      ]),
    },
  ]);
  // Apart: one insert of rows with and without colour_options would give the plain row a null there.
  await insertProducts(db, [{ id: 'd1', title: 'Silk Dupatta', price_minor: 3000, sizes: '["S","M"]' }]);
  // A colour's photo is one of the product's own (decision 0036): Teal's is the kurta's second photo.
  const photo = (n: number, file: string, alt: string) => ({
    id: `k1-m${n}`,
    product_id: 'k1',
    url: `/media/${file}`,
    file_name: file,
    media_type: 'image' as const,
    display_order: n,
    alt_text: alt,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  });
  await db
    .insertInto('media')
    .values([photo(0, 'kurta.jpg', 'Lawn kurta'), photo(1, 'kurta-teal.jpg', 'Lawn kurta in teal')])
    .execute();
  // Teal M counted on its own; every other colour's M draws on the all-colours count.
  await db
    .insertInto('size_stock')
    .values([
      { product_id: 'k1', colour: 'teal', size: 'M', on_hand: 5 },
      { product_id: 'k1', colour: '', size: 'M', on_hand: 3 },
    ])
    .execute();
}

/**
 * Everything after "Add to Cart" names a line's colour and size ("Teal / M"), on the engine under test:
 * the quote, the demo result page's summary, the emails, the shopper's order page, the admin's detail (and
 * the packing slip printed from it), the CSV, refunds and the oversold flag. A line without a colour reads
 * exactly as before.
 */
describe('an order with a colour line and a plain line (demo mode)', () => {
  let store: TestStore;
  let clock = tickingClock();
  beforeEach(async () => {
    clock = tickingClock();
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await seedCatalogue(store);
  });
  afterEach(async () => store.cleanup());

  const shop = () => store.caller({ clock });
  const admin = () => store.caller({ clock, admin: owner }).admin.orders;
  const lines = [
    // The cart keeps what the link or the button gave: a slug and a size in any case.
    { productId: 'k1', colour: 'teal', size: 'm', quantity: 1 },
    { productId: 'd1', size: 'S', quantity: 2 },
  ];

  async function paidOrder() {
    const { url, orderNumber } = await shop().checkout.createSession({ lines });
    const sessionId = decodeURIComponent(url.split('session_id=')[1] ?? '');
    await shop().checkout.completeTestPayment({ sessionId, ...demoShopper });
    const row = await store.handle.db
      .selectFrom('orders')
      .select(['id', 'access_token', 'stock_problem'])
      .where('number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    return { ...row, token: row.access_token ?? '', number: orderNumber, sessionId };
  }

  async function emailsOf(orderId: string) {
    return store.handle.db
      .selectFrom('email_outbox')
      .select(['kind', 'html', 'text_body'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .execute();
  }

  it('quotes the colour in its own spelling, with its photo and price', async () => {
    const quote = await shop().checkout.quote({ lines });
    expect(quote.lines).toMatchObject([
      {
        productId: 'k1',
        colour: 'Teal',
        size: 'M',
        image: '/media/kurta-teal.jpg',
        unitPriceMinor: 9000,
        problem: null,
      },
      { productId: 'd1', colour: null, size: 'S', image: null, unitPriceMinor: 3000, problem: null },
    ]);
  });

  it('names "Teal / M" in the summary, the emails, the order page, the admin detail and the CSV', async () => {
    const order = await paidOrder();

    // The demo result page's summary.
    const summary = await shop().checkout.order({ sessionId: order.sessionId });
    expect(summary?.lines.map((l) => [l.title, l.colour, l.size])).toEqual([
      ['Lawn Kurta', 'Teal', 'M'],
      ['Silk Dupatta', null, 'S'],
    ]);

    const [confirmation] = await emailsOf(order.id);
    expect(confirmation?.kind).toBe('order_confirmation');
    expect(confirmation?.text_body).toContain('- Lawn Kurta (Teal / M): 1 × $90.00 = $90.00');
    // The plain line reads as it always did.
    expect(confirmation?.text_body).toContain('- Silk Dupatta (size S): 2 × $30.00 = $60.00');
    expect(confirmation?.html).toMatch(/<th scope="col" style="[^"]*">Colour \/ size<\/th>/);
    expect(confirmation?.html).toMatch(/<td style="[^"]*">Lawn Kurta<\/td><td style="[^"]*">Teal \/ M<\/td>/);
    expect(confirmation?.html).toMatch(/<td style="[^"]*">Silk Dupatta<\/td><td style="[^"]*">S<\/td>/);

    const page = await shop().orderPage.view({ id: order.id, token: order.token });
    expect(page.lines).toMatchObject([
      { title: 'Lawn Kurta', colour: 'Teal', size: 'M', quantity: 1, image: '/media/kurta-teal.jpg' },
      { title: 'Silk Dupatta', colour: null, size: 'S', quantity: 2 },
    ]);

    // The admin's detail, which the packing slip prints.
    const detail = await admin().byId({ id: order.id });
    expect(detail.lines.map((l) => [l.title, l.colour, l.size, l.quantity])).toEqual([
      ['Lawn Kurta', 'Teal', 'M', 1],
      ['Silk Dupatta', null, 'S', 2],
    ]);

    const csv: string[] = [];
    for await (const row of orderCsvRows(store.handle.db, { from: '2026-01-01', to: '2027-01-01' }))
      csv.push(row.trimEnd());
    // The columns of before keep their places; colour comes last.
    expect(csv[0]).toBe(
      'order_number,order_id,paid_at,status,fulfilment,customer_email,customer_name,ship_to_country,currency,product_id,title,size,quantity,unit_price,line_total,refunded_quantity,order_subtotal,order_total,order_refunded,colour,regular_unit_price,sale,discount_code,line_discount,payment_method,payment_step,returned_quantity,exchange_to,exchange_tracking,exchange_difference',
    );
    // The sales and codes columns after it stay empty on an order without either (line_discount 0.00).
    expect(csv[1]).toMatch(
      /,k1,Lawn Kurta,M,1,90\.00,90\.00,0,150\.00,150\.00,0\.00,Teal,,,,0\.00,card,paid,0,,,$/,
    );
    expect(csv[2]).toMatch(
      /,d1,Silk Dupatta,S,2,30\.00,60\.00,0,150\.00,150\.00,0\.00,,,,,0\.00,card,paid,0,,,$/,
    );
  });

  it('refunds a colour line by name: the refund email and the refusal say "Teal / M"', async () => {
    const order = await paidOrder();
    const detail = await admin().byId({ id: order.id });
    const kurta = detail.lines.find((l) => l.colour === 'Teal');
    const dupatta = detail.lines.find((l) => l.colour === null);
    if (!kurta || !dupatta) throw new Error('lines missing');
    await admin().refund({
      id: order.id,
      lines: [
        { lineId: kurta.id, quantity: 1 },
        { lineId: dupatta.id, quantity: 1 },
      ],
    });
    await expect(
      admin().refund({ id: order.id, lines: [{ lineId: kurta.id, quantity: 1 }] }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Lawn Kurta (Teal / M): fewer are left to refund than that.',
    });
    await expect(
      admin().refund({ id: order.id, lines: [{ lineId: dupatta.id, quantity: 2 }] }),
    ).rejects.toMatchObject({ message: 'Silk Dupatta (S): fewer are left to refund than that.' });
    const refund = (await emailsOf(order.id)).find((e) => e.kind === 'order_refund');
    expect(refund?.text_body).toContain(
      'Refunded items\n- Lawn Kurta (Teal / M) × 1\n- Silk Dupatta (size S) × 1',
    );
    expect(refund?.html).toMatch(/<td style="[^"]*">Lawn Kurta<\/td><td style="[^"]*">Teal \/ M<\/td>/);
  });

  it('flags an oversold colour by its name, also when it drew on the all-colours count', async () => {
    const { url, orderNumber } = await shop().checkout.createSession({
      lines: [
        { productId: 'k1', colour: 'Teal', size: 'M', quantity: 1 },
        { productId: 'k1', colour: 'Mint', size: 'M', quantity: 1 },
        { productId: 'k1', colour: 'Maroon', size: 'M', quantity: 2 },
      ],
    });
    // The count of every colour but teal shrinks under the held checkout (a miscount found on the shelf).
    await store.handle.db
      .updateTable('size_stock')
      .set({ on_hand: 2 })
      .where('product_id', '=', 'k1')
      .where('colour', '=', '')
      .where('size', '=', 'M')
      .execute();
    const sessionId = decodeURIComponent(url.split('session_id=')[1] ?? '');
    await shop().checkout.completeTestPayment({ sessionId, ...demoShopper });
    const order = await store.handle.db
      .selectFrom('orders')
      .select(['stock_problem'])
      .where('number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    expect(order.stock_problem).toBe(
      'Paid for more than was in stock: Lawn Kurta (Maroon / M) × 2. Refund it, or restock.',
    );
  });
});

describe('a colour line on Stripe Checkout', () => {
  let store: TestStore;
  let fake: FakeStripe;
  let stripe: Stripe;
  beforeAll(async () => {
    fake = await new FakeStripe().start();
  });
  afterAll(async () => fake.stop());
  beforeEach(async () => {
    fake.reset();
    fake.requests.length = 0;
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await seedCatalogue(store);
    stripe = createStripeClient({ secretKey: 'sk_test_fakekey123', apiUrl: fake.url, timeoutMs: 800 });
  });
  afterEach(async () => store.cleanup());

  it('is named "Title (Teal / M)" with the colour\'s price and photo in the session the stripe package creates', async () => {
    const payments = new StripeGateway(stripe, 'whsec_testsecret123');
    await store.caller({ payments }).checkout.createSession({
      lines: [
        { productId: 'k1', colour: 'teal', size: 'M', quantity: 2 },
        { productId: 'd1', size: 'S', quantity: 1 },
      ],
    });
    expect(fake.creates).toHaveLength(1);
    expect(fake.creates[0]?.body.line_items).toEqual([
      {
        quantity: '2',
        price_data: {
          currency: 'usd',
          unit_amount: '9000',
          product_data: {
            name: 'Lawn Kurta (Teal / M)',
            images: ['https://shop.example/media/kurta-teal.jpg'],
          },
        },
      },
      {
        quantity: '1',
        price_data: { currency: 'usd', unit_amount: '3000', product_data: { name: 'Silk Dupatta (S)' } },
      },
    ]);
  });
});
