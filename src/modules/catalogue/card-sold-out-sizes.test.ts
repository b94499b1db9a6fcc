import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductCard } from '../../shared/catalogue.js';
import { demoShopper, insertProducts } from '../../test-support/fixtures.js';
import {
  buildTestApp,
  createTestStore,
  SESSION_FACTS,
  type TestStore,
  tickingClock,
} from '../../test-support/test-store.js';

const owner = {
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

const LISTING = `/api/trpc/catalogue.search?input=${encodeURIComponent(JSON.stringify({ limit: 24 }))}`;

/**
 * A listing card's sold-out sizes, over HTTP (response caches included), following the stock as the owner
 * edits it and as a paid order takes the last unit.
 */
describe('sold-out sizes on listing cards', () => {
  let store: TestStore;
  let app: FastifyInstance;
  const clock = tickingClock();
  // One store for both (a PostgreSQL one takes seconds to make): each test makes a product of its own.
  beforeAll(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [{ id: 'plain', title: 'Rose Lawn Suit', sizes: '["S","M"]' }]);
    app = await buildTestApp(store);
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  const admin = () => store.caller({ admin: owner, clock });
  /** The listing's cards by id, asked twice: the second answer is the response cache's. */
  const cards = async (): Promise<Map<string, ProductCard>> => {
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ url: LISTING });
      expect(res.statusCode).toBe(200);
      answers.push((res.json() as { result: { data: { items: ProductCard[] } } }).result.data.items);
    }
    expect(answers[1]).toEqual(answers[0]);
    return new Map((answers[0] ?? []).map((c) => [c.id, c]));
  };
  const setStock = async (id: string, stock: Record<string, number>) => {
    const product = await admin().admin.products.byId({ id });
    await admin().admin.products.update({
      id,
      expectedUpdatedAt: product.updatedAt,
      fields: { ...fields, sku: product.sku, stock },
    });
  };

  it('marks M sold out while it has none, and offers it again once the owner adds some', async () => {
    const { id } = await admin().admin.products.newId();
    await admin().admin.products.create({ id, fields: { ...fields, stock: { S: 2, M: 0 } } });

    const before = await cards();
    expect(before.get(id)).toMatchObject({ soldOutSizes: ['M'], soldOut: false });
    // A card whose every size can be bought carries no list.
    expect(before.get('plain')).not.toHaveProperty('soldOutSizes');
    // The product page says the same.
    expect((await store.caller().catalogue.byId({ id })).soldOutSizes).toEqual(['M']);

    await setStock(id, { S: 2, M: 3 });
    const after = await cards();
    expect(after.get(id)).toMatchObject({ soldOut: false });
    expect(after.get(id)).not.toHaveProperty('soldOutSizes');

    await setStock(id, { S: 0, M: 0, L: 0 });
    expect((await cards()).get(id)).toMatchObject({ soldOutSizes: ['S', 'M', 'L'], soldOut: true });
  });

  it('marks a size sold out once a paid order takes its last unit', async () => {
    const { id } = await admin().admin.products.newId();
    await admin().admin.products.create({ id, fields: { ...fields, sku: 'MLK-2', stock: { S: 1, M: 5 } } });
    expect((await cards()).get(id)).not.toHaveProperty('soldOutSizes');

    const shop = store.caller({ clock });
    const session = await shop.checkout.createSession({ lines: [{ productId: id, size: 'S', quantity: 1 }] });
    const sessionId = decodeURIComponent(session.url.split('session_id=')[1] ?? '');
    await shop.checkout.completeTestPayment({ sessionId, ...demoShopper });
    const onHand = await store.handle.db
      .selectFrom('size_stock')
      .select(['on_hand', 'reserved'])
      .where('product_id', '=', id)
      .where('size', '=', 'S')
      .executeTakeFirstOrThrow();
    expect(onHand).toEqual({ on_hand: 0, reserved: 0 });
    expect((await cards()).get(id)).toMatchObject({ soldOutSizes: ['S'], soldOut: false });
  });
});
