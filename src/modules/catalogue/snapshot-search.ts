import type { DbOrTx } from '../../db/database.js';
import type { CatalogueFilter } from '../../shared/catalogue-input.js';
import { type FacetSnapshot, filterMasks, idOfSlot } from './facet-snapshot.js';
import { pageOf, type SlotSort } from './slot-orders.js';
import { countBits } from './slot-sets.js';
import { relevanceOrder, textMatch } from './snapshot-text.js';

/**
 * A listing page answered from the facet snapshot (decision 26): the filter is a mask of slots, the page the
 * first of them in a presorted order, the count a popcount. Relevance is an order of the words' matches
 * worked out in memory (decision 27). The database is read only for words the snapshot has not seen yet.
 */
export async function searchSnapshot(
  db: DbOrTx,
  snap: FacetSnapshot,
  f: CatalogueFilter,
  opts: { sort: SlotSort | 'relevance'; offset: number; limit: number },
): Promise<{ ids: string[]; count: number }> {
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
  return { ids: slots.map((s) => idOfSlot(snap, s)), count: countBits(everything) };
}
