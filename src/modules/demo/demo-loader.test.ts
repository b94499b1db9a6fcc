import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoDir } from '../../app-root.js';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, fixedClock, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { soldOutStockOf } from '../stock/stock.repository.js';
import { loadDemoCatalogueIfEmpty } from './demo-loader.js';

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

describe('demo catalogue', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  const load = () =>
    loadDemoCatalogueIfEmpty({ db: store.handle.db, storage: store.storage, demoDir, clock: fixedClock });

  it('fills an empty store with at least 36 products from at least 6 manufacturers, with media files', async () => {
    store = await createTestStore();
    const result = await load();
    expect(result.loaded).toBe(true);
    expect(result.products).toBeGreaterThanOrEqual(36);

    const makers = await store.handle.db.selectFrom('products').select('manufacturer').distinct().execute();
    expect(makers.length).toBeGreaterThanOrEqual(6);

    const media = await store.handle.db.selectFrom('media').select(['url', 'product_id']).execute();
    const withMedia = new Set(media.map((m) => m.product_id));
    expect(withMedia.size).toBe(result.products);
    for (const m of media) expect(existsSync(path.join(store.dir, m.url.replace(/^\//, '')))).toBe(true);

    const settings = await store.caller().site.settings();
    expect(settings.storeName).not.toBe('My Store');
    expect(settings.banner?.active).toBe(true);
    expect(settings.specialOrderUrl).toMatch(/^https:\/\//);
    expect(settings.version?.version).toBe('1.0.0');
    expect(await store.caller().site.randomQuote()).not.toBeNull();
  });

  it('gives the mint jaal kurta real colours: a swatch, photos of its own and stock per size each', async () => {
    store = await createTestStore();
    await load();
    const caller = store.caller({ admin });
    const { id } = await store.handle.db
      .selectFrom('products')
      .select('id')
      .where('title', '=', 'Embroidered Lawn Kurta — Mint Jaal')
      .executeTakeFirstOrThrow();
    const kurta = await caller.admin.products.byId({ id });
    expect(kurta.colors.map((c) => [c.name, c.hex, c.price])).toEqual([
      ['Mint', '#9cd2bb', ''],
      ['Teal', '#1b7174', ''],
      // Maroon has a price of its own, above the product's.
      ['Maroon', '#6b1a2b', expect.stringMatching(/^\d+\.\d{2}$/)],
    ]);
    const maroon = kurta.colors[2];
    expect(Number(maroon?.price)).toBeGreaterThan(Number(kurta.price));

    // Each colour shows its own photos: files of the product's media, stored, none shared between colours.
    const media = await store.handle.db
      .selectFrom('media')
      .select('url')
      .where('product_id', '=', id)
      .execute();
    const urls = new Set(media.map((m) => m.url));
    const all = kurta.colors.flatMap((c) => c.images);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(urls.size);
    for (const c of kurta.colors) {
      expect(c.images.length).toBeGreaterThan(0);
      for (const url of c.images) {
        expect(urls.has(url)).toBe(true);
        expect(existsSync(path.join(store.dir, url.replace(/^\//, '')))).toBe(true);
      }
    }
    expect(kurta.colors[1]?.images[0]).toMatch(/-teal-front\.svg$/);

    // Teal M has exactly one left while Maroon M has several (the last-teal-M journey); no all-colours pool.
    expect(kurta.stock).toEqual({});
    const colourStock = kurta.colourStock ?? {};
    expect(colourStock.Teal?.M).toBe(1);
    expect(colourStock.Maroon?.M).toBeGreaterThanOrEqual(3);
    // Mint, the colour shown first, is made to order: not tracked.
    expect(Object.keys(colourStock).sort()).toEqual(['Maroon', 'Teal']);
    for (const counts of Object.values(colourStock))
      expect(Object.keys(counts).sort()).toEqual([...kurta.sizes].sort());

    // A product without variants keeps the plain colours it had: sharing its photos, untracked per colour.
    const plain = await caller.admin.products.byId({
      id: (
        await store.handle.db
          .selectFrom('products')
          .select('id')
          .where('title', '=', 'Block-Printed Cotton Kurta — Indigo Buti')
          .executeTakeFirstOrThrow()
      ).id,
    });
    expect(plain.colors).toEqual([
      { name: 'Indigo', hex: null, skuSuffix: null, price: '', images: [], sizeDetail: null },
      { name: 'Ivory', hex: null, skuSuffix: null, price: '', images: [], sizeDetail: null },
    ]);
    expect(plain.colourStock).toEqual({});
  });

  it('sells the last teal M of the kurta while maroon M stays available, at maroon its own price', async () => {
    store = await createTestStore();
    await load();
    const { id } = await store.handle.db
      .selectFrom('products')
      .select('id')
      .where('title', '=', 'Embroidered Lawn Kurta — Mint Jaal')
      .executeTakeFirstOrThrow();
    const caller = store.caller();
    const { url } = await caller.checkout.createSession({
      lines: [{ productId: id, colour: 'teal', size: 'M', quantity: 1 }],
    });
    const sessionId = decodeURIComponent(url.split('session_id=')[1] ?? '');
    await caller.checkout.completeTestPayment({ sessionId, ...demoShopper });
    const order = await caller.checkout.order({ sessionId });
    expect(order.status).toBe('paid');

    const soldOut = (await soldOutStockOf(store.handle.db, [id])).get(id);
    expect([...(soldOut?.byColour.get('teal') ?? [])]).toEqual(['M']);
    expect(soldOut?.byColour.get('maroon')?.has('M') ?? false).toBe(false);
    // A card shows a size sold out only when every colour is: M is not.
    expect(soldOut?.sizes.has('M') ?? false).toBe(false);
    await expect(
      caller.checkout.createSession({ lines: [{ productId: id, colour: 'Teal', size: 'M', quantity: 1 }] }),
    ).rejects.toMatchObject({ message: expect.stringContaining('sold out') });
    const maroon = await caller.checkout.createSession({
      lines: [{ productId: id, colour: 'maroon', size: 'M', quantity: 1 }],
    });
    const maroonOrder = await caller.checkout.order({
      sessionId: decodeURIComponent(maroon.url.split('session_id=')[1] ?? ''),
    });
    const product = await store.caller({ admin }).admin.products.byId({ id });
    expect(maroonOrder.subtotalMinor).toBe(Math.round(Number(product.colors[2]?.price) * 100));
    expect(maroonOrder.subtotalMinor).toBeGreaterThan(product.priceMinor);
  });

  it('stores prices as exact integer minor units', async () => {
    store = await createTestStore();
    await load();
    const rows = await store.handle.db.selectFrom('products').select(['price_minor', 'currency']).execute();
    for (const r of rows) {
      expect(Number.isSafeInteger(r.price_minor)).toBe(true);
      expect(r.currency).toBe('usd');
    }
  });

  it('is idempotent, and never loads into a store that has products', async () => {
    store = await createTestStore();
    const first = await load();
    const second = await load();
    expect(second.loaded).toBe(false);
    const count = await store.handle.db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(first.products);
    await store.cleanup();

    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'mine' }]);
    expect((await load()).loaded).toBe(false);
    expect((await store.caller().site.settings()).storeName).toBe('My Store');
  });

  it('does not come back after the operator deletes every product', async () => {
    store = await createTestStore();
    await load();
    await store.handle.db.deleteFrom('products').execute();
    expect((await load()).loaded).toBe(false);
    expect((await store.caller().catalogue.search({})).items).toEqual([]);
  });
});
