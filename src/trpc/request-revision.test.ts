import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionReader } from '../db/store-revision.js';
import { insertProducts } from '../test-support/fixtures.js';
import { recordQueries } from '../test-support/query-recorder.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

describe("a request's storefront revision", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'p1', title: 'Emerald Silk Kurta', page_order: 1 },
      { id: 'p2', title: 'Rose Lawn Suit', page_order: 2 },
    ]);
  });
  afterAll(() => store.cleanup());

  it("is read for a listing's batch from the process's revision reader, a settle and a read, not through the query builder", async () => {
    const queries: string[] = [];
    let reads = 0;
    const counted: RevisionReader = Object.assign(
      () => {
        reads += 1;
        return store.revision();
      },
      store.revision.settle ? { settle: store.revision.settle } : {},
    );
    const app = await buildTestApp(store, {
      db: store.handle.db.withPlugin(recordQueries(queries)),
      revision: counted,
    });
    try {
      const filter = { q: 'silk', sizes: [], colors: [], manufacturers: [], tags: [] };
      const inputs = { 0: { ...filter, limit: 24 }, 1: filter, 2: { id: 'missing' } };
      const batches = [
        // Answered in-process: read once by the response cache before the procedures run, and given to
        // them; the settle that loads the revision's sales (decision 0037: the revision follows the clock
        // among the sales' instants) answers with its own read. A prepared statement's read.
        { via: 'in-process', procedures: 'catalogue.search,catalogue.facets', status: 200, reads: 1 },
        // A failing call leaves the whole batch to tRPC, whose context settles and reads it once more.
        {
          via: 'tRPC',
          procedures: 'catalogue.search,catalogue.facets,catalogue.byId',
          status: 207,
          reads: 2,
        },
      ];
      for (const { via, procedures, status, reads: expected } of batches) {
        queries.length = 0;
        reads = 0;
        const input = encodeURIComponent(JSON.stringify(inputs));
        const res = await app.inject({ url: `/api/trpc/${procedures}?batch=1&input=${input}` });
        expect(res.statusCode, via).toBe(status);
        const [search] = res.json() as [{ result: { data: { items: Array<{ id: string }> } } }];
        expect(search.result.data.items.map((i) => i.id)).toEqual(['p1']);
        expect(
          queries.filter((q) => q.includes('"app_meta"')),
          via,
        ).toEqual([]);
        expect(reads, via).toBe(expected);
      }
    } finally {
      await app.close();
    }
  });
});
