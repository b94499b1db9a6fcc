import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProducts } from '../../../test-support/fixtures.js';
import { createTestStore, type TestStore } from '../../../test-support/test-store.js';
import { parseRowids } from '../rowid-list.js';
import {
  type FacetSnapshot,
  idOfSlot,
  loadedPosition,
  loadFacetSnapshot,
  maskOfRowidList,
  refreshFacetSnapshot,
} from './facet-snapshot.js';
import { eachSlot } from './slot-sets.js';

describe('maskOfRowidList', () => {
  let store: TestStore;
  let snap: FacetSnapshot;
  /** Each product's full-text rowid now. */
  let rowid: Record<string, number>;
  let goneRowid: number;

  beforeAll(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await insertProducts(
      db,
      ['p1', 'p2', 'p3', 'p4', 'p5'].map((id, i) => ({ id, title: `Kurta ${id}`, page_order: i })),
    );
    snap = await loadFacetSnapshot(db, 'r1');
    const before = await db.selectFrom('product_search_ids').select(['product_id', 'rowid']).execute();
    goneRowid = Number(before.find((r) => r.product_id === 'p2')?.rowid);
    // p2's words change: indexed again under a new rowid, its old slot dead and a new one added.
    await sql`UPDATE products SET title = 'Shawl p2' WHERE id = 'p2'`.execute(db);
    const refreshed = await refreshFacetSnapshot(db, snap, 'r2');
    if (!refreshed) throw new Error('expected the snapshot to follow one change');
    snap = refreshed;
    const rows = await db.selectFrom('product_search_ids').select(['product_id', 'rowid']).execute();
    rowid = Object.fromEntries(rows.map((r) => [r.product_id, Number(r.rowid)]));
  });
  afterAll(() => store.cleanup());

  const ids = (mask: Uint32Array) => {
    const found: string[] = [];
    eachSlot(mask, (slot) => found.push(idOfSlot(snap, slot)));
    return found.sort();
  };
  const list = (...products: string[]) => products.map((p) => rowid[p]).join(',');
  // As the engines hand them over: joined, then parsed.
  const maskOfRowids = (s: FacetSnapshot, joined: string | null) => maskOfRowidList(s, parseRowids(joined));

  it('finds loaded and added products, in any order, and leaves out rowids no live product has', () => {
    expect(ids(maskOfRowids(snap, list('p1', 'p3', 'p5')))).toEqual(['p1', 'p3', 'p5']);
    // Not ascending (string_agg promises no order), with p2's new rowid, its old one, and one never used.
    const shuffled = `${list('p5', 'p2', 'p1', 'p4')},${goneRowid},999999,${list('p3')}`;
    expect(ids(maskOfRowids(snap, shuffled))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(ids(maskOfRowids(snap, `${goneRowid}`))).toEqual([]);
    expect(ids(maskOfRowids(snap, null))).toEqual([]);
    expect(ids(maskOfRowids(snap, ''))).toEqual([]);
  });

  it('refuses a list that is not of rowids rather than guess', () => {
    expect(() => maskOfRowids(snap, '1,x2')).toThrow(/not a list of rowids/);
  });
});

describe('loadedPosition', () => {
  it('finds the first slot at or after `from` whose rowid is not below the one asked for, as a scan does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 0, maxLength: 300 }),
        fc.integer({ min: 0, max: 8_000 }),
        fc.nat(),
        (gaps, rowid, fromSeed) => {
          // Loaded slots hold ascending rowids (gaps between them), as a load lists them.
          let at = 0;
          const rowids = Float64Array.from(gaps, (gap) => (at += gap));
          const snap = { rowidOfSlot: rowids, loaded: { size: rowids.length } };
          const from = rowids.length === 0 ? 0 : fromSeed % (rowids.length + 1);
          let expected = from;
          while (expected < rowids.length && (rowids[expected] ?? 0) < rowid) expected++;
          expect(loadedPosition(snap, rowid, from)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
