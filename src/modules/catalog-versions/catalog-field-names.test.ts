import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestStore, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { readCatalog } from './catalog-file.js';
import { importCatalog } from './catalog-versions.service.js';

/**
 * A catalogue file may name a product's fields as the original store's table does (snake_case: image_folder,
 * stripe_payment_link, page_order, color...) or as its export format does (camelCase): every name is read,
 * and a key that is no field is named in the import's report, never dropped silently.
 */

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

/** Four products in the spec's table names (§3), one with a key no product has. */
const SPEC_TABLE_FILE = `
products:
  - id: spec_1
    title: Emerald Kurta
    description: Lawn, printed
    manufacturer: Sitara
    manufacturer_url: https://sitara.example.com
    sku: SP-1
    price: 89.99
    currency: usd
    sizes: [S, M]
    size_detail: { S: { Chest (in): '36' } }
    color: [Green]
    tags: [lawn]
    image_folder: /media/images/product-catalog/spec_1/emerald-kurta
    images: [https://img.example.com/1.jpg]
    stripe_payment_link: https://buy.stripe.com/spec1
    product_link: https://shop.example.com/p/spec_1
    page_order: 2.5
    created_at: '2024-03-01T09:30:00Z'
    updated_at: '2024-03-02T10:00:00Z'
  - id: spec_2
    title: Rose Suit
    description: Chiffon
    sku: SP-2
    price: 120
    currency: usd
    image_folder: /media/images/product-catalog/spec_2/rose-suit
    stripe_payment_link: https://buy.stripe.com/spec2
    product_link: https://shop.example.com/p/spec_2
    page_order: 2
  - id: spec_3
    title: Ivory Shawl
    description: Pashmina
    sku: SP-3
    price: 45.5
    currency: usd
    colour_x: red
    imageFolder: /media/images/product-catalog/spec_3/ivory-shawl
    stripePaymentLink: https://buy.stripe.com/spec3
    productLink: https://shop.example.com/p/spec_3
    pageOrder: 3
  - id: spec_4
    title: Jade Dupatta
    description: Silk
    sku: SP-4
    price: '15.00'
    currency: usd
    image_folder: /media/images/product-catalog/spec_4/jade-dupatta
    imageFolder: /media/images/product-catalog/spec_4/jade-dupatta
    stripe_payment_link: https://buy.stripe.com/spec4
`;

describe('catalogue field names', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
  });
  afterEach(async () => store.cleanup());

  const importText = (text: string, mode: 'add' | 'overwrite' = 'add') =>
    importCatalog({ db: store.handle.db, storage: store.storage, clock: store.context().clock }, text, mode);

  it("imports every field of the spec's table names, and names the unknown key it ignored", async () => {
    const result = await importText(SPEC_TABLE_FILE);
    expect(result).toMatchObject({ total: 4, added: 4, invalidCount: 0, ignoredCount: 1 });
    expect(result.ignored).toEqual([
      { position: 3, id: 'spec_3', reason: "Ignored unknown field 'colour_x' on product 3" },
    ]);
    expect(result.message).toBe(
      'Catalog imported successfully: 4 of 4 products added; 1 unknown field ignored',
    );

    const caller = store.caller({ admin });
    const one = await caller.admin.products.byId({ id: 'spec_1' });
    expect(one).toMatchObject({
      manufacturerUrl: 'https://sitara.example.com',
      priceMinor: 8999,
      sizes: ['S', 'M'],
      sizeDetail: { S: { 'Chest (in)': '36' } },
      // The spec's `color` list: a colour sharing the product's photos, no details of its own.
      colors: [{ name: 'Green', hex: null, skuSuffix: null, price: '', images: [], sizeDetail: null }],
      imageFolder: '/media/images/product-catalog/spec_1/emerald-kurta',
      stripePaymentLink: 'https://buy.stripe.com/spec1',
      productLink: 'https://shop.example.com/p/spec_1',
      pageOrder: 2.5,
      createdAt: '2024-03-01T09:30:00.000Z',
      updatedAt: '2024-03-02T10:00:00.000Z',
    });
    for (const [id, slug] of [
      ['spec_2', 'rose-suit'],
      ['spec_3', 'ivory-shawl'],
      ['spec_4', 'jade-dupatta'],
    ] as const) {
      const p = await caller.admin.products.byId({ id });
      expect(p.imageFolder).toBe(`/media/images/product-catalog/${id}/${slug}`);
      expect(p.stripePaymentLink).toBe(`https://buy.stripe.com/${id.replace('_', '')}`);
    }
    expect((await caller.admin.products.byId({ id: 'spec_2' })).productLink).toBe(
      'https://shop.example.com/p/spec_2',
    );
    expect((await caller.admin.products.byId({ id: 'spec_3' })).productLink).toBe(
      'https://shop.example.com/p/spec_3',
    );
  });

  it('refuses a product given one field in both spellings with different values, saying which', async () => {
    const text = `
products:
  - { id: two_1, title: A, description: B, sku: T-1, price: 1, image_folder: /a, imageFolder: /b }
  - { id: two_2, title: A, description: B, sku: T-2, price: 1, page_order: 2, pageOrder: 2.0 }
`;
    const result = await importText(text);
    expect(result).toMatchObject({ added: 1, invalidCount: 1 });
    expect(result.invalid).toEqual([
      {
        position: 1,
        id: 'two_1',
        reason: "'image_folder' and 'imageFolder' are the same field with different values: keep one",
      },
    ]);
    await expect(importText(text, 'overwrite')).rejects.toThrow(/'image_folder' and 'imageFolder'/);
  });
});

describe('catalogue field names (reading)', () => {
  it('reads each camelCase field in snake_case too, and reports unknown keys inside media', () => {
    const camel = readCatalog(
      `products:
  - { id: c1, title: A, description: B, sku: C-1, price: 1, manufacturerUrl: 'https://m.example.com', sizeDetail: { S: { Chest: '1' } }, colors: [Red], pageOrder: 4, stripePaymentLink: 'https://p.example.com', productLink: 'https://l.example.com', imageFolder: /f, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-02T00:00:00Z', sizes: [S], media: [{ url: 'https://i.example.com/a.jpg', fileName: a.jpg, altText: Front, order: 0 }] }`,
      () => 'x',
    );
    const snake = readCatalog(
      `products:
  - { id: c1, title: A, description: B, sku: C-1, price: 1, manufacturer_url: 'https://m.example.com', size_detail: { S: { Chest: '1' } }, color: [Red], page_order: 4, stripe_payment_link: 'https://p.example.com', product_link: 'https://l.example.com', image_folder: /f, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-02T00:00:00Z', sizes: [S], media: [{ url: 'https://i.example.com/a.jpg', file_name: a.jpg, alt_text: Front, order: 0, caption: x }] }`,
      () => 'x',
    );
    expect(camel.invalid).toEqual([]);
    expect(snake.items).toEqual(camel.items);
    expect(snake.ignored).toEqual([
      { position: 1, id: 'c1', reason: "Ignored unknown field 'media.0.caption' on product 1" },
    ]);
    expect(camel.ignored).toEqual([]);
  });
});
