import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestStore, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { catalogProducts, importCatalog } from './catalog-versions.service.js';

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

const productsOf = async (store: TestStore) =>
  (await catalogProducts(store.handle.db)).map((p) => ({ ...p, media: p.media }));

describe('catalogue versions', () => {
  let store: TestStore;
  let caller: ReturnType<TestStore['caller']>;
  beforeEach(async () => {
    store = await createTestStore({ demo: true });
    caller = store.caller({ admin });
  });
  afterEach(async () => store.cleanup());

  it('exports every field and imports it back into an empty store exactly', async () => {
    const before = await productsOf(store);
    expect(before.length).toBeGreaterThan(0);
    const version = await caller.admin.catalog.export({ label: 'Spring', tags: ['a', ' ', 'b'] });
    expect(version).toMatchObject({ label: 'Spring', tags: ['a', 'b'], isActive: false });
    expect(version.fileName).toMatch(/^catalog-export-2026-11-22-\d+\.yaml$/);
    const { content } = await caller.admin.catalog.content({ id: version.id });
    expect(content).toContain('total_products: ');
    // The demo's colour variants go out with their photos and stock per colour × size (and come back below).
    expect(content).toContain('      - name: Teal\n');
    expect(content).toMatch(
      / {4}colourStock:\n {6}Teal:\n(?: {8}\w+: \d+\n)*? {8}M: 1\n[\s\S]*? {6}Maroon:\n/,
    );

    const empty = await createTestStore();
    try {
      const result = await importCatalog(
        { db: empty.handle.db, storage: empty.storage, clock: { now: () => new Date() } },
        content,
        'add',
      );
      expect(result).toMatchObject({ added: before.length, total: before.length, invalidCount: 0 });
      expect(await productsOf(empty)).toEqual(before);
    } finally {
      await empty.cleanup();
    }
  });

  it('reads a plain file (no metadata) with its defaults', async () => {
    const yamlText = `
products:
  - id: legacy_1
    title: Old Kurta
    description: From the old store
    price: 49.99
    currency: usd
    imageFolder: /media/images/product-catalog/legacy
    images: [https://img.example.com/a.jpg]
    stripePaymentLink: https://buy.stripe.com/test
metadata:
  exported_at: '2025-01-01T00:00:00Z'
  total_products: 1
`;
    const result = await importCatalog(
      { db: store.handle.db, storage: store.storage, clock: store.context().clock },
      yamlText,
      'add',
    );
    expect(result.message).toBe('Catalog imported successfully: 1 of 1 products added');
    const p = await caller.admin.products.byId({ id: 'legacy_1' });
    expect(p).toMatchObject({
      priceMinor: 4999,
      sku: 'SKU-legacy_1',
      pageOrder: 999,
      sizes: ['S', 'M', 'L', 'XL'],
      tags: [],
    });
  });

  it('add mode skips existing ids and lists invalid products; overwrite replaces after a backup', async () => {
    const existing = (await productsOf(store))[0];
    if (!existing) throw new Error('demo catalogue is empty');
    const file = `products:
  - { id: ${existing.id}, title: Changed, description: d, price: '1.00', currency: usd }
  - { id: new_1, title: New, description: d, price: '2.50', currency: usd }
  - { id: bad_1, title: Bad, description: d, price: -3, currency: usd }
`;
    const deps = { db: store.handle.db, storage: store.storage, clock: store.context().clock };
    const add = await importCatalog(deps, file, 'add');
    expect(add).toMatchObject({ added: 1, skippedCount: 1, invalidCount: 1 });
    expect(add.invalid[0]).toMatchObject({ position: 3, id: 'bad_1' });
    expect(add.invalid[0]?.reason).toMatch(/price/);
    expect((await caller.admin.products.byId({ id: existing.id })).title).toBe(existing.title);

    await expect(importCatalog(deps, file, 'overwrite')).rejects.toThrow(
      /invalid; overwrite needs every product/,
    );
    const good = file.split('\n').slice(0, 3).join('\n');
    const over = await importCatalog(deps, good, 'overwrite');
    expect(over).toMatchObject({ added: 2 });
    expect((await productsOf(store)).map((p) => p.id).sort()).toEqual([existing.id, 'new_1'].sort());
    const versions = await caller.admin.catalog.versions();
    expect(versions.find((v) => v.id === over.backupVersionId)).toMatchObject({ kind: 'backup' });
  });

  it.each([
    ['anchors and aliases', 'a: &x [1]\nb: *x\nproducts: []'],
    ['an alias bomb', `a: &a ["x","x"]\nb: &b [*a,*a]\nc: &c [*b,*b]\nproducts: [*c]`],
    ['deep nesting', `products: ${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['a __proto__ key', 'products:\n  - { id: p, __proto__: { admin: true } }'],
    ['a merge key', 'products:\n  - { id: p, <<: { title: x } }'],
    ['a custom tag', 'products:\n  - !!js/function "function(){}"'],
    ['a binary tag', 'products:\n  - !!binary aGVsbG8='],
    ['no products array', 'products: {}'],
    ['not a mapping', '- 1\n- 2'],
    ['broken YAML', 'products: [\n'],
  ])('refuses %s with a clear error and changes nothing', async (_name, content) => {
    const before = await productsOf(store);
    const deps = { db: store.handle.db, storage: store.storage, clock: store.context().clock };
    await expect(importCatalog(deps, content, 'overwrite')).rejects.toThrow(
      /anchors|nested|not allowed|Invalid catalog format|not valid YAML|merge/,
    );
    expect(await productsOf(store)).toEqual(before);
    expect(await caller.admin.catalog.versions()).toEqual([]);
  });

  it('refuses wrong types per product and too many products at once', async () => {
    const deps = { db: store.handle.db, storage: store.storage, clock: store.context().clock };
    const wrong = await importCatalog(deps, 'products:\n  - { id: w1, title: [1], price: {a: 1} }', 'add');
    expect(wrong).toMatchObject({ added: 0, invalidCount: 1 });
    const many = `products:\n${'  - {}\n'.repeat(100_000)}`;
    await expect(importCatalog(deps, many, 'add')).rejects.toThrow(/100000 products; at most 50000/);
    await expect(importCatalog(deps, 'x'.repeat(21 * 1024 * 1024), 'add')).rejects.toThrow(
      /larger than 20 MB/,
    );
  });

  it('Set Active backs up first and leaves the catalogue untouched when the replacement fails', async () => {
    const before = await productsOf(store);
    const first = before[0];
    if (!first) throw new Error('demo catalogue is empty');
    const v1 = await caller.admin.catalog.export({ label: 'v1' });
    await store.handle.db
      .updateTable('products')
      .set({ title: 'Edited title' })
      .where('id', '=', first.id)
      .execute();

    // A failure half way through the replacement (after the delete and some inserts).
    if (store.engine === 'postgres') {
      await sql`CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'forced failure'; END $$`.execute(
        store.handle.db,
      );
      await sql`CREATE TRIGGER boom BEFORE INSERT ON media FOR EACH ROW EXECUTE FUNCTION boom()`.execute(
        store.handle.db,
      );
    } else {
      await sql`CREATE TRIGGER boom BEFORE INSERT ON media BEGIN SELECT RAISE(ABORT, 'forced failure'); END`.execute(
        store.handle.db,
      );
    }
    const edited = await productsOf(store);
    await expect(caller.admin.catalog.setActive({ id: v1.id })).rejects.toThrow();
    expect(await productsOf(store)).toEqual(edited);
    expect((await caller.admin.catalog.versions()).some((v) => v.isActive)).toBe(false);

    await sql
      .raw(store.engine === 'postgres' ? 'DROP TRIGGER boom ON media' : 'DROP TRIGGER boom')
      .execute(store.handle.db);
    const result = await caller.admin.catalog.setActive({ id: v1.id });
    expect(result.version.isActive).toBe(true);
    expect(await productsOf(store)).toEqual(before);
    const versions = await caller.admin.catalog.versions();
    expect(versions.filter((v) => v.isActive).map((v) => v.id)).toEqual([v1.id]);
    // The backup holds the edited catalogue.
    const backup = await caller.admin.catalog.content({ id: result.backup.id });
    expect(backup.content).toContain('Edited title');
  });

  it('deletes a version with its file and reports a missing file clearly', async () => {
    const v = await caller.admin.catalog.export({});
    expect(v.label).toMatch(/^Catalog Export 2026-11-22 10:00/);
    await store.storage.remove(`catalogs/${v.fileName}`);
    await expect(caller.admin.catalog.content({ id: v.id })).rejects.toThrow(/missing from storage/);
    await caller.admin.catalog.remove({ id: v.id });
    expect(await caller.admin.catalog.versions()).toEqual([]);
  });

  it('deletes a version only after a fresh confirmation, as publishing one', async () => {
    const v = await caller.admin.catalog.export({});
    const stale = store.caller({ admin: { ...admin, confirmedAt: '2026-11-22T09:45:00.000Z' } });
    await expect(stale.admin.catalog.remove({ id: v.id })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
    });
    expect((await caller.admin.catalog.versions()).map((x) => x.id)).toEqual([v.id]);
    await caller.admin.catalog.remove({ id: v.id }); // confirmed at the clock's now
    expect(await caller.admin.catalog.versions()).toEqual([]);
  });
});
