import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHead } from '../../http/seo.js';
import { cardView } from '../../shared/card-view.js';
import type { ProductCard, ProductDetail } from '../../shared/catalogue.js';
import type { ColourOption } from '../../shared/colours.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { insertSale } from '../../test-support/sales.js';
import { schemaOrgProblems } from '../../test-support/schema-org.js';
import { buildTestApp, createTestStore, manualClock, type TestStore } from '../../test-support/test-store.js';
import { colourCard } from './card-cache.js';

const T = '2026-12-01T00:00:00.000Z';
const END = '2026-12-03T00:00:00.000Z';
const MINUTE = 60_000;

const colour = (name: string, extra: Partial<ColourOption> = {}): ColourOption => ({
  name,
  hex: null,
  skuSuffix: null,
  priceMinor: null,
  images: [],
  sizeDetail: null,
  ...extra,
});

const enc = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/**
 * Sale prices on the storefront (decision 0037), over HTTP with the response caches: cards and product
 * pages show a sale from its start to its end, moved by the clock alone (no write, no restart).
 */
describe('sale prices on cards and product pages', () => {
  let store: TestStore;
  let app: FastifyInstance;
  const clock = manualClock('2026-11-30T23:59:00.000Z');
  beforeAll(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    const db = store.handle.db;
    await insertProducts(db, [
      { id: 'kurta', title: 'Lawn Kurta', price_minor: 10_000, tags: '["Lawn"]', page_order: 1 },
      { id: 'plain', title: 'Silk Scarf', price_minor: 3_000, tags: '["silk"]', page_order: 2 },
      {
        id: 'shirt',
        title: 'Cotton Shirt',
        price_minor: 5_000,
        page_order: 3,
        colors: '["Teal","Maroon"]',
        colour_options: JSON.stringify([colour('Teal'), colour('Maroon')]),
      },
      // Dearer than the kurta's sale price, cheaper than its regular one: the price sorts tell them apart.
      { id: 'shawl', title: 'Pashmina Shawl', price_minor: 9_000, page_order: 4 },
    ]);
    // Scheduled before any request: the write moves the stored revision, the clock the rest.
    await insertSale(db, {
      id: 'eid',
      name: 'Eid',
      percent: 20,
      scope: { tags: ['lawn'] },
      startsAt: T,
      endsAt: END,
    });
    await insertSale(db, {
      id: 'teal',
      percent: 10,
      scope: { products: ['shirt'], colours: ['teal'] },
      startsAt: T,
    });
    app = await buildTestApp(store, { clock });
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  /** The listing's cards by id, asked twice (the second answer is the response cache's). */
  const cards = async (filter: Record<string, unknown> = {}): Promise<Map<string, ProductCard>> => {
    const answers: ProductCard[][] = [];
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({
        url: `/api/trpc/catalogue.search?input=${enc({ limit: 24, ...filter })}`,
      });
      expect(res.statusCode).toBe(200);
      answers.push((res.json() as { result: { data: { items: ProductCard[] } } }).result.data.items);
    }
    expect(answers[1]).toEqual(answers[0]);
    return new Map((answers[0] ?? []).map((c) => [c.id, c]));
  };
  const page = async (id: string): Promise<ProductDetail> => {
    const res = await app.inject({ url: `/api/trpc/catalogue.byId?input=${enc({ id })}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { result: { data: ProductDetail } }).result.data;
  };

  it('shows no sale before its start, the sale price from it, and none after its end, with no write', async () => {
    const before = await cards();
    expect(before.get('kurta')).not.toHaveProperty('salePriceMinor');
    expect((await page('kurta')).sale).toBeNull();

    clock.advance(2 * MINUTE);
    const during = await cards();
    expect(during.get('kurta')).toMatchObject({ priceMinor: 10_000, salePriceMinor: 8_000, salePercent: 20 });
    // Not covered: its card's JSON is as it was.
    expect(during.get('plain')).not.toHaveProperty('salePriceMinor');
    expect((await page('kurta')).sale).toEqual({ salePriceMinor: 8_000, salePercent: 20, endsAt: END });

    clock.advance(3 * 24 * 60 * MINUTE);
    expect((await cards()).get('kurta')).not.toHaveProperty('salePriceMinor');
    expect((await page('kurta')).sale).toBeNull();
    clock.advance(-3 * 24 * 60 * MINUTE);
  });

  it('prices a colour of a sale of chosen colours, and only that colour', async () => {
    const shirt = (await cards()).get('shirt');
    expect(shirt).toBeDefined();
    if (!shirt) return;
    expect(shirt).not.toHaveProperty('salePriceMinor');
    expect(shirt.colours).toEqual([
      expect.objectContaining({ name: 'Teal', salePriceMinor: 4_500, salePercent: 10 }),
      expect.not.objectContaining({ salePriceMinor: expect.anything() }),
    ]);
    expect(cardView(colourCard(shirt, ['teal'])).sale).toEqual({ salePriceMinor: 4_500, salePercent: 10 });
    expect(cardView(colourCard(shirt, ['maroon'])).sale).toBeNull();
    const detail = await page('shirt');
    expect(detail.sale).toBeNull();
    expect(detail.colours.map((c) => c.sale?.salePriceMinor ?? null)).toEqual([4_500, null]);
  });

  it("prices related products' cards as the listing does, from the sale's start", async () => {
    const related = async (id: string): Promise<Map<string, ProductCard>> => {
      const res = await app.inject({ url: `/api/trpc/catalogue.related?input=${enc({ id })}` });
      expect(res.statusCode).toBe(200);
      const items = (res.json() as { result: { data: { items: ProductCard[] } } }).result.data.items;
      return new Map(items.map((c) => [c.id, c]));
    };
    clock.advance(-10 * MINUTE);
    expect((await related('plain')).get('kurta')).not.toHaveProperty('salePriceMinor');
    clock.advance(10 * MINUTE);
    // The other products of three are the related ones: each card as the listing has it.
    const listed = await cards();
    const kurta = (await related('plain')).get('kurta');
    expect(kurta).toMatchObject({ priceMinor: 10_000, salePriceMinor: 8_000, salePercent: 20 });
    expect(kurta).toEqual(listed.get('kurta'));
    expect((await related('kurta')).get('shirt')).toEqual(listed.get('shirt'));
  });

  it('finds what is on sale with the On sale filter, and counts it, from its start only', async () => {
    const facets = async () => {
      const res = await app.inject({ url: `/api/trpc/catalogue.facets?input=${enc({})}` });
      return (res.json() as { result: { data: { onSale: number } } }).result.data.onSale;
    };
    clock.advance(-10 * MINUTE);
    expect([...(await cards({ onSale: true })).keys()]).toEqual([]);
    expect(await facets()).toBe(0);
    clock.advance(10 * MINUTE);
    // The kurta by its tag, the shirt by its teal colour.
    expect([...(await cards({ onSale: true })).keys()].sort()).toEqual(['kurta', 'shirt']);
    expect(await facets()).toBe(2);
    expect([...(await cards({ onSale: true, tags: ['silk'] })).keys()]).toEqual([]);
  });

  it('sorts, bounds and ranges prices by the price charged while the sale runs, in order and out of it', async () => {
    const ids = async (input: Record<string, unknown>) => {
      const res = await app.inject({
        url: `/api/trpc/catalogue.search?input=${enc({ limit: 24, ...input })}`,
      });
      return (res.json() as { result: { data: { items: ProductCard[] } } }).result.data.items.map(
        (c) => c.id,
      );
    };
    const range = async (input: Record<string, unknown>) => {
      const res = await app.inject({ url: `/api/trpc/catalogue.facets?input=${enc(input)}` });
      return (res.json() as { result: { data: { price: unknown } } }).result.data.price;
    };
    clock.advance(-10 * MINUTE);
    expect(await ids({ sort: 'price-desc' })).toEqual(['kurta', 'shawl', 'shirt', 'plain']);
    expect(await ids({ sort: 'price-asc', priceMin: 8_500 })).toEqual(['shawl', 'kurta']);
    expect(await range({ tags: ['lawn'] })).toEqual({ min: 10_000, max: 10_000 });
    clock.advance(10 * MINUTE);
    // The kurta sells at 8,000 from the sale's start: below the shawl, out of a bound from 8,500, inside
    // one up to 8,000, and the range of lawn is its sale price.
    expect(await ids({ sort: 'price-desc' })).toEqual(['shawl', 'kurta', 'shirt', 'plain']);
    expect(await ids({ sort: 'price-asc' })).toEqual(['plain', 'shirt', 'kurta', 'shawl']);
    expect(await ids({ sort: 'price-asc', priceMin: 8_500 })).toEqual(['shawl']);
    expect(await ids({ sort: 'price-asc', priceMin: 8_000, priceMax: 8_000 })).toEqual(['kurta']);
    expect(await range({ tags: ['lawn'] })).toEqual({ min: 8_000, max: 8_000 });
    expect(await range({})).toEqual({ min: 3_000, max: 9_000 });
  });

  it('moves the stored revision on every write to the sales, as a product write does', async () => {
    const stored = async () =>
      (
        await store.handle.db
          .selectFrom('app_meta')
          .select('value')
          .where('key', '=', 'storefront_revision')
          .executeTakeFirstOrThrow()
      ).value;
    const before = await stored();
    await insertSale(store.handle.db, { id: 'later', startsAt: '2027-01-01T00:00:00.000Z' });
    const inserted = await stored();
    expect(inserted).not.toBe(before);
    await store.handle.db
      .updateTable('discounts')
      .set({ ended_at: '2026-12-01T00:00:00.000Z' })
      .where('id', '=', 'later')
      .execute();
    expect(await stored()).not.toBe(inserted);
  });

  it('gives JSON-LD offers the price charged and the last day of the sale', async () => {
    const head = await pageHead(store.handle.db, 'https://shop.example', '/product/kurta');
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(head?.tags ?? '')?.[1] ?? '';
    const doc = JSON.parse(json) as { offers: Array<Record<string, unknown>> };
    expect(doc.offers[0]).toMatchObject({
      price: '80.00',
      priceCurrency: 'USD',
      priceValidUntil: '2026-12-02',
    });
    expect(schemaOrgProblems(doc)).toEqual([]);
    expect(head?.tags).toContain('content="80.00"');
  });
});
