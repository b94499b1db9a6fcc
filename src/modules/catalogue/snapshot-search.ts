import type { DbOrTx } from '../../db/database.js';
import type { CatalogueFilter } from '../../shared/catalogue-input.js';
import { type FacetSnapshot, filterMasks, idOfSlot } from './facet-snapshot.js';
import { pageOf, type SlotSort } from './slot-orders.js';
import { countBits, hasBit } from './slot-sets.js';
import { relevanceOrder, textMatch } from './snapshot-text.js';

/**
 * A listing page answered from the facet snapshot (decision 26): the filter is a mask of slots, the page the
 * first of them in a presorted order, the count a popcount. Relevance is an order of the words' matches
 * worked out in memory (decision 27). The database is read only for words the snapshot has not seen yet; the
 * page's sold-out marks come from the snapshot too.
 */
export async function searchSnapshot(
  db: DbOrTx,
  snap: FacetSnapshot,
  f: CatalogueFilter,
  opts: { sort: SlotSort | 'relevance'; offset: number; limit: number },
): Promise<{ ids: string[]; count: number; soldOut: Set<string> }> {
  const text = await textMatch(db, snap, f.q);
  // From here on synchronous: the page and the count are of one revision.
  const { everything } = filterMasks(snap, f, text?.mask ?? null);
  const order =
    opts.sort === 'relevance'
      ? text
        ? relevanceOrder(snap, text)
        : snap.orders.featured
      : snap.orders[opts.sort];
  const slots = pageOf(order, everything, opts.offset, opts.limit);
  const ids = slots.map((s) => idOfSlot(snap, s));
  // The cards' sold-out marks as the snapshot holds them: of the same revision as the page, and the very
  // test the in-stock filter makes, so a card marked sold out is one that filter leaves out.
  const soldOut = new Set(ids.filter((_, i) => hasBit(snap.everySizeSoldOut, slots[i] ?? -1)));
  return { ids, count: countBits(everything), soldOut };
}
