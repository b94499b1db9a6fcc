import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localToUtc } from '../shared/zoned-time.js';
import { insertProducts } from '../test-support/fixtures.js';
import { insertSale } from '../test-support/sales.js';
import { schemaOrgProblems } from '../test-support/schema-org.js';
import { buildTestApp, createTestStore, manualClock, type TestStore } from '../test-support/test-store.js';
import { pageHead } from './seo.js';

const ZONE = 'Asia/Karachi';
const local = (time: string) => localToUtc(time, ZONE) ?? '';

/**
 * A sale's priceValidUntil in the product page's JSON-LD is the last day it holds in the shop's time zone
 * (settings), not in UTC: the date the shop's shoppers would name, on the engine under test.
 */
describe('priceValidUntil in the shop’s time zone', () => {
  let store: TestStore;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    const db = store.handle.db;
    const set = await db
      .updateTable('settings')
      .set({ time_zone: ZONE })
      .where('id', '=', 1)
      .executeTakeFirst();
    expect(Number(set.numUpdatedRows)).toBe(1);
    await insertProducts(db, [
      { id: 'kurta', title: 'Lawn Kurta', price_minor: 10_000, sizes: '["M"]' },
      {
        id: 'shirt',
        title: 'Cotton Shirt',
        price_minor: 5_000,
        sizes: '["M"]',
        // Its colour is a plain variant (productRow), so the page is a ProductGroup.
        colors: '["Teal"]',
      },
      { id: 'shawl', title: 'Pashmina Shawl', price_minor: 8_000, sizes: '["M"]' },
    ]);
    const startsAt = '2026-11-01T00:00:00.000Z';
    // 00:30 on 1 December in Karachi: 19:30 UTC on 30 November.
    await insertSale(db, {
      id: 'kurta',
      scope: { products: ['kurta'] },
      startsAt,
      endsAt: local('2026-12-01T00:30'),
    });
    // 02:00 on 2 December in Karachi: 21:00 UTC on 1 December (a colour, so a ProductGroup's variant).
    await insertSale(db, {
      id: 'shirt',
      scope: { products: ['shirt'] },
      startsAt,
      endsAt: local('2026-12-02T02:00'),
    });
    // Karachi's midnight starting 5 December: the sale's last day is 4 December.
    await insertSale(db, {
      id: 'shawl',
      scope: { products: ['shawl'] },
      startsAt,
      endsAt: local('2026-12-05T00:00'),
    });
    app = await buildTestApp(store, { clock: manualClock('2026-11-20T10:00:00.000Z') });
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  const jsonLd = async (id: string) => {
    const head = await pageHead(store.handle.db, 'https://shop.example', `/product/${id}`);
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(head?.tags ?? '')?.[1] ?? '';
    return JSON.parse(json) as {
      offers?: Array<Record<string, unknown>>;
      hasVariant?: Array<{ offers: Record<string, unknown> }>;
    };
  };

  it('gives a sale ending after local midnight the local date, and one ending at it the day before', async () => {
    const kurta = await jsonLd('kurta');
    expect(kurta.offers?.[0]).toMatchObject({ price: '80.00', priceValidUntil: '2026-12-01' });
    expect(schemaOrgProblems(kurta)).toEqual([]);

    const shirt = await jsonLd('shirt');
    expect(shirt.hasVariant?.[0]?.offers).toMatchObject({ price: '40.00', priceValidUntil: '2026-12-02' });
    expect(schemaOrgProblems(shirt)).toEqual([]);

    const shawl = await jsonLd('shawl');
    expect(shawl.offers?.[0]).toMatchObject({ price: '64.00', priceValidUntil: '2026-12-04' });
  });
});
