import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/database.js';
import { databaseSource, rememberDatabaseSource } from '../../../db/database-source.js';
import type { CatalogueFilter } from '../../../shared/storefront-input.js';
import { facetCountsBySql } from '../../../test-support/facet-counts-oracle.js';
import { insertProducts } from '../../../test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore } from '../../../test-support/test-store.js';
import { assembleFacets, facetCounts, searchProducts } from '../catalogue-search.repository.js';
import { loadFacetSnapshot } from './facet-snapshot.js';
import { facetLoadInFlight } from './snapshot-per-database.js';

/**
 * Full facet snapshot loads run in a worker thread (decision 23): the event loop keeps turning during the
 * first facet request, an older snapshot answers while a reload runs, its answers are never kept under the
 * newer revision (in the answer cache or the HTTP response cache), and a failed worker falls back to a load
 * on the main thread.
 */

const NONE: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };
/** Enough products for a load in a worker (over INLINE_LOAD_MAX_PRODUCTS) that takes a while here. */
const PRODUCTS = 3_000;
const MAKERS = ['Noor Mahal', 'Sehar Looms', 'Zarnigar', 'Rang Rasiya', 'Mehr Studio'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const COLOURS = ['Mint', 'Ivory', 'Gold', 'Maroon', 'Navy', 'Teal', 'Rust'];
const WORDS = ['silk', 'lawn', 'velvet', 'chiffon', 'linen'];

async function insertCatalogue(db: Db, count: number): Promise<void> {
  for (let start = 0; start < count; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 500); i++) {
      rows.push({
        id: `w${i}`,
        sku: `W-${i}`,
        title: `${WORDS[i % WORDS.length]} kurta ${i}`,
        manufacturer: MAKERS[i % MAKERS.length],
        sizes: JSON.stringify(SIZES.filter((_, k) => (i + k) % 3 !== 0)),
        colors: JSON.stringify([COLOURS[i % COLOURS.length]]),
        tags: JSON.stringify([`tag-${i % 40}`, `rare-${i % 700}`]),
        price_minor: 1000 + (i % 500) * 10,
      });
    }
    await insertProducts(db, rows);
  }
}

/**
 * A change the held snapshot cannot follow product by product: a new product, and the change log cut so
 * that it no longer reaches back to the snapshot (as after more changes than the log keeps).
 */
async function changeBeyondTheLog(db: Db, product: { id: string; colour: string }): Promise<void> {
  await insertProducts(db, [
    { id: product.id, sku: product.id, title: 'shawl', colors: JSON.stringify([product.colour]) },
  ]);
  await db.deleteFrom('catalogue_changes').execute();
  await db.updateTable('products').set({ price_minor: 777 }).where('id', '=', product.id).execute();
}

/** Runs `work` while a 2 ms timer ticks, with how busy the event loop was meanwhile (0 to 1). */
async function watchingTheLoop<T>(work: () => Promise<T>) {
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
  }, 2);
  const start = performance.eventLoopUtilization();
  try {
    const result = await work();
    return { result, ticks, busy: performance.eventLoopUtilization(start).utilization };
  } finally {
    clearInterval(timer);
  }
}

