import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestStore, fixedClock, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { readCatalog } from './catalog-file.js';
import {
  catalogProducts,
  exportCatalog,
  importCatalog,
  setActiveVersion,
} from './catalog-versions.service.js';

/**
 * Colours in the catalogue file (decision 0036): a file in today's format (colours as a plain list) reads as
 * it always did; colours with details, their photos, prices and stock per colour × size go out and come back
 * exactly, into an empty store too; a colour that cannot be is the product's error, not the file's.
 */

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};
const deps = (store: TestStore) => ({ db: store.handle.db, storage: store.storage, clock: fixedClock });

async function exportText(store: TestStore): Promise<string> {
  const version = await exportCatalog(deps(store), { label: 'colours' });
  return (await store.storage.read(`catalogs/${version.fileName}`)).toString('utf8');
}

const stockRows = (store: TestStore, productId: string) =>
  store.handle.db
    .selectFrom('size_stock')
    .select(['colour', 'size', 'on_hand', 'reserved'])
    .where('product_id', '=', productId)
    .orderBy('colour')
    .orderBy('size')
    .execute();

const LEGACY = `
products:
  - id: legacy_kurta
    title: Lawn Kurta
    description: From the old store
    sku: LK-1
    price: 49.99
    currency: usd
    sizes: [S, M]
    colors: [Mint, Ivory]
    stock: { M: 2 }
    media:
      - { url: 'https://img.example.com/a.jpg', fileName: a.jpg, order: 0 }
`;

/** A kurta in three colours: a swatch each, Teal dearer with its own photos, stock per colour × size. */
const VARIANTS = `
metadata:
  format: storefront-catalog/1
products:
  - id: kurta_1
    title: Embroidered Lawn Kurta
    description: Jaal print
    sku: KT-1
    price: 35.00
    currency: usd
    sizes: [S, M, L]
    colors:
      - Mint
      - name: Teal
        hex: '#1B7174'
        skuSuffix: -TL
        price: 39.50
        images: ['/media/uploads/teal-front.webp', teal-back.jpg]
      - { name: Maroon, hex: '6b1a2b', images: ['https://img.example.com/maroon.jpg'] }
    stock: { S: 5 }
    colourStock:
      Teal: { M: 1 }
      maroon: { M: 4, L: 0 }
    media:
      - { url: 'https://img.example.com/mint.jpg', fileName: mint.jpg, order: 0 }
      - url: /media/uploads/teal-front.webp
        fileName: teal-front.webp
        order: 1
        upload: { storageKey: media/uploads/teal-front.webp, contentType: image/webp, byteSize: 10, width: 800, height: 800, variants: [] }
      - { url: 'https://img.example.com/teal-back.jpg', fileName: teal-back.jpg, order: 2 }
      - { url: 'https://img.example.com/maroon.jpg', fileName: maroon.jpg, order: 3 }
`;

