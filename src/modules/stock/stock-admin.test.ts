import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestStore, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { importCatalog } from '../catalog-versions/catalog-versions.service.js';
import { stockMapOf } from './stock.repository.js';

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

const fields = {
  title: 'Mint Lawn Kurta',
  description: 'Breezy lawn',
  sku: 'MLK-1',
  price: '85.00',
  currency: 'usd',
  sizes: ['S', 'M', 'L'],
  tags: [],
  colors: [],
};

/** Stock per size as the admin keeps it: the form, the products list, the storefront, and the YAML file. */
describe('stock per size in the admin and the catalogue file', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
  });
  afterEach(async () => store.cleanup());
  const caller = () => store.caller({ admin });

  async function create(stock: Record<string, number>) {
    const { id } = await caller().admin.products.newId();
    await caller().admin.products.create({ id, fields: { ...fields, stock } });
    return id;
  }

  it('keeps the form’s counts, untracks what is left out, and refuses a size the product does not have', async () => {
    const id = await create({ S: 2, M: 0 });
    const product = await caller().admin.products.byId({ id });
    expect(product.stock).toEqual({ S: 2, M: 0 });
    const list = await caller().admin.products.list({});
    expect(list.items.find((p) => p.id === id)?.stock).toEqual(
      expect.arrayContaining([
        { colour: null, size: 'S', onHand: 2, reserved: 0 },
        { colour: null, size: 'M', onHand: 0, reserved: 0 },
      ]),
    );
    // The shopper sees M sold out, S and L (untracked) buyable.
    const detail = await store.caller().catalogue.byId({ id });
    expect(detail).toMatchObject({ soldOutSizes: ['M'], soldOut: false });
    await caller().admin.products.update({
      id,
      expectedUpdatedAt: product.updatedAt,
      fields: { ...fields, stock: { L: 5 } },
    });
    expect((await stockMapOf(store.handle.db, id, [])).stock).toEqual({ L: 5 });
    const sold = await caller().admin.products.byId({ id });
    await caller().admin.products.update({
      id,
      expectedUpdatedAt: sold.updatedAt,
      fields: { ...fields, stock: { S: 0, M: 0, L: 0 } },
    });
    expect((await store.caller().catalogue.byId({ id })).soldOut).toBe(true);
    const [card] = (await store.caller().catalogue.search({ q: 'mint' })).items;
    expect(card).toMatchObject({ id, soldOut: true });
    await expect(
      caller().admin.products.create({ id: `${id}x`, fields: { ...fields, sku: 'MLK-2', stock: { XL: 1 } } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      caller().admin.products.create({ id: `${id}y`, fields: { ...fields, sku: 'MLK-3', stock: { S: -1 } } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('exports stock in the YAML file and imports it back the same; a file without stock imports untracked', async () => {
    const tracked = await create({ S: 2, M: 0 });
    const version = await caller().admin.catalog.export({ label: 'With stock', tags: [] });
    const { content } = await caller().admin.catalog.content({ id: version.id });
    expect(content).toMatch(/stock:\n\s+S: 2\n\s+M: 0\n/);

    const empty = await createTestStore();
    try {
      const result = await importCatalog(
        { db: empty.handle.db, storage: empty.storage, clock: { now: () => new Date() } },
        content,
        'add',
      );
      expect(result.invalidCount).toBe(0);
      expect((await stockMapOf(empty.handle.db, tracked, [])).stock).toEqual({ S: 2, M: 0 });
    } finally {
      await empty.cleanup();
    }

    const old = `
products:
  - id: legacy_1
    title: Old Kurta
    description: From the old store
    price: 49.99
    currency: usd
`;
    await importCatalog(
      { db: store.handle.db, storage: store.storage, clock: store.context().clock },
      old,
      'add',
    );
    expect((await stockMapOf(store.handle.db, 'legacy_1', [])).stock).toEqual({});
    expect((await store.caller().catalogue.byId({ id: 'legacy_1' })).soldOutSizes).toEqual([]);
  });

  it('lists the sizes at or under the low-stock threshold, fewest left first, with the threshold from settings', async () => {
    const a = await create({ S: 5, M: 1, L: 0 });
    expect(
      (await caller().admin.products.lowStock()).items.map((i) => [i.productId, i.size, i.left]),
    ).toEqual([
      [a, 'L', 0],
      [a, 'M', 1],
    ]);
    const settings = await caller().admin.settings.get();
    const { shippingOptions, ...rest } = settings;
    await caller().admin.settings.update({
      ...rest,
      shippingOptions: shippingOptions.map((o) => ({ ...o })),
      lowStockThreshold: 5,
    });
    const low = await caller().admin.products.lowStock();
    expect(low.threshold).toBe(5);
    expect(low.items.map((i) => i.size)).toEqual(['L', 'M', 'S']);
  });
});
