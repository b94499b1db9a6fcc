import { TRPCError } from '@trpc/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

describe('catalogue procedures', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
  });
  afterEach(async () => store.cleanup());

  it('lists product cards in featured order (page_order, then id)', async () => {
    await insertProducts(store.handle.db, [
      { id: 'c', page_order: 2 },
      { id: 'a', page_order: 999 },
      { id: 'b', page_order: 2 },
      { id: 'd', page_order: 1 },
    ]);
    const page = await store.caller().catalogue.search({ limit: 10 });
    expect(page.items.map((p) => p.id)).toEqual(['d', 'b', 'c', 'a']);
    expect(page.total).toBe(4);
    expect(page.nextOffset).toBeNull();
  });

  it('orders decimal page orders between whole ones (2, 2.5, 3), in SQL and in the listing', async () => {
    await insertProducts(store.handle.db, [
      { id: 'three', page_order: 3 },
      { id: 'two-and-a-half', page_order: 2.5 },
      { id: 'two', page_order: 2 },
    ]);
    const rows = await store.handle.db
      .selectFrom('products')
      .select(['id', 'page_order'])
      .orderBy('page_order')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'two', page_order: 2 },
      { id: 'two-and-a-half', page_order: 2.5 },
      { id: 'three', page_order: 3 },
    ]);
    const page = await store.caller().catalogue.search({ limit: 10 });
    expect(page.items.map((p) => p.id)).toEqual(['two', 'two-and-a-half', 'three']);
  });

  it('pages through the whole catalogue without duplicates or gaps', async () => {
    const ids = Array.from({ length: 53 }, (_, i) => ({
      id: `p${String(i).padStart(3, '0')}`,
      page_order: i % 5,
    }));
    await insertProducts(store.handle.db, ids);
    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null && pages < 20) {
      const page: { items: { id: string }[]; nextOffset: number | null } = await store
        .caller()
        .catalogue.search({ limit: 10, cursor: offset });
      seen.push(...page.items.map((p) => p.id));
      offset = page.nextOffset;
      pages += 1;
    }
    expect(pages).toBe(6);
    expect(new Set(seen).size).toBe(53);
    expect(seen).toHaveLength(53);
  });

  it('sends a shopper only card fields: first image by display order, never the payment link itself', async () => {
    await insertProducts(store.handle.db, [
      { id: 'p1', stripe_payment_link: 'https://buy.stripe.com/secretish', description: 'x'.repeat(2000) },
    ]);
    await store.handle.db
      .insertInto('media')
      .values([
        {
          id: 'm2',
          product_id: 'p1',
          url: '/media/2.png',
          file_name: '2.png',
          media_type: 'image',
          display_order: 1,
          alt_text: 'Back',
          created_at: '2026-11-22T10:00:00.000Z',
          updated_at: '2026-11-22T10:00:00.000Z',
        },
        {
          id: 'm1',
          product_id: 'p1',
          url: '/media/1.png',
          file_name: '1.png',
          media_type: 'image',
          display_order: 0,
          alt_text: 'Front',
          created_at: '2026-11-22T10:00:00.000Z',
          updated_at: '2026-11-22T10:00:00.000Z',
        },
      ])
      .execute();
    const [card] = (await store.caller().catalogue.search({})).items;
    expect(Object.keys(card ?? {}).sort()).toEqual(
      [
        'currency',
        'description',
        'hasPaymentLink',
        'id',
        'image',
        'manufacturer',
        'priceMinor',
        'sizes',
        'soldOut',
        'title',
      ].sort(),
    );
    expect(card?.image).toEqual({ url: '/media/1.png', alt: 'Front' });
    expect(card?.hasPaymentLink).toBe(true);
    expect(card?.description.length).toBeLessThanOrEqual(280);
    expect(JSON.stringify(card)).not.toContain('buy.stripe.com');
  });

  it('falls back to the legacy images list when a product has no media rows', async () => {
    await insertProducts(store.handle.db, [{ id: 'p1', images: '["https://cdn.example/a.jpg"]' }]);
    const [card] = (await store.caller().catalogue.search({})).items;
    expect(card?.image?.url).toBe('https://cdn.example/a.jpg');
  });

  it('rejects out-of-range limits and offsets', async () => {
    await expect(store.caller().catalogue.search({ limit: 0 })).rejects.toThrow(TRPCError);
    await expect(store.caller().catalogue.search({ limit: 1000 })).rejects.toThrow(TRPCError);
    await expect(store.caller().catalogue.search({ cursor: -1 })).rejects.toThrow(TRPCError);
    await expect(store.caller().catalogue.search({ cursor: 10_001 })).rejects.toThrow(TRPCError);
  });

  it('returns a product with its details, sizes, size details and media in order', async () => {
    await insertProducts(store.handle.db, [
      {
        id: 'p1',
        price_minor: 12450,
        sizes: '["XL","S","M"]',
        size_detail: JSON.stringify({ S: { 'Chest (in)': '36' }, M: { 'Chest (in)': 38 } }),
        colors: '["Mint"]',
        tags: '["lawn","eid"]',
      },
    ]);
    const p = await store.caller().catalogue.byId({ id: 'p1' });
    expect(p.priceMinor).toBe(12450);
    expect(p.currency).toBe('usd');
    expect(p.sizes).toEqual(['XL', 'S', 'M']);
    expect(p.sizeDetail).toEqual({ S: { 'Chest (in)': '36' }, M: { 'Chest (in)': '38' } });
    expect(p.colors).toEqual(['Mint']);
    expect(p.tags).toEqual(['lawn', 'eid']);
  });

  it('answers NOT_FOUND for a missing product and BAD_REQUEST for a bad id', async () => {
    await expect(store.caller().catalogue.byId({ id: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.caller().catalogue.byId({ id: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(store.caller().catalogue.byId({ id: 'x'.repeat(101) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
