import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProducts } from '../test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';
import { answerInProcess } from './public-api-cache.js';

const PREFIX = '/api/trpc/';
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

describe('public GETs answered in-process', () => {
  const calls: Array<[string, unknown]> = [];
  const query = async (path: string, input: unknown) => {
    calls.push([path, input]);
    if (path === 'catalogue.byId') throw new Error('not found');
    return path === 'checkout.mode' ? undefined : { path, input };
  };

  it("answers in tRPC's success envelope, one query or a batch, with each procedure's own input", async () => {
    expect((await answerInProcess(`${PREFIX}site.settings`, PREFIX, query))?.toString()).toBe(
      '{"result":{"data":{"path":"site.settings"}}}',
    );
    expect(
      (
        await answerInProcess(`${PREFIX}catalogue.search?input=${enc({ q: 'silk' })}`, PREFIX, query)
      )?.toString(),
    ).toBe('{"result":{"data":{"path":"catalogue.search","input":{"q":"silk"}}}}');
    const batch = `${PREFIX}catalogue.search,catalogue.facets,checkout.mode?batch=1&input=${enc({ 0: { limit: 2 }, 1: { q: 'x' } })}`;
    expect(JSON.parse((await answerInProcess(batch, PREFIX, query))?.toString() ?? 'null')).toEqual([
      { result: { data: { path: 'catalogue.search', input: { limit: 2 } } } },
      { result: { data: { path: 'catalogue.facets', input: { q: 'x' } } } },
      // An undefined answer has no data, as JSON.stringify writes it for tRPC too.
      { result: {} },
    ]);
  });

  it('leaves to tRPC what only tRPC may answer: errors, input that is not JSON, odd batch flags, long batches', async () => {
    calls.length = 0;
    expect(
      await answerInProcess(`${PREFIX}catalogue.search,catalogue.byId?batch=1`, PREFIX, query),
    ).toBeNull();
    expect(await answerInProcess(`${PREFIX}catalogue.search?input=notjson`, PREFIX, query)).toBeNull();
    expect(await answerInProcess(`${PREFIX}site.settings?batch=true`, PREFIX, query)).toBeNull();
    expect(await answerInProcess(`${PREFIX}site.settings,site.settings`, PREFIX, query)).toBeNull();
    const eleven = Array.from({ length: 11 }, () => 'site.settings').join(',');
    expect(await answerInProcess(`${PREFIX}${eleven}?batch=1`, PREFIX, query)).toBeNull();
    // Only the failing batch ran anything.
    expect(calls.map(([path]) => path).sort()).toEqual(['catalogue.byId', 'catalogue.search']);
  });
});

describe('public GETs over HTTP', () => {
  let store: TestStore;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'p1', title: 'Emerald Silk Kurta', page_order: 1, sizes: '["S","M"]' },
      { id: 'p2', title: 'Rose Lawn Suit', page_order: 2 },
    ]);
    app = await buildTestApp(store);
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it("gives what the procedures give, in tRPC's envelope, and tRPC's own errors when one fails", async () => {
    const caller = store.caller({});
    const filter = { q: 'silk', manufacturers: [], sizes: ['M'], colors: [], tags: [] };
    const batch = `/api/trpc/catalogue.search,catalogue.facets?batch=1&input=${enc({ 0: { ...filter, limit: 24 }, 1: filter })}`;
    const answer = await app.inject({ url: batch });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json()).toEqual([
      { result: { data: await caller.catalogue.search({ ...filter, limit: 24 }) } },
      { result: { data: await caller.catalogue.facets(filter) } },
    ]);

    const failing = await app.inject({
      url: `/api/trpc/catalogue.search,catalogue.byId?batch=1&input=${enc({ 0: { limit: 1 }, 1: { id: 'nope' } })}`,
    });
    expect(failing.statusCode).toBe(207);
    const [found, missing] = failing.json() as [{ result: unknown }, { error: { data: { code: string } } }];
    expect(found.result).toBeDefined();
    expect(missing.error.data.code).toBe('NOT_FOUND');
    const invalid = await app.inject({ url: `/api/trpc/catalogue.search?input=${enc({ limit: 1000 })}` });
    expect(invalid.statusCode).toBe(400);
  });
});
