import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProductFieldsInput } from '../../shared/product-input.js';
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
  description: 'Breezy lawn with jaal print.',
  manufacturer: 'Zarnigar Atelier',
  manufacturerUrl: 'https://zarnigar.example.com',
  sku: 'ZA-1',
  price: '89.99',
  currency: 'usd',
  pageOrder: 5,
  sizes: [' S', 'M ', 'm', '', 'L'],
  tags: ['lawn', 'Lawn', ' eid '],
  colors: ['Mint'],
  sizeDetail: { S: { 'Chest (in)': '36', 'Length (in)': '' } },
  stripePaymentLink: '',
  productLink: '',
  imageFolder: '/media/images/product-catalog/x',
  ...over,
});

describe('admin products', () => {
  let store: TestStore;
  let caller: ReturnType<TestStore['caller']>;
  beforeEach(async () => {
    store = await createTestStore();
    caller = store.caller({ admin });
  });
  afterEach(async () => store.cleanup());

  it('creates a product with a plink_ id, exact minor-unit price and cleaned chips, and records who did it', async () => {
    const p = await caller.admin.products.create({ fields: fields() });
    expect(p.id).toMatch(/^plink_[a-z0-9]{16}$/);
    expect(p.priceMinor).toBe(8999);
    expect(p.price).toBe('89.99');
    expect(p.sizes).toEqual(['S', 'M', 'L']);
    expect(p.tags).toEqual(['lawn', 'eid']);
    expect(p.sizeDetail).toEqual({ S: { 'Chest (in)': '36' } });
    const history = await caller.admin.products.history({ id: p.id });
    expect(history).toEqual([
      expect.objectContaining({
        action: 'create',
        adminEmail: 'owner@shop.example',
        productTitle: 'Mint Lawn Kurta',
      }),
    ]);
    // The storefront finds it, by search and by its slug.
    expect((await caller.catalogue.search({ q: 'jaal' })).items.map((x) => x.id)).toEqual([p.id]);
    expect(await caller.catalogue.bySlug({ slug: 'mint-lawn-kurta' })).toEqual({ id: p.id });
  });

  it('keeps size details in the order they were written, on either engine', async () => {
    // jsonb would sort these keys shortest first (Waist, Length, Chest (in)…); the size table shows them as typed.
    const written = { M: { 'Length (in)': '28', Waist: '32', 'Chest (in)': '38' }, S: { Waist: '30' } };
    const p = await caller.admin.products.create({ fields: fields({ sizeDetail: written }) });
    const read = await caller.catalogue.byId({ id: p.id });
    expect(Object.keys(read.sizeDetail)).toEqual(['M', 'S']);
    expect(Object.keys(read.sizeDetail.M ?? {})).toEqual(['Length (in)', 'Waist', 'Chest (in)']);
  });

  it('uses the default sizes when none are given', async () => {
    const p = await caller.admin.products.create({ fields: fields({ sizes: [] }) });
    expect(p.sizes).toEqual(['S', 'M', 'L', 'XL']);
  });

  it.each([
    ['an empty title', { title: '  ' }, 'title'],
    ['an empty description', { description: '' }, 'description'],
    ['an empty SKU', { sku: '' }, 'sku'],
    ['a negative price', { price: '-1' }, 'price'],
    ['a price with too many decimals', { price: '1.999' }, 'price'],
    ['a price in yen with decimals', { price: '100.5', currency: 'jpy' }, 'price'],
    ['an unknown currency', { currency: 'xyz' }, 'currency'],
    ['a negative page order', { pageOrder: -1 }, 'pageOrder'],
    ['a page order with 5 decimals', { pageOrder: 2.12345 }, 'pageOrder'],
    ['a page order over a billion', { pageOrder: 1_000_000_001 }, 'pageOrder'],
    ['a javascript: link', { productLink: 'javascript:alert(1)' }, 'productLink'],
    ['an ftp manufacturer URL', { manufacturerUrl: 'ftp://x.example' }, 'manufacturerUrl'],
    ['too many tags', { tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }, 'tags'],
  ])('refuses %s with a message on that field', async (_name, over, field) => {
    const error = await caller.admin.products
      .create({ fields: fields(over as Partial<ProductFieldsInput>) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_REQUEST' });
    const flat =
      (error as { cause?: { issues?: Array<{ path: Array<string | number> }> } }).cause?.issues ?? [];
    expect(flat.some((i) => i.path.includes(field))).toBe(true);
  });

  it('keeps a decimal page order (2.5 goes between 2 and 3) and sorts the list by it', async () => {
    for (const [sku, pageOrder] of [
      ['PO-3', 3],
      ['PO-25', 2.5],
      ['PO-2', 2],
      ['PO-2125', 2.125],
    ] as const) {
      const p = await caller.admin.products.create({ fields: fields({ sku, title: sku, pageOrder }) });
      expect(p.pageOrder).toBe(pageOrder);
    }
    const list = await caller.admin.products.list({ sort: 'page_order', dir: 'asc' });
    expect(list.items.map((p) => [p.sku, p.pageOrder])).toEqual([
      ['PO-2', 2],
      ['PO-2125', 2.125],
      ['PO-25', 2.5],
      ['PO-3', 3],
    ]);
  });

  it('refuses to overwrite an edit someone else saved meanwhile', async () => {
    const p = await caller.admin.products.create({ fields: fields() });
    const first = await store
      .caller({ admin, clock: { now: () => new Date('2026-11-22T11:00:00.000Z') } })
      .admin.products.update({
        id: p.id,
        expectedUpdatedAt: p.updatedAt,
        fields: fields({ price: '95.00' }),
      });
    expect(first.priceMinor).toBe(9500);
    await expect(
      caller.admin.products.update({
        id: p.id,
        expectedUpdatedAt: p.updatedAt,
        fields: fields({ title: 'Stale edit' }),
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await caller.admin.products.byId({ id: p.id })).title).toBe('Mint Lawn Kurta');
    const [latest] = await caller.admin.products.history({ id: p.id });
    expect(latest?.action).toBe('update');
    expect(latest?.changes).toEqual([{ field: 'price', from: '89.99', to: '95.00' }]);
  });

  it('deletes a product with its media rows and keeps its history readable', async () => {
    const p = await caller.admin.products.create({ fields: fields() });
    await store.storage.put('media/uploads/a.webp', Buffer.from('x'));
    await store.handle.db
      .insertInto('media')
      .values({
        id: 'm1',
        product_id: p.id,
        url: '/media/uploads/a.webp',
        file_name: 'a.webp',
        media_type: 'image',
        display_order: 0,
        alt_text: null,
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:00:00.000Z',
        storage_key: 'media/uploads/a.webp',
      })
      .execute();
    await caller.admin.products.remove({ id: p.id });
    expect(await store.handle.db.selectFrom('media').selectAll().execute()).toEqual([]);
    expect(await store.storage.exists('media/uploads/a.webp')).toBe(false);
    await expect(caller.admin.products.byId({ id: p.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const history = await caller.admin.products.history({ id: p.id });
    expect(history.map((h) => h.action)).toEqual(['delete', 'create']);
    expect((await caller.catalogue.search({ q: 'jaal' })).items).toEqual([]);
  });

  it('lists, searches (title, SKU, price, tag; % and _ literally) and sorts on the server', async () => {
    await caller.admin.products.create({
      fields: fields({ title: 'Alpha 100%', sku: 'A-1', price: '10.00', tags: ['summer'] }),
    });
    await caller.admin.products.create({
      fields: fields({ title: 'Beta', sku: 'B_2', price: '124.50', tags: ['winter'] }),
    });
    await caller.admin.products.create({
      fields: fields({ title: 'Gamma', sku: 'C-3', price: '55.00', tags: ['festive'] }),
    });
    const titles = async (input: Parameters<typeof caller.admin.products.list>[0]) =>
      (await caller.admin.products.list(input)).items.map((p) => p.title);
    expect(await titles({ q: 'beta' })).toEqual(['Beta']);
    expect(await titles({ q: 'c-3' })).toEqual(['Gamma']);
    expect(await titles({ q: '124.5' })).toEqual(['Beta']);
    expect(await titles({ q: 'WINTER' })).toEqual(['Beta']);
    expect(await titles({ q: '%' })).toEqual(['Alpha 100%']);
    expect(await titles({ q: '_' })).toEqual(['Beta']);
    expect(await titles({ sort: 'price', dir: 'asc' })).toEqual(['Alpha 100%', 'Gamma', 'Beta']);
    expect(await titles({ sort: 'title', dir: 'desc' })).toEqual(['Gamma', 'Beta', 'Alpha 100%']);
    const page = await caller.admin.products.list({ limit: 2 });
    expect(page.total).toBe(3);
    expect(page.nextCursor).toBe(2);
  });

  it('finds a price as the admin reads it in its currency: yen without decimals, dinar with three', async () => {
    await caller.admin.products.create({
      fields: fields({ title: 'Yukata', sku: 'Y-1', price: '1500', currency: 'jpy' }),
    });
    await caller.admin.products.create({
      fields: fields({ title: 'Dishdasha', sku: 'K-1', price: '12.345', currency: 'kwd' }),
    });
    await caller.admin.products.create({ fields: fields({ title: 'Shirt', sku: 'U-1', price: '15.00' }) });
    const titles = async (q: string) =>
      (await caller.admin.products.list({ q, sort: 'title', dir: 'asc' })).items.map((p) => p.title);
    // Two-decimal formatting would write the yen price as 15.00 and the dinar price as 123.45.
    expect(await titles('1500')).toEqual(['Yukata']);
    expect(await titles('15.00')).toEqual(['Shirt']);
    expect(await titles('12.345')).toEqual(['Dishdasha']);
    expect(await titles('123.45')).toEqual([]);
  });

  it('saves store settings that the storefront then shows', async () => {
    await caller.admin.settings.update({
      storeName: 'Noor Boutique',
      tagline: 'Stitched with care',
      aboutText: 'About us',
      disclaimer: 'We resell.',
      credits: [{ role: 'Owner', name: 'Noor' }],
      specialOrderUrl: 'https://forms.example/special',
      contactUrl: '',
      bannerTitle: 'Eid Edit',
      bannerDescription: '',
      bannerImageUrl: '/media/demo/banner.svg',
      bannerActive: true,
      shippingCountries: ['pk', 'US', 'PK'],
      shippingOptions: [{ label: 'Express', amount: '25.00', currency: 'usd', minDays: 2, maxDays: 4 }],
    });
    const site = await caller.site.settings();
    expect(site).toMatchObject({
      storeName: 'Noor Boutique',
      contactUrl: null,
      banner: { title: 'Eid Edit', active: true, description: null },
    });
    const admin_ = await caller.admin.settings.get();
    expect(admin_.shippingCountries).toEqual(['PK', 'US']);
    expect(admin_.shippingOptions).toEqual([
      { label: 'Express', amount: '25.00', currency: 'usd', minDays: 2, maxDays: 4 },
    ]);
    await expect(
      caller.admin.settings.update({ ...admin_, storeName: '', shippingOptions: [] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      caller.admin.settings.update({
        ...admin_,
        shippingOptions: Array.from(
          { length: 6 },
          () =>
            admin_.shippingOptions[0] ?? {
              label: 'x',
              amount: '1',
              currency: 'usd',
              minDays: null,
              maxDays: null,
            },
        ),
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
