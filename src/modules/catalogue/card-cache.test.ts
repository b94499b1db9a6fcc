import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueFilter } from '../../shared/storefront-input.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { cardsOf, cardsOfSlots } from './card-cache.js';
import { searchProducts } from './catalogue-search.repository.js';
import { type FacetSnapshot, idOfSlot, loadFacetSnapshot } from './snapshot/facet-snapshot.js';

function slotOfId(snap: FacetSnapshot, id: string): number {
  for (let slot = 0; slot < snap.alive.length * 32; slot++) if (idOfSlot(snap, slot) === id) return slot;
  throw new Error(`no slot for ${id}`);
}

const ALL: CatalogueFilter = { manufacturers: [], sizes: [], colors: [], tags: [], inStock: false };

describe('product cards kept per storefront revision', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'p1', title: 'Silk Kurta', price_minor: 1000 },
      { id: 'p2', title: 'Lawn Shawl', price_minor: 2000 },
    ]);
  });
  afterAll(async () => store.cleanup());

  const listed = async () => (await searchProducts(store.handle.db, ALL, { offset: 0, limit: 24 })).items;

  it('reads a card once per revision, and again once the revision moves', async () => {
    const db = store.handle.db;
    const [first] = await cardsOf(db, 'r1', ['p1']);
    const [again] = await cardsOf(db, 'r1', ['p1', 'missing']);
    expect(again).toBe(first);
    await db.updateTable('products').set({ title: 'Silk Kurta, lined' }).where('id', '=', 'p1').execute();
    // Still r1: the kept card answers (a change always moves the revision, which the next test shows).
    expect((await cardsOf(db, 'r1', ['p1']))[0]?.title).toBe('Silk Kurta');
    expect((await cardsOf(db, 'r2', ['p1']))[0]?.title).toBe('Silk Kurta, lined');
    expect((await cardsOf(db, 'r2', ['missing', 'p2', 'p1'])).map((c) => c.id)).toEqual(['p2', 'p1']);
  });

  it('reads each card asked for with the query compiled for that many ids', async () => {
    const db = store.handle.db;
    // One id, then another: the second read reuses the first one's compiled query with its own id.
    expect((await cardsOf(db, '7', ['p2'])).map((c) => c.id)).toEqual(['p2']);
    expect((await cardsOf(db, '7', ['p1'])).map((c) => c.id)).toEqual(['p1']);
    expect((await cardsOf(db, '8', ['p1', 'p2'])).map((c) => c.id)).toEqual(['p1', 'p2']);
    expect((await cardsOf(db, '9', ['missing', 'p1'])).map((c) => c.id)).toEqual(['p1']);
    expect((await cardsOf(db, '9', ['missing', 'p2'])).map((c) => c.id)).toEqual(['p2']);
  });

  it("keeps the newer revision's cards when a request that read an older one comes after it", async () => {
    const db = store.handle.db;
    const [kept] = await cardsOf(db, '41', ['p1']);
    // Read at 40, answered after 41 was: its cards are read as they are now, and not kept.
    const [late] = await cardsOf(db, '40', ['p1', 'missing']);
    expect(late).not.toBe(kept);
    expect(late).toEqual(kept);
    expect((await cardsOf(db, '41', ['p1']))[0]).toBe(kept);
  });

  it('finds cards by the slots of the snapshot that listed them, read once per revision and snapshot', async () => {
    const db = store.handle.db;
    const snap = await loadFacetSnapshot(db, 's1');
    const [p1, p2] = [slotOfId(snap, 'p1'), slotOfId(snap, 'p2')];
    const first = await cardsOfSlots(db, 's1', snap, [p2, p1]);
    expect(first.map((c) => c.id)).toEqual(['p2', 'p1']);
    // The same revision and snapshot: the same cards, by slot, in the order asked.
    const again = await cardsOfSlots(db, 's1', snap, [p1, p2]);
    expect(again[0]).toBe(first[1]);
    expect(again[1]).toBe(first[0]);
    await db.updateTable('products').set({ title: 'Lawn Shawl, long' }).where('id', '=', 'p2').execute();
    expect((await cardsOfSlots(db, 's1', snap, [p2]))[0]?.title).not.toBe('Lawn Shawl, long');
    // A new revision reads them again; a snapshot of the same revision made anew may number them otherwise.
    expect((await cardsOfSlots(db, 's2', snap, [p2]))[0]?.title).toBe('Lawn Shawl, long');
    const reloaded = await loadFacetSnapshot(db, 's2');
    const [kept] = await cardsOfSlots(db, 's2', snap, [p1]);
    const [fresh] = await cardsOfSlots(db, 's2', reloaded, [slotOfId(reloaded, 'p1')]);
    expect(fresh).not.toBe(kept);
    expect(fresh).toEqual(kept);
    // A product gone since the snapshot was made is left out.
    await db.deleteFrom('products').where('id', '=', 'p2').execute();
    expect(
      (await cardsOfSlots(db, '43', reloaded, [slotOfId(reloaded, 'p2'), slotOfId(reloaded, 'p1')])).map(
        (c) => c.id,
      ),
    ).toEqual(['p1']);
    await insertProducts(db, [{ id: 'p2', title: 'Lawn Shawl', price_minor: 1500 }]);
  });

  it('reads the cards of a late listing as they are now, leaving the newer cards by slot kept', async () => {
    const db = store.handle.db;
    const snap = await loadFacetSnapshot(db, '61');
    const slot = slotOfId(snap, 'p1');
    const [kept] = await cardsOfSlots(db, '61', snap, [slot]);
    // Read at 60, answered after 61 was: not from the cache, and not kept in it.
    const [late] = await cardsOfSlots(db, '60', snap, [slot]);
    expect(late).not.toBe(kept);
    expect(late).toEqual(kept);
    expect((await cardsOfSlots(db, '61', snap, [slot]))[0]).toBe(kept);
  });

  it('keeps the cards of one way of listing a revision at a time', async () => {
    const db = store.handle.db;
    const [byId] = await cardsOf(db, '71', ['p1']);
    expect((await cardsOf(db, '71', ['p1']))[0]).toBe(byId);
    // The snapshot lands for 71: its cards by slot replace those by id.
    const snap = await loadFacetSnapshot(db, '71');
    await cardsOfSlots(db, '71', snap, [slotOfId(snap, 'p1')]);
    expect((await cardsOf(db, '71', ['p1']))[0]).not.toBe(byId);
    // A listing SQL answers for an older revision leaves the newer cards by slot alone.
    const [bySlot] = await cardsOfSlots(db, '71', snap, [slotOfId(snap, 'p1')]);
    await cardsOf(db, '70', ['p1']);
    expect((await cardsOfSlots(db, '71', snap, [slotOfId(snap, 'p1')]))[0]).toBe(bySlot);
  });

  it("keeps a listed revision's cards by slot when cards of it are asked by id (related products)", async () => {
    const db = store.handle.db;
    const snap = await loadFacetSnapshot(db, '81');
    const [bySlot] = await cardsOfSlots(db, '81', snap, [slotOfId(snap, 'p1')]);
    await cardsOf(db, '81', ['p2']);
    expect((await cardsOfSlots(db, '81', snap, [slotOfId(snap, 'p1')]))[0]).toBe(bySlot);
    // A newer revision's cards by id still drop the older cards by slot.
    await cardsOf(db, '82', ['p2']);
    expect((await cardsOfSlots(db, '81', snap, [slotOfId(snap, 'p1')]))[0]).not.toBe(bySlot);
  });

  it('shows a product, media or price change on the next listing', async () => {
    const db = store.handle.db;
    expect((await listed()).map((c) => c.title)).toContain('Silk Kurta, lined');
    await db.updateTable('products').set({ price_minor: 1500 }).where('id', '=', 'p2').execute();
    expect((await listed()).find((c) => c.id === 'p2')?.priceMinor).toBe(1500);
    const now = new Date().toISOString();
    await db
      .insertInto('media')
      .values({
        id: 'm1',
        product_id: 'p2',
        media_type: 'image',
        alt_text: 'Folded',
        url: '/media/demo/shawl.svg',
        file_name: 'shawl.svg',
        display_order: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    expect((await listed()).find((c) => c.id === 'p2')?.image).toEqual({
      url: '/media/demo/shawl.svg',
      alt: 'Folded',
    });
  });
});