describe('colours in the catalogue file', () => {
  let store: TestStore;
  let empty: TestStore | undefined;
  beforeEach(async () => {
    store = await createTestStore();
  });
  afterEach(async () => {
    await store.cleanup();
    await empty?.cleanup();
    empty = undefined;
  });

  it('reads a plain colour list as today: variants sharing the photos, untracked per colour; and writes it back as a plain list', async () => {
    const result = await importCatalog(deps(store), LEGACY, 'add');
    expect(result).toMatchObject({ added: 1, invalidCount: 0, ignoredCount: 0 });
    const product = await store.caller({ admin }).admin.products.byId({ id: 'legacy_kurta' });
    expect(product.colors).toEqual([
      { name: 'Mint', hex: null, skuSuffix: null, price: '', images: [], sizeDetail: null },
      { name: 'Ivory', hex: null, skuSuffix: null, price: '', images: [], sizeDetail: null },
    ]);
    expect(product.stock).toEqual({ M: 2 });
    expect(product.colourStock).toEqual({});
    expect(await stockRows(store, 'legacy_kurta')).toEqual([
      { colour: '', size: 'M', on_hand: 2, reserved: 0 },
    ]);

    // A store without colour details writes today's format: names alone, no colourStock key.
    const text = await exportText(store);
    expect(text).toContain('    colors:\n      - Mint\n      - Ivory\n');
    expect(text).toContain('    stock:\n      M: 2\n');
    expect(text).not.toContain('colourStock');
    expect((await catalogProducts(store.handle.db))[0]?.colors).toEqual(['Mint', 'Ivory']);
  });

  it('reads colour mappings with swatch, SKU suffix, price, photos by URL or file name, and stock per colour × size', async () => {
    const result = await importCatalog(deps(store), VARIANTS, 'add');
    expect(result).toMatchObject({ added: 1, invalidCount: 0, ignoredCount: 0 });
    const product = await store.caller({ admin }).admin.products.byId({ id: 'kurta_1' });
    expect(product.colors).toEqual([
      { name: 'Mint', hex: null, skuSuffix: null, price: '', images: [], sizeDetail: null },
      {
        name: 'Teal',
        hex: '#1b7174',
        skuSuffix: '-TL',
        price: '39.50',
        // The file name teal-back.jpg is the URL of the media item of that name.
        images: ['/media/uploads/teal-front.webp', 'https://img.example.com/teal-back.jpg'],
        sizeDetail: null,
      },
      {
        name: 'Maroon',
        hex: '#6b1a2b',
        skuSuffix: null,
        price: '',
        images: ['https://img.example.com/maroon.jpg'],
        sizeDetail: null,
      },
    ]);
    expect(product.stock).toEqual({ S: 5 });
    // Keyed by the colour's own spelling, whatever spelling the file used (maroon).
    expect(product.colourStock).toEqual({ Teal: { M: 1 }, Maroon: { M: 4, L: 0 } });
    expect(await stockRows(store, 'kurta_1')).toEqual([
      { colour: '', size: 'S', on_hand: 5, reserved: 0 },
      { colour: 'maroon', size: 'L', on_hand: 0, reserved: 0 },
      { colour: 'maroon', size: 'M', on_hand: 4, reserved: 0 },
      { colour: 'teal', size: 'M', on_hand: 1, reserved: 0 },
    ]);
  });

  it('writes colours with details as mappings of only the details they have, and they come back exactly into an empty store', async () => {
    await importCatalog(deps(store), VARIANTS, 'add');
    const text = await exportText(store);
    expect(text).toContain(
      [
        '    colors:',
        '      - Mint',
        '      - name: Teal',
        "        hex: '#1b7174'",
        "        skuSuffix: '-TL'",
      ].join('\n'),
    );
    // A colour's price is a number in the file, like the product's.
    expect(text).toContain('        price: 39.50\n');
    expect(text).toContain(
      '    stock:\n      S: 5\n    colourStock:\n      Teal:\n        M: 1\n      Maroon:\n        M: 4\n        L: 0\n',
    );
    expect(text).not.toMatch(/sizeDetail: null|hex: null|price: ''/);

    empty = await createTestStore();
    const back = await importCatalog(deps(empty), text, 'overwrite');
    expect(back).toMatchObject({ added: 1, invalidCount: 0, ignoredCount: 0 });
    expect(await catalogProducts(empty.handle.db)).toEqual(await catalogProducts(store.handle.db));
    expect(await stockRows(empty, 'kurta_1')).toEqual(await stockRows(store, 'kurta_1'));
    // The uploaded photo kept its URL (its storage key), so Teal still names it.
    const media = await empty.handle.db
      .selectFrom('media')
      .select(['url', 'storage_key'])
      .where('product_id', '=', 'kurta_1')
      .orderBy('display_order')
      .execute();
    expect(media[1]).toEqual({
      url: '/media/uploads/teal-front.webp',
      storage_key: 'media/uploads/teal-front.webp',
    });
    expect((await exportText(empty)).replace(/^ {2}exported_at.*$|^ {2}label.*$/gm, '')).toBe(
      text.replace(/^ {2}exported_at.*$|^ {2}label.*$/gm, ''),
    );
  });

  it('leaves out of the file a colour photo the product no longer has, so the file still imports', async () => {
    await importCatalog(deps(store), VARIANTS, 'add');
    await store.handle.db
      .deleteFrom('media')
      .where('url', '=', 'https://img.example.com/maroon.jpg')
      .execute();
    const [product] = await catalogProducts(store.handle.db);
    expect(product?.colors[2]).toEqual({ name: 'Maroon', hex: '#6b1a2b' });
    empty = await createTestStore();
    expect(await importCatalog(deps(empty), await exportText(store), 'overwrite')).toMatchObject({
      invalidCount: 0,
      added: 1,
    });
  });

  it('reports invalid colour data per product, as the file other errors are, and imports the rest', async () => {
    const base = (id: string, colour: string, extra = '') => `
  - id: ${id}
    title: Kurta ${id}
    description: D
    sku: ${id.toUpperCase()}
    price: 10.00
    currency: usd
    sizes: [S, M]
    colors: [${colour}]
    media: [{ url: 'https://img.example.com/${id}.jpg', fileName: ${id}.jpg }]${extra}`;
    const file = `products:${[
      base('ok', 'Mint'),
      base('badhex', "{ name: Teal, hex: 'teal' }"),
      base('negprice', '{ name: Teal, price: -5 }'),
      base('jpyprice', '{ name: Teal, price: 1.5 }').replace('currency: usd', 'currency: jpy'),
      base('otherphoto', "{ name: Teal, images: ['https://img.example.com/ok.jpg'] }"),
      base('samecolour', "Teal, { name: ' TEAL ', hex: '#000000' }"),
      base('unknowncolour', 'Teal', '\n    colourStock: { Maroon: { M: 1 } }'),
      base('unknownsize', 'Teal', '\n    colourStock: { Teal: { XL: 1 } }'),
      base('negstock', 'Teal', '\n    colourStock: { Teal: { M: -1 } }'),
      base('nonames', '{ hex: "#000000" }'),
    ].join('')}
`;
    const result = await importCatalog(deps(store), file, 'add');
    expect(result.added).toBe(1);
    expect(result.invalid.map((i) => [i.id, i.reason])).toEqual([
      ['badhex', 'colors.0.hex: A swatch is a colour like #1f7a6d'],
      ['negprice', 'colors.0.price: Enter a price of 0 or more, like 49.99'],
      ['jpyprice', 'colors.0.price: JPY prices are whole numbers: no decimals'],
      ['otherphoto', 'colors.0.images: "https://img.example.com/ok.jpg" is none of this product\'s photos'],
      ['samecolour', 'colors.1.name: "TEAL" is the same colour as "Teal"'],
      ['unknowncolour', 'colourStock.Maroon: Stock for Maroon, a colour this product does not have'],
      ['unknownsize', 'colourStock.Teal.XL: Stock for Teal XL, a size this product does not have'],
      ['negstock', 'colourStock.Teal.M: Stock cannot be negative'],
      ['nonames', expect.stringContaining('colors.0')],
    ]);
  });

  it('reports an unknown key of a colour mapping, reads snake_case and American spellings', async () => {
    const file = `products:
  - id: k1
    title: Kurta
    description: D
    sku: K-1
    price: 10.00
    currency: usd
    sizes: [M]
    color: [{ name: Teal, sku_suffix: -T, shade: dark }]
    color_stock: { Teal: { M: 3 } }
`;
    const parsed = readCatalog(file, () => 'x');
    expect(parsed.ignored).toEqual([
      { position: 1, id: 'k1', reason: "Ignored unknown field 'colors.0.shade' on product 1" },
    ]);
    expect(parsed.items[0]?.fields.colors[0]).toMatchObject({ name: 'Teal', skuSuffix: '-T' });
    expect(parsed.items[0]?.fields.colourStock).toEqual({ Teal: { M: 3 } });
  });

  it('keeps a waiting wish for a colour across a publish while the product keeps that colour', async () => {
    await importCatalog(deps(store), VARIANTS, 'add');
    const version = await exportCatalog(deps(store), { label: 'v' });
    await store.handle.db
      .insertInto('stock_alerts')
      .values([
        {
          product_id: 'kurta_1',
          colour: 'teal',
          size: 'M',
          email: 'a@shop.example',
          created_at: '2026-11-22T09:00:00.000Z',
        },
        {
          product_id: 'kurta_1',
          colour: 'maroon',
          size: 'M',
          email: 'a@shop.example',
          created_at: '2026-11-22T09:00:00.000Z',
        },
        {
          product_id: 'kurta_1',
          colour: 'olive',
          size: 'M',
          email: 'b@shop.example',
          created_at: '2026-11-22T09:00:00.000Z',
        },
      ])
      .execute();
    await setActiveVersion(deps(store), version.id);
    const wishes = await store.handle.db
      .selectFrom('stock_alerts')
      .select(['colour', 'size', 'email'])
      .orderBy('colour')
      .execute();
    expect(wishes).toEqual([
      { colour: 'maroon', size: 'M', email: 'a@shop.example' },
      { colour: 'teal', size: 'M', email: 'a@shop.example' },
    ]);
  });
});
