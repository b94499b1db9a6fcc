import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

const NOW = '2026-11-22T10:00:00.000Z';

function photo(id: string, url: string, order: number) {
  return {
    id,
    product_id: 'kurta',
    url,
    file_name: url.split('/').pop() ?? url,
    media_type: 'image' as const,
    display_order: order,
    alt_text: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

describe('a product page’s colours (catalogue.byId)', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
  });
  afterEach(async () => store.cleanup());

  it('gives each colour its photos, price, chart and the sizes sold out in it, falling back to the all-colours count', async () => {
    await insertProducts(store.handle.db, [
      {
        id: 'kurta',
        title: 'Lawn Kurta',
        sku: 'LK-1',
        price_minor: 12000,
        sizes: '["S","M","L"]',
        colors: '["Teal","Maroon","Mint"]',
        colour_options: JSON.stringify([
          {
            name: 'Teal',
            hex: '#1f7a6d',
            skuSuffix: '-TEAL',
            priceMinor: 13500,
            // The second is no photo of this product (a file edited by hand): it is left out.
            images: ['/media/teal-2.jpg', '/media/elsewhere.jpg', '/media/teal-1.jpg'],
            sizeDetail: { S: { 'Chest (in)': '35' } },
          },
          {
            name: 'Maroon',
            hex: null,
            skuSuffix: null,
            priceMinor: null,
            images: ['/media/maroon.jpg'],
            sizeDetail: null,
          },
          { name: 'Mint', hex: null, skuSuffix: null, priceMinor: null, images: [], sizeDetail: null },
        ]),
      },
    ]);
    await store.handle.db
      .insertInto('media')
      .values([
        photo('m1', '/media/all.jpg', 0),
        photo('m2', '/media/teal-1.jpg', 1),
        photo('m3', '/media/teal-2.jpg', 2),
        photo('m4', '/media/maroon.jpg', 3),
      ])
      .execute();
    // All colours: M none left. Teal has its own M (2 left) and S (none left); maroon its own L (none left).
    await store.handle.db
      .insertInto('size_stock')
      .values([
        { product_id: 'kurta', colour: '', size: 'M', on_hand: 0, reserved: 0 },
        { product_id: 'kurta', colour: 'teal', size: 'M', on_hand: 2, reserved: 0 },
        { product_id: 'kurta', colour: 'teal', size: 'S', on_hand: 1, reserved: 1 },
        { product_id: 'kurta', colour: 'maroon', size: 'L', on_hand: 0, reserved: 0 },
      ])
      .execute();

    const p = await store.caller().catalogue.byId({ id: 'kurta' });
    expect(p.colours).toEqual([
      {
        name: 'Teal',
        slug: 'teal',
        hex: '#1f7a6d',
        skuSuffix: '-TEAL',
        priceMinor: 13500,
        sale: null,
        images: ['/media/teal-2.jpg', '/media/teal-1.jpg'],
        sizeDetail: { S: { 'Chest (in)': '35' } },
        soldOutSizes: ['S'],
      },
      {
        name: 'Maroon',
        slug: 'maroon',
        hex: null,
        skuSuffix: null,
        priceMinor: null,
        sale: null,
        images: ['/media/maroon.jpg'],
        sizeDetail: null,
        // M by the all-colours count (maroon has none of its own for M), L by its own.
        soldOutSizes: ['M', 'L'],
      },
      {
        name: 'Mint',
        slug: 'mint',
        hex: null,
        skuSuffix: null,
        priceMinor: null,
        sale: null,
        images: [],
        sizeDetail: null,
        soldOutSizes: ['M'],
      },
    ]);
    // The product's own marks: no size is sold out in every colour (teal M is left, S and L elsewhere).
    expect(p.soldOutSizes).toEqual([]);
    expect(p.soldOut).toBe(false);
    expect(p.priceMinor).toBe(12000);
  });

  it('marks a size sold out on the product when every colour is out of it', async () => {
    await insertProducts(store.handle.db, [{ id: 'kurta', sizes: '["S","M"]', colors: '["Teal","Maroon"]' }]);
    await store.handle.db
      .insertInto('size_stock')
      .values([
        { product_id: 'kurta', colour: '', size: 'M', on_hand: 0, reserved: 0 },
        { product_id: 'kurta', colour: 'teal', size: 'S', on_hand: 0, reserved: 0 },
      ])
      .execute();
    const p = await store.caller().catalogue.byId({ id: 'kurta' });
    expect(p.colours.map((c) => [c.slug, c.soldOutSizes])).toEqual([
      ['teal', ['S', 'M']],
      ['maroon', ['M']],
    ]);
    expect(p.soldOutSizes).toEqual(['M']);
  });

  it('gives a product without colours no colours and its marks as before', async () => {
    await insertProducts(store.handle.db, [{ id: 'plain', sizes: '["S","M"]' }]);
    await store.handle.db
      .insertInto('size_stock')
      .values([{ product_id: 'plain', colour: '', size: 'M', on_hand: 0, reserved: 0 }])
      .execute();
    const p = await store.caller().catalogue.byId({ id: 'plain' });
    expect(p.colours).toEqual([]);
    expect(p.colors).toEqual([]);
    expect(p.soldOutSizes).toEqual(['M']);
  });

  it('takes a back-in-stock wish for one colour’s size, and asks which colour when none is named', async () => {
    await insertProducts(store.handle.db, [{ id: 'kurta', sizes: '["S","M"]', colors: '["Teal","Maroon"]' }]);
    await store.handle.db
      .insertInto('size_stock')
      .values([
        { product_id: 'kurta', colour: 'teal', size: 'M', on_hand: 0, reserved: 0 },
        { product_id: 'kurta', colour: 'maroon', size: 'M', on_hand: 4, reserved: 0 },
      ])
      .execute();
    const wish = (colour: string | undefined) =>
      store.caller().catalogue.notifyWhenBack({
        productId: 'kurta',
        ...(colour === undefined ? {} : { colour }),
        size: 'M',
        email: 'ayesha@example.com',
      });
    await wish('teal');
    await expect(wish('Maroon')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Maroon / M is available now: you can add it to your cart.',
    });
    await expect(wish(undefined)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const waiting = await store.handle.db.selectFrom('stock_alerts').select(['colour', 'size']).execute();
    expect(waiting).toEqual([{ colour: 'teal', size: 'M' }]);
  });
});
