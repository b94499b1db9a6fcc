import { sql } from 'kysely';
import { lruGet, lruSet } from '../../core/lru.js';
import type { DbOrTx } from '../../db/database.js';
import type { CatalogueFilter } from '../../shared/catalogue-input.js';
import {
  type FacetSnapshot,
  filterMasks,
  idOfSlot,
  type RankedMatches,
  SEPARATOR,
  slotOfRowid,
  TEXT_MASKS,
  textMask,
} from './facet-snapshot.js';
import { fullText } from './full-text.js';
import { searchTerms } from './search-query.js';
import { pageOf, type SlotSort } from './slot-orders.js';
import { andNot, countBits, eachSlot, hasBit, setBit } from './slot-sets.js';

/**
 * A listing page answered from the facet snapshot (decision 26): the filter is a mask of slots, the page the
 * first of them in a presorted order, the count a popcount. The database is read only for the words' matches
 * (kept per revision and words) and, for relevance, the ranked window of the newest matches.
 */
export async function searchSnapshot(
  db: DbOrTx,
  snap: FacetSnapshot,
  f: CatalogueFilter,
  opts: { sort: SlotSort | 'relevance'; offset: number; limit: number; window: number },
): Promise<{ ids: string[]; count: number }> {
  const text = await textMask(db, snap, f.q);
  const ranked = opts.sort === 'relevance' && text ? await rankedMatches(db, snap, f.q, opts.window) : null;
  // From here on synchronous: the page and the count are of one revision.
  const { everything } = filterMasks(snap, f, text);
  const slots = ranked
    ? relevancePage(snap, everything, ranked, opts.offset, opts.limit)
    : pageOf(
        snap.orders[opts.sort === 'relevance' ? 'featured' : opts.sort],
        everything,
        opts.offset,
        opts.limit,
      );
  return { ids: slots.map((s) => idOfSlot(snap, s)), count: countBits(everything) };
}

/**
 * The newest `window` matches of the words, ranked as the SQL listing ranks them (bm25 or ts_rank, ties in
 * index order). Kept per revision, words and window: the other filters only pick among them.
 */
async function rankedMatches(
  db: DbOrTx,
  snap: FacetSnapshot,
  q: string | undefined,
  window: number,
): Promise<RankedMatches> {
  const key = `${snap.revision}${SEPARATOR}${searchTerms(q)?.join(' ') ?? ''}${SEPARATOR}${window}`;
  const known = lruGet(snap.rankedSlots, key);
  if (known) return known;
  const text = await fullText(db, q);
  const rows = text
    ? (
        await sql<{ rowid: number }>`SELECT w.rowid FROM (
            SELECT ${text.rowid} AS rowid, ${text.rank} AS rank FROM ${text.table} WHERE ${text.match}
            ORDER BY ${text.rowid} DESC LIMIT ${window}
          ) w ORDER BY w.rank, w.rowid`.execute(db)
      ).rows
    : [];
  const slots: number[] = [];
  for (const { rowid } of rows) {
    const slot = slotOfRowid(snap, Number(rowid));
    if (slot !== undefined) slots.push(slot);
  }
  const ranked = { slots: Uint32Array.from(slots), full: rows.length >= window };
  lruSet(snap.rankedSlots, key, ranked, TEXT_MASKS);
  return ranked;
}

/**
 * A page in relevance order: the ranked window's matches that pass the filter, then (when the window was
 * full) the older matches that pass it, newest first. A filter thus only removes products from the order
 * the words alone give; it never reorders the rest.
 */
function relevancePage(
  snap: FacetSnapshot,
  mask: Uint32Array,
  ranked: RankedMatches,
  offset: number,
  limit: number,
): number[] {
  const page: number[] = [];
  let passed = 0;
  for (const slot of ranked.slots) {
    if (page.length === limit) return page;
    if (!hasBit(mask, slot)) continue;
    if (passed >= offset) page.push(slot);
    passed++;
  }
  if (page.length === limit || !ranked.full) return page;
  const inWindow = new Uint32Array(mask.length);
  for (const slot of ranked.slots) setBit(inWindow, slot);
  const older: number[] = [];
  eachSlot(andNot(mask, inWindow), (slot) => older.push(slot));
  older.sort((a, b) => (snap.rowidOfSlot[b] ?? 0) - (snap.rowidOfSlot[a] ?? 0));
  const skip = Math.max(0, offset - passed);
  page.push(...older.slice(skip, skip + limit - page.length));
  return page;
}
