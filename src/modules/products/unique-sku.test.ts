import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProductFieldsInput } from '../../shared/product-input.js';
import { racingDatabase } from '../../test-support/rival-writer.js';
import { createTestStore, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

const fields = (over: Partial<ProductFieldsInput> = {}): ProductFieldsInput => ({
  title: 'Mint Lawn Kurta',
  description: 'Breezy lawn.',
  sku: 'ZA-1',
  price: '89.99',
  currency: 'usd',
  sizes: ['S', 'M'],
  tags: [],
  colors: [],
  ...over,
});

describe('admin products: one product per SKU', () => {
  let store: TestStore;
  let caller: ReturnType<TestStore['caller']>;
  beforeEach(async () => {
    store = await createTestStore();
    caller = store.caller({ admin });
  });
  afterEach(async () => store.cleanup());

  const total = async () => (await caller.admin.products.list({})).total;

  it.each([
    ['the same SKU', 'ZA-1'],
    ['the SKU in other letter case', 'za-1'],
    ['the SKU with spaces around it', '  Za-1 '],
  ])('refuses to create a product with %s, naming the product that has it', async (_name, sku) => {
    await caller.admin.products.create({ id: 'first', fields: fields() });
    await expect(
      caller.admin.products.create({ id: 'second', fields: fields({ title: 'Other', sku }) }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `SKU "${sku.trim()}" is already used by "Mint Lawn Kurta"`,
    });
    expect(await total()).toBe(1);
  });

  it('refuses to give a product the SKU of another, and lets a product keep (or re-case) its own', async () => {
    await caller.admin.products.create({ id: 'first', fields: fields() });
    const other = await caller.admin.products.create({
      id: 'second',
      fields: fields({ title: 'Ivory Sherwani', sku: 'IS-1' }),
    });
    await expect(
      caller.admin.products.update({
        id: other.id,
        expectedUpdatedAt: other.updatedAt,
        fields: fields({ title: 'Ivory Sherwani', sku: 'ZA-1' }),
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'SKU "ZA-1" is already used by "Mint Lawn Kurta"' });
    expect((await caller.admin.products.byId({ id: other.id })).sku).toBe('IS-1');

    const recased = await caller.admin.products.update({
      id: other.id,
      expectedUpdatedAt: other.updatedAt,
      fields: fields({ title: 'Ivory Sherwani', sku: 'is-1', price: '10.00' }),
    });
    expect(recased).toMatchObject({ sku: 'is-1', priceMinor: 1000 });
  });

  it('compares only A-Z without case, as SQLite NOCASE does: É-1 and é-1 are two SKUs', async () => {
    await caller.admin.products.create({ id: 'first', fields: fields({ sku: 'É-1' }) });
    await caller.admin.products.create({ id: 'second', fields: fields({ sku: 'é-1' }) });
    expect(await total()).toBe(2);
  });

  it('answers a SKU taken by a concurrent writer (the unique index) with the same message, not a 500', async () => {
    const first = await racingDatabase(store, { id: 'rival_1', title: 'Rival Kurta', sku: 'RACE-1' });
    await expect(
      store
        .caller({ admin, db: first.db })
        .admin.products.create({ id: 'mine', fields: fields({ sku: 'race-1' }) }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'SKU "race-1" is already used by "Rival Kurta"' });
    await first.disarm();
    expect(await total()).toBe(0);

    const mine = await caller.admin.products.create({ id: 'mine', fields: fields({ sku: 'MINE-1' }) });
    const second = await racingDatabase(store, { id: 'rival_2', title: 'Rival Kurta', sku: 'RACE-1' });
    await expect(
      store.caller({ admin, db: second.db }).admin.products.update({
        id: mine.id,
        expectedUpdatedAt: mine.updatedAt,
        fields: fields({ sku: 'RACE-1' }),
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'SKU "RACE-1" is already used by "Rival Kurta"' });
    await second.disarm();
    expect((await caller.admin.products.byId({ id: mine.id })).sku).toBe('MINE-1');
  });
});