describe('facet snapshot loads in a worker', () => {
  let store: TestStore;
  let db: Db;
  beforeAll(async () => {
    store = await createTestStore();
    db = store.handle.db;
    await insertCatalogue(db, PRODUCTS);
  }, 120_000);
  afterAll(async () => store.cleanup());

  const sql = async (f: CatalogueFilter) => assembleFacets(await facetCountsBySql(db, f), f);

  it('keeps the event loop turning through the first facet request', async () => {
    // The same load on this thread, as every load ran before: how busy it keeps the event loop.
    const here = await watchingTheLoop(() => loadFacetSnapshot(db, 'here'));
    const first = await watchingTheLoop(() => facetCounts(db, NONE));
    expect(first.result.upToDate).toBe(true);
    expect(first.result.facets).toEqual(await sql(NONE));
    // Busy measures this thread's own work, so a busy machine slows both sides alike.
    expect(first.busy, `event loop busy ${first.busy} with the worker, ${here.busy} without`).toBeLessThan(
      here.busy / 2,
    );
    expect(first.ticks).toBeGreaterThan(10);
  }, 60_000);

  it('answers from the older snapshot while a reload runs in the worker, and never keeps that answer', async () => {
    await facetCounts(db, NONE); // a snapshot is held
    const before = await facetCounts(db, NONE);
    await changeBeyondTheLog(db, { id: 'late-gold', colour: 'Gold Leaf' });

    const during = await facetCounts(db, NONE);
    expect(during.upToDate).toBe(false);
    expect(during.facets).toEqual(before.facets);
    const loading = facetLoadInFlight(db);
    expect(loading).not.toBeNull();
    // More requests meanwhile: the older snapshot answers them too, and no second load starts.
    const others = await Promise.all(COLOURS.map((colour) => facetCounts(db, { ...NONE, colors: [colour] })));
    expect(others.map((a) => a.upToDate)).toEqual(COLOURS.map(() => false));
    expect(facetLoadInFlight(db)).toBe(loading);

    await loading;
    // The same question again: answered from the new snapshot, not from what the older one said.
    const after = await facetCounts(db, NONE);
    expect(after.upToDate).toBe(true);
    expect(after.facets.color).toContainEqual({ value: 'Gold Leaf', count: 1 });
    expect(after.facets).toEqual(await sql(NONE));
  }, 60_000);

  it('keeps an answer from the older snapshot out of the HTTP response cache', async () => {
    const app = await buildTestApp(store);
    try {
      const filter = { colors: ['Rose Dust'] };
      const url = `/api/trpc/catalogue.facets?input=${encodeURIComponent(JSON.stringify(filter))}`;
      const roseDust = async () => {
        const res = await app.inject({ url });
        expect(res.statusCode).toBe(200);
        const body = res.json() as { result: { data: { color: Array<{ value: string; count: number }> } } };
        return body.result.data.color.find((o) => o.value === 'Rose Dust')?.count;
      };
      expect(await roseDust()).toBe(0); // a snapshot is held, and it has no such colour
      await changeBeyondTheLog(db, { id: 'late-rose', colour: 'Rose Dust' });
      expect(await roseDust()).toBe(0); // the older snapshot's answer, at the newer revision
      await facetLoadInFlight(db);
      expect(await roseDust()).toBe(1);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('lists in SQL, with the newest products, while a reload runs in the worker (decision 26)', async () => {
    await facetCounts(db, NONE); // a snapshot is held
    await changeBeyondTheLog(db, { id: 'late-navy', colour: 'Navy Blue' });
    const navy = { ...NONE, colors: ['Navy Blue'] };
    // The held snapshot is older than the catalogue: the listing does not use it, nor wait for the reload.
    const during = await searchProducts(db, navy, { offset: 0, limit: 24 });
    expect(facetLoadInFlight(db)).not.toBeNull();
    expect(during.items.map((c) => c.id)).toEqual(['late-navy']);
    expect(during.total).toBe(1);
    await facetLoadInFlight(db);
    const after = await searchProducts(db, navy, { offset: 0, limit: 24 });
    expect(after.items.map((c) => c.id)).toEqual(['late-navy']);
  }, 60_000);

  it('loads on the main thread when the worker fails, and logs why', async () => {
    await facetCounts(db, NONE); // a snapshot is held
    const source = databaseSource(db);
    if (!source) throw new Error('the test store has no source a worker could open');
    // A worker cannot open this: it fails, whichever engine the test runs on.
    rememberDatabaseSource(db, { engine: 'sqlite', file: path.join(store.dir, 'missing', 'store.db') });
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    try {
      await changeBeyondTheLog(db, { id: 'late-teal', colour: 'Deep Teal' });
      expect((await facetCounts(db, NONE, { log })).upToDate).toBe(false);
      await facetLoadInFlight(db);
      const after = await facetCounts(db, NONE, { log });
      expect(after.upToDate).toBe(true);
      expect(after.facets.color).toContainEqual({ value: 'Deep Teal', count: 1 });
      expect(after.facets).toEqual(await sql(NONE));
      expect(lines.map((l) => JSON.parse(l) as { event?: string; level: number })).toEqual([
        expect.objectContaining({ event: 'facets.worker_failed', level: 40 }),
      ]);
    } finally {
      rememberDatabaseSource(db, source);
    }
  }, 60_000);
});
