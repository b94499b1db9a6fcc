import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { insertProducts } from '../test-support/fixtures.js';
import { buildTestApp, createTestStore, SESSION_FACTS, type TestStore } from '../test-support/test-store.js';
import { ResponseCache } from './response-cache.js';

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: '2026-11-22T10:00:00.000Z',
  role: 'owner' as const,
  ...SESSION_FACTS,
};

const get = (procedure: string, input?: unknown) =>
  `/api/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;

type SearchAnswer = {
  result: { data: { items: Array<{ id: string; title: string; imageUrl: string | null }> } };
};

describe('public API response cache', () => {
  let store: TestStore;
  let app: FastifyInstance;
  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'p1', title: 'Emerald Silk Kurta', page_order: 1 },
      { id: 'p2', title: 'Rose Lawn Suit', page_order: 2 },
    ]);
    app = await buildTestApp(store);
  });

  // Changes that leave the revision where it is, and a revision moved by hand, on either engine.
  const freezeProductsRevision = () =>
    sql
      .raw(
        store.engine === 'postgres'
          ? 'DROP TRIGGER products_revision ON products'
          : 'DROP TRIGGER products_revision_update',
      )
      .execute(store.handle.db);
  const renameP1 = () => sql`UPDATE products SET title = 'Changed' WHERE id = 'p1'`.execute(store.handle.db);
  const bumpRevision = () =>
    sql`UPDATE app_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'storefront_revision'`.execute(
      store.handle.db,
    );
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  const titles = async (url = get('catalogue.search', { limit: 24 })) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    return (res.json() as SearchAnswer).result.data.items.map((i) => i.title);
  };

  it('keeps an answer from its second request on, and answers from memory until the storefront revision moves', async () => {
    const lookups = vi.spyOn(ResponseCache.prototype, 'lookup');
    const hits = async () =>
      Promise.all(lookups.mock.results.map(async (r) => (await r.value).hit !== undefined));
    try {
      // Asked once, a new filter's answer is not kept; asked again, it is.
      expect(await titles()).toEqual(['Emerald Silk Kurta', 'Rose Lawn Suit']);
      expect(await titles()).toEqual(['Emerald Silk Kurta', 'Rose Lawn Suit']);
      expect(await titles()).toEqual(['Emerald Silk Kurta', 'Rose Lawn Suit']);
      expect(await hits()).toEqual([false, false, true]);
      // A change that does not move the revision (its trigger dropped) still gets the kept answer; moving
      // the revision by hand makes the next answer fresh, and that one is kept at once (it was asked before).
      await freezeProductsRevision();
      await renameP1();
      expect(await titles()).toEqual(['Emerald Silk Kurta', 'Rose Lawn Suit']);
      await bumpRevision();
      expect(await titles()).toEqual(['Changed', 'Rose Lawn Suit']);
      expect(await titles()).toEqual(['Changed', 'Rose Lawn Suit']);
      expect(await hits()).toEqual([false, false, true, true, false, true]);
    } finally {
      lookups.mockRestore();
    }
  });

  it('sends an ETag, answers 304 to a browser that has it, and compresses for browsers that accept it', async () => {
    const url = get('catalogue.search', { limit: 24 });
    const first = await app.inject({ url });
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await app.inject({ url, headers: { 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The same answer gets the same tag even after the revision moved (a restore may reuse numbers).
    await bumpRevision();
    expect((await app.inject({ url, headers: { 'if-none-match': String(etag) } })).statusCode).toBe(304);

    await insertProducts(
      store.handle.db,
      Array.from({ length: 20 }, (_, i) => ({
        id: `x${i}`,
        title: `Long Lawn Dress ${i}`,
        page_order: 10 + i,
      })),
    );
    const plain = await app.inject({ url });
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();

    // Compressed quickly the first time; asked again, the copy is made smaller, and then kept.
    const again2 = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
    expect(brotliDecompressSync(again2.rawPayload).toString()).toBe(plain.body);
    expect(again2.rawPayload.length).toBeLessThan(br.rawPayload.length);
    const third = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
    expect(third.rawPayload.equals(again2.rawPayload)).toBe(true);
  });

  it('answers a burst of identical requests on a cold cache with one run of the procedure', async () => {
    const stores = vi.spyOn(ResponseCache.prototype, 'set');
    try {
      const url = get('catalogue.search', { limit: 24, q: 'silk' });
      const answers = await Promise.all(Array.from({ length: 30 }, () => app.inject({ url })));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(stores.mock.calls.filter(([key]) => key === url)).toHaveLength(1);
    } finally {
      stores.mockRestore();
    }
  });

  it('builds a page once for a burst of identical page requests, and tracking tags share it', async () => {
    const clientDir = path.join(store.dir, 'client');
    mkdirSync(clientDir, { recursive: true });
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<html><head><title>Store</title></head><body><div id="root"></div></body></html>',
    );
    const pages = await buildTestApp(store, { clientDir });
    const stores = vi.spyOn(ResponseCache.prototype, 'set');
    try {
      const urls = Array.from({ length: 20 }, (_, i) => `/product/p1?utm_source=mail${i}`);
      const answers = await Promise.all(urls.map((url) => pages.inject({ url })));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(answers[0]?.body).toContain('Emerald Silk Kurta');
      expect(stores.mock.calls.filter(([key]) => key === '/product/p1')).toHaveLength(1);
    } finally {
      stores.mockRestore();
      await pages.close();
    }
  });

  it('never caches session answers, random answers, errors or writes', async () => {
    // A batch with a session answer in it is never kept, though its revision stays where it is.
    const stores = vi.spyOn(ResponseCache.prototype, 'set');
    try {
      const batch = `/api/trpc/catalogue.search,auth.me?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { limit: 24 }, 1: null }))}`;
      for (let i = 0; i < 2; i++) {
        const answer = await app.inject({ url: batch });
        expect(answer.statusCode).toBe(200);
        expect((answer.json() as SearchAnswer[])[0]?.result.data.items[0]?.title).toBe('Emerald Silk Kurta');
      }
      expect(stores.mock.calls.filter(([key]) => key === batch)).toHaveLength(0);
      expect(
        stores.mock.calls.filter(([key]) => key === get('catalogue.search', { limit: 24 })),
      ).toHaveLength(0);
    } finally {
      stores.mockRestore();
    }

    const missing = get('catalogue.byId', { id: 'nope' });
    expect((await app.inject({ url: missing })).statusCode).toBe(404);
    await insertProducts(store.handle.db, [{ id: 'nope', title: 'Now Here', page_order: 3 }]);
    expect((await app.inject({ url: missing })).statusCode).toBe(200);
  });

  it('shows every kind of admin write on the storefront at once', async () => {
    const caller = store.caller({ admin });
    const search = get('catalogue.search', { limit: 24 });
    const detail = get('catalogue.byId', { id: 'p1' });
    const settings = get('site.settings');
    const facets = get('catalogue.facets', { manufacturers: [], sizes: [], colors: [], tags: [] });
    const read = async () => {
      const [s, d, st, f] = await Promise.all(
        [search, detail, settings, facets].map((url) => app.inject({ url })),
      );
      return { search: s?.body, detail: d?.body, settings: st?.body, facets: f?.body };
    };
    let before = await read();
    const changes = async (what: keyof Awaited<ReturnType<typeof read>>, write: () => Promise<unknown>) => {
      await write();
      const after = await read();
      expect(after[what], `after ${what} write`).not.toBe(before[what]);
      before = after;
    };

    const created = await caller.admin.products.byId({ id: 'p1' });
    await changes('search', () =>
      caller.admin.products.create({
        fields: {
          title: 'Brand New Shirt',
          description: 'Crisp cotton poplin.',
          manufacturer: 'New Maker',
          manufacturerUrl: '',
          sku: 'NEW-1',
          price: '10.00',
          currency: 'usd',
          pageOrder: 0,
          sizes: ['M'],
          tags: ['new'],
          colors: [],
          sizeDetail: {},
          stripePaymentLink: '',
          productLink: '',
          imageFolder: '',
        },
      }),
    );
    expect(before.facets).toContain('New Maker');
    await changes('detail', () =>
      caller.admin.products.update({
        id: 'p1',
        expectedUpdatedAt: created.updatedAt,
        fields: {
          title: 'Emerald Silk Kurta (restocked)',
          description: created.description,
          manufacturer: created.manufacturer,
          manufacturerUrl: created.manufacturerUrl,
          sku: created.sku,
          price: created.price,
          currency: created.currency,
          pageOrder: created.pageOrder,
          sizes: created.sizes,
          tags: created.tags,
          colors: created.colors,
          sizeDetail: created.sizeDetail,
          stripePaymentLink: created.stripePaymentLink,
          productLink: created.productLink,
          imageFolder: created.imageFolder,
        },
      }),
    );
    await changes('detail', () =>
      caller.admin.media.addUrl({
        productId: 'p1',
        url: 'https://images.example.com/front.jpg',
        fileName: 'front.jpg',
        mediaType: 'image',
      }),
    );
    const [image] = (await caller.admin.media.list({ productId: 'p1' })).items;
    await changes('detail', () =>
      caller.admin.media.update({ id: String(image?.id), altText: 'Front view' }),
    );
    await changes('search', () => caller.admin.media.remove({ id: String(image?.id) }));
    const current = await caller.admin.settings.get();
    await changes('settings', () =>
      caller.admin.settings.update({ ...current, storeName: 'Renamed Store', bannerImageUrl: '' }),
    );
    const version = await caller.admin.catalog.export({ label: 'before delete' });
    await changes('search', () => caller.admin.products.remove({ id: 'p2' }));
    await changes('search', () => caller.admin.catalog.setActive({ id: version.id }));
  });
});
