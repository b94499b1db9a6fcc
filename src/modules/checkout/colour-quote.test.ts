import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ColourOption } from '../../shared/colours.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { setStock } from '../stock/stock.repository.js';

const colour = (name: string, over: Partial<ColourOption> = {}): ColourOption => ({
  name,
  hex: null,
  skuSuffix: null,
  priceMinor: null,
  images: [],
  sizeDetail: null,
  ...over,
});
const photo = (name: string) => `https://img.example.com/${name}.jpg`;

/**
 * The quote of a cart with colours (decision 0036): a line is product + colour + size; the colour's price
 * and photo are the line's; "teal", "Teal" and the slug are one line; the price a shopper saw is compared
 * with the colour's.
 */
describe('quoting colours', () => {
  let store: TestStore;
  const clock = tickingClock();
  beforeEach(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [
      {
        id: 'k1',
        title: 'Lawn Kurta',
        price_minor: 8500,
        colors: '["Teal","Maroon","Sea Green"]',
        colour_options: JSON.stringify([
          colour('Teal', { priceMinor: 9900, images: [photo('teal'), photo('teal-back')] }),
          colour('Maroon', { images: [photo('maroon')] }),
          colour('Sea Green'),
        ]),
      },
    ]);
    await insertProducts(store.handle.db, [{ id: 'plain', title: 'Plain Kurta', price_minor: 4000 }]);
    // The product's first photo is Maroon's; the shared one comes after.
    for (const [i, [id, url]] of [
      ['k1', photo('maroon')],
      ['k1', photo('teal')],
      ['k1', photo('shared')],
      ['k1', photo('teal-back')],
      ['plain', photo('plain')],
    ].entries()) {
      await store.handle.db
        .insertInto('media')
        .values({
          id: `m${i}`,
          product_id: id as string,
          url: url as string,
          file_name: 'a.jpg',
          media_type: 'image',
          display_order: i,
          alt_text: null,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
    }
    await store.handle.db
      .transaction()
      .execute((trx) => setStock(trx, 'k1', { M: 2 }, { Teal: { M: 5 }, Maroon: { M: 0 } }));
  });
  afterEach(async () => store.cleanup());

  const quote = (lines: Parameters<ReturnType<TestStore['caller']>['checkout']['quote']>[0]['lines']) =>
    store.caller({ clock }).checkout.quote({ lines });

  it('prices each colour, shows its photo, and merges spellings of one colour into one line', async () => {
    const q = await quote([
      { productId: 'k1', colour: 'teal', size: 'm', quantity: 2 },
      { productId: 'k1', colour: 'Teal', size: 'M', quantity: 1 },
      { productId: 'k1', colour: ' TEAL ', size: 'M', quantity: 1 },
      { productId: 'k1', colour: 'sea-green', size: 'M', quantity: 1 },
      { productId: 'k1', colour: 'Sea Green', size: 'M', quantity: 1 },
      { productId: 'k1', colour: 'Maroon', size: 'S', quantity: 1 },
      { productId: 'plain', size: 'M', quantity: 1 },
    ]);
    expect(
      q.lines.map((l) => [l.colour, l.size, l.quantity, l.unitPriceMinor, l.image, l.problem, l.left]),
    ).toEqual([
      // Teal's own price and photo; its own count (5).
      ['Teal', 'M', 4, 9900, photo('teal'), null, 5],
      // Sea Green has no price, photo or count of its own: the product's price, the shared photo (not
      // Maroon's, which is the product's first) and all colours' M (2).
      ['Sea Green', 'M', 2, 8500, photo('shared'), null, 2],
      ['Maroon', 'S', 1, 8500, photo('maroon'), null, null],
      [null, 'M', 1, 4000, photo('plain'), null, null],
    ]);
    expect(q.totalMinor).toBe(4 * 9900 + 2 * 8500 + 8500 + 4000);
    expect(q.ok).toBe(true);
  });

  it('compares the price a shopper saw with the colour’s own', async () => {
    const q = await quote([
      { productId: 'k1', colour: 'Teal', size: 'L', quantity: 1, seenUnitPriceMinor: 8500 },
      { productId: 'k1', colour: 'Maroon', size: 'L', quantity: 1, seenUnitPriceMinor: 8500 },
      { productId: 'k1', colour: 'Sea Green', size: 'L', quantity: 1, seenUnitPriceMinor: 9900 },
    ]);
    expect(q.lines.map((l) => [l.colour, l.problem])).toEqual([
      ['Teal', 'price_changed'],
      ['Maroon', null],
      ['Sea Green', 'price_changed'],
    ]);
  });

  it('flags a missing colour, an unknown colour and a colour on a product without colours, and checkout refuses each', async () => {
    const q = await quote([
      { productId: 'k1', size: 'M', quantity: 1 },
      { productId: 'k1', colour: 'Mint', size: 'M', quantity: 1 },
      { productId: 'plain', colour: 'Teal', size: 'M', quantity: 1 },
      { productId: 'k1', colour: 'Maroon', size: 'M', quantity: 1 },
    ]);
    expect(q.lines.map((l) => [l.colour, l.problem])).toEqual([
      [null, 'colour_required'],
      ['Mint', 'colour_unavailable'],
      ['Teal', 'colour_unavailable'],
      ['Maroon', 'sold_out'],
    ]);
    expect(q.ok).toBe(false);
    const shop = store.caller({ clock });
    await expect(
      shop.checkout.createSession({ lines: [{ productId: 'k1', size: 'M', quantity: 1 }] }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Lawn Kurta: Please choose a colour for this product.',
    });
    await expect(
      shop.checkout.createSession({ lines: [{ productId: 'k1', colour: 'Mint', size: 'M', quantity: 1 }] }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Lawn Kurta: This colour is no longer offered. Please pick another colour or remove it.',
    });
    await expect(
      shop.checkout.createSession({
        lines: [{ productId: 'plain', colour: 'Teal', size: 'M', quantity: 1 }],
      }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^Plain Kurta: This colour/),
    });
    expect(await store.handle.db.selectFrom('orders').select('id').execute()).toEqual([]);
  });

  it('an order line keeps the colour’s name, price and photo', async () => {
    await store.caller({ clock }).checkout.createSession({
      lines: [{ productId: 'k1', colour: 'teal', size: 'M', quantity: 2 }],
    });
    const lines = await store.handle.db
      .selectFrom('order_lines')
      .select(['colour', 'size', 'quantity', 'unit_price_minor', 'image_url'])
      .execute();
    expect(lines.map((l) => ({ ...l, unit_price_minor: Number(l.unit_price_minor) }))).toEqual([
      { colour: 'Teal', size: 'M', quantity: 2, unit_price_minor: 9900, image_url: photo('teal') },
    ]);
  });
});
