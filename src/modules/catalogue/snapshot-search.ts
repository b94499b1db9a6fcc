import { lruGet, lruSet } from '../../core/lru.js';
import type { DbOrTx } from '../../db/database.js';
import type { CatalogueFilter } from '../../shared/catalogue-input.js';
import { type FacetSnapshot, type FilterMasks, filterMasks, idOfSlot } from './facet-snapshot.js';
import { filterKey } from './search-query.js';
import { pageOf, type SlotSort } from './slot-orders.js';
import { countBits } from './slot-sets.js';
import { relevanceOrder, type TextMatch, textMatch } from './snapshot-text.js';

/**
 * A listing page answered from the facet snapshot (decision 26): the filter is a mask of slots, the page the
 * first of them in a presorted order, the count a popcount. Relevance is an order of the words' matches
 * worked out in memory (decision 27). The database is read only for words the snapshot has not seen yet; the
 * page is of slots (card-cache.ts finds their cards), and its sold-out sizes (product id -> sizes, for the
 * cards' marks) come from the snapshot too.
 */
export async function searchSnapshot(
  db: DbOrTx,
  snap: FacetSnapshot,
  f: CatalogueFilter,
  opts: { sort: SlotSort | 'relevance'; offset: number; limit: number },
): Promise<{ slots: number[]; count: number; soldOut: Map<string, Set<string>> }> {
  const filtered = await filterOver(db, snap, f);
  const { text } = filtered;
  // From here on synchronous: the page and the count are of one revision.
  const { everything } = masksNow(snap, f, filtered);
  const order =
    opts.sort === 'relevance'
      ? text
        ? relevanceOrder(snap, text)
        : snap.orders.featured
      : snap.orders[opts.sort];
  const slots = pageOf(order, everything, opts.offset, opts.limit);
  // The page's sold-out sizes (by product id), of the same revision as the page, for the cards' marks.
  const soldOut = new Map<string, Set<string>>();
  for (const slot of slots) {
    const sizes = snap.soldOutSizesOf.get(slot);
    if (sizes) soldOut.set(idOfSlot(snap, slot), sizes);
  }
  return { slots, count: countBits(everything), soldOut };
}

/** A filter's words and masks over a snapshot, and the revision they are of. */
export type Filtered = { revision: string; text: TextMatch | null; masks: FilterMasks };

/**
 * Filters worked out lately, per snapshot: a listing's page and its facet counts come in one batch, one
 * call after the other, with the same filter. Few, since every answer is kept by the response caches.
 */
const FILTERED = 16;
const filtered = new WeakMap<FacetSnapshot, Map<string, Filtered>>();

/**
 * The words' match and the filter's masks over the snapshot (filterMasks), worked out once for the calls of
 * a batch. Kept under the snapshot's revision, which moves with every change it follows (a size selling
 * out too, which words and seq do not see).
 */
export async function filterOver(db: DbOrTx, snap: FacetSnapshot, f: CatalogueFilter): Promise<Filtered> {
  let kept = filtered.get(snap);
  if (!kept) {
    kept = new Map();
    filtered.set(snap, kept);
  }
  const key = filterKey(f);
  const known = lruGet(kept, key);
  if (known && known.revision === snap.revision) return known;
  const text = await textMatch(db, snap, f.q);
  // Synchronous from the match on: the masks are of the revision the snapshot has now.
  const masks = filterMasks(snap, f, text?.mask ?? null);
  const entry = { revision: snap.revision, text, masks };
  // Words read across a product's change are of neither side of it: used once, not kept.
  if (!text || text.seq === snap.seq) lruSet(kept, key, entry, FILTERED);
  return entry;
}

/**
 * The masks to count or list with, synchronously with their use: a refresh may have landed between
 * filterOver's answer and its caller's next step (an await apart), and then they are worked out again on
 * the snapshot as it is now.
 */
export function masksNow(snap: FacetSnapshot, f: CatalogueFilter, filtered: Filtered): FilterMasks {
  return filtered.revision === snap.revision
    ? filtered.masks
    : filterMasks(snap, f, filtered.text?.mask ?? null);
}
